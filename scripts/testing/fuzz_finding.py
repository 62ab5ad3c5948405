# SPDX-License-Identifier: GPL-2.0
"""A fuzz target's known finding, as an expected failure: replay its
input with its fence down and require the run to fail with every
expected string in its output. Passes when it does; fails (saying why)
when the input no longer makes the kernel do it: a kernel or kshim change
made the finding go away, and the fence, the input and the README's
analysis are then to be looked at again.

usage: python3 -m scripts.testing.fuzz_finding REPLAY INPUT FINDING STRING...
"""
import os
import subprocess
import sys


def main(argv):
	if len(argv) < 4 or argv[0] in ('-h', '--help'):
		print(__doc__)
		return 0 if argv[:1] in (['-h'], ['--help']) else 2
	replay, path, finding, expect = argv[0], argv[1], argv[2], argv[3:]
	env = dict(os.environ, KSHIM_FUZZ_UNFENCE=finding)
	# A UBSan report must end the run (./kshim test --asan sets the
	# same), or a finding only UBSan sees would pass.
	env.setdefault('UBSAN_OPTIONS', 'print_stacktrace=1:halt_on_error=1')
	r = subprocess.run([replay, path], env=env, stdout=subprocess.PIPE,
			   stderr=subprocess.STDOUT, text=True,
			   errors='replace')
	out = r.stdout
	missing = [e for e in expect if e not in out]
	print(out[-6000:])
	if r.returncode == 0:
		print('fuzz finding %s: NOT CAUGHT: the replay passed' % finding)
		return 1
	if missing:
		print('fuzz finding %s: the replay failed (exit %d) but its '
		      'report lacks: %s' % (finding, r.returncode,
					    ', '.join(repr(m) for m in missing)))
		return 1
	print('fuzz finding %s: reproduced (exit %d), as expected' % (
		finding, r.returncode))
	print('KSHIM-RESULT tests=1 passed=1 failed=0 skipped=0')
	return 0


if __name__ == '__main__':
	sys.exit(main(sys.argv[1:]))
