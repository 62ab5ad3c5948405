# SPDX-License-Identifier: GPL-2.0
"""The tests a patch left byte for byte the same run on the base side only.

A patch to fs/xfs/xfs_log.c changes the XFS binaries. The binaries of the
lib, mm and runtime tests link none of its objects, and reuse.py copies
every one of their objects from the base build, so they come out the
base's, byte for byte. Such a test runs the same program on the same inputs
on both sides: a det test gives the same results and trace hashes at every
seed (a seed is a promise: the determinism test and prevalidate's replay
check hold kshim to it), so a second run on the patched side costs time and
tells nothing. Its base results stand for both sides, and the report lists
it.

A test is taken only when everything it runs is known: a binary of the
build dir, or one of WRAPPERS, which run only the binaries their arguments
name (and files of this repository, the same on both sides). A python test
script may read anything of the build dir or the kernel tree, so it runs on
both sides, unless tests/meson.build puts it in the NO_BUILD_SUITE: a test
of kshim's own tools that reads only this repository's files, the same
program on both sides whatever the patch. The scenario tests always run on
both sides: the figures they write are files of the build dir that no test
is named in, so a scenario's base figures could not be told apart from
another's.
"""

import filecmp
import os

# scripts/testing/: each runs the binaries its arguments name, nothing else.
WRAPPERS = ('scripts.testing.expect_failure', 'scripts.testing.fuzz_finding',
	    'scripts.testing.determinism')
# Their figures are not attributed to a test (see above).
ALWAYS_RUN_SUITE = 'scenario'
# Declared in tests/meson.build: runs nothing built, reads no build dir.
NO_BUILD_SUITE = 'nobuild'


def inside(path, d):
	return path == d or path.startswith(d + os.sep)


def is_built_binary(path, bd):
	"""An ELF file of BD (a script there could read anything)."""
	if not inside(path, bd):
		return False
	with open(path, 'rb') as f:
		return f.read(4) == b'\x7fELF'


def arg_files(t, bd):
	"""The files test T's command names, its relative arguments taken in
	its working directory (meson's default: the build dir BD)."""
	cwd = t.get('workdir') or bd
	paths = (os.path.join(cwd, c) for c in t['cmd'])
	return [os.path.realpath(p) for p in paths if os.path.isfile(p)]


def in_suite(t, suite):
	return any(s.split(':')[-1] == suite for s in t['suite'])


def is_scenario(t):
	return in_suite(t, ALWAYS_RUN_SUITE)


def built_files(t, bd):
	"""The files of build dir BD that test T runs, or None when what it
	runs is not known (a test script) or it is a scenario."""
	if is_scenario(t):
		return None
	bd = os.path.realpath(bd)
	cmd = t['cmd']
	files = arg_files(t, bd)
	wrapper = '-m' in cmd[:-1] and cmd[cmd.index('-m') + 1] in WRAPPERS
	if not files or not (wrapper or is_built_binary(files[0], bd)):
		return None
	return [f for f in files if inside(f, bd)] or None


def tests(base_bd, pat_bd, intro, names):
	"""The tests of NAMES whose files in the patched build dir PAT_BD
	(INTRO: its meson introspect --tests) are byte for byte the files at
	the same place in BASE_BD, and those that read no build dir."""
	base_bd, pat_bd = os.path.realpath(base_bd), os.path.realpath(pat_bd)
	same = {}

	def unchanged(f):
		if f not in same:
			b = base_bd + f[len(pat_bd):]
			same[f] = os.path.isfile(b) and \
				filecmp.cmp(f, b, shallow=False)
		return same[f]
	by_name = {t['name']: t for t in intro}
	out = []
	for n in names:
		t = by_name.get(n)
		if t and in_suite(t, NO_BUILD_SUITE) and not is_scenario(t):
			out.append(n)
			continue
		files = built_files(t, pat_bd) if t else None
		if files and all(unchanged(f) for f in files):
			out.append(n)
	return out
