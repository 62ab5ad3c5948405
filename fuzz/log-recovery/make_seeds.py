#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write fuzz/log-recovery/corpus/: kshim's workloads on the target's
golden image, power-failed at chosen points, each crashed image as an
input (the log sectors written and the metadata blocks written back),
made by the target's own set-up (seed 1, det backend: the same bytes on
every run). Each seed is replayed as it is written; its mounts' results
are printed.

  fuzz/log-recovery/make_seeds.py [BUILDDIR]     (default: build)
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.realpath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def main(argv):
	if argv[:1] in (['-h'], ['--help']):
		print(__doc__)
		return 0
	bd = os.path.join(REPO, argv[0] if argv else 'build')
	exe = os.path.join(bd, 'fuzz', 'fuzz_log_recovery_replay')
	if not os.access(exe, os.X_OK):
		print('make_seeds: %s not built (./kshim build)' % exe,
		      file=sys.stderr)
		return 2
	out = os.path.join(HERE, 'corpus')
	os.makedirs(out, exist_ok=True)
	for f in os.listdir(out):
		if f != 'README.md':
			os.unlink(os.path.join(out, f))
	env = dict(os.environ, KSHIM_FUZZ_SEEDS_OUT=out)
	r = subprocess.run([exe, '/dev/null'], env=env,
			   stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
			   text=True, errors='replace')
	for line in r.stdout.splitlines():
		if 'fuzz_log_recovery: seed' in line:
			print(line.strip())
	if r.returncode:
		print(r.stdout[-4000:], file=sys.stderr)
		print('make_seeds: %s failed (exit %d)' % (exe, r.returncode),
		      file=sys.stderr)
		return 1
	print('make_seeds: %d inputs in %s' % (len(os.listdir(out)), out))
	return 0


if __name__ == '__main__':
	sys.exit(main(sys.argv[1:]))
