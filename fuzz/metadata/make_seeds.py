#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write fuzz/metadata/corpus/: the real structures of the filesystem the
target sets up (seed 1, det backend: the same bytes on every run), one
input per structure, dumped by the target's own set-up.

  fuzz/metadata/make_seeds.py [BUILDDIR]     (default: build)
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
	exe = os.path.join(bd, 'fuzz', 'fuzz_metadata_replay')
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
			   stdout=subprocess.DEVNULL)
	if r.returncode:
		print('make_seeds: %s failed (exit %d)' % (exe, r.returncode),
		      file=sys.stderr)
		return 1
	print('make_seeds: %d inputs in %s' % (len(os.listdir(out)), out))
	return 0


if __name__ == '__main__':
	sys.exit(main(sys.argv[1:]))
