# SPDX-License-Identifier: GPL-2.0
"""Where the base side is kept: one directory per kernel source, shared by
every work dir that tests patches against that source.

The base side is the same whatever the patch: the same tree built with the
same options, its tests run with the same seeds (base_results.py re-runs
what a changed option or file makes stale). Kept in the work dir, it was
built and run again for every new work dir. Shared, a new work dir builds
and runs the patched side only, its objects copied from the shared base
(reuse.py).

The directory (BASES/NAME-KEY, or --base-dir) holds base/ (the build dir),
base-results.json, base-gcda/ and base-rerun-gcda/. A run holds its lock
from start to end, since the patched side reads the base's objects and
coverage: a second prevalidate on the same source waits for the first,
and says so.
"""

import contextlib
import fcntl
import hashlib
import json
import os
import re

from scripts import REPO

BASES = os.path.join(REPO, 'build-prevalidate-bases')
LOCK = 'lock'


def source_of(a, default_tarball):
	"""The kernel source a run's base is built from, as configure() takes
	it: (--kernel-src, tarball), absolute paths."""
	src = os.path.realpath(a.kernel_src) if a.kernel_src else ''
	return src, os.path.realpath(a.kernel_tarball or default_tarball)


def default(a, default_tarball):
	"""BASES/NAME-KEY: NAME says which source (the tree's or the
	tarball's file name), KEY tells apart sources of the same name."""
	src, tar = source_of(a, default_tarball)
	name = os.path.basename(src or tar) or 'root'
	name = re.sub(r'[^A-Za-z0-9._-]', '_', name)
	if not src:
		# linux-source-6.12.tar.xz: the dir names the tree, not the file.
		name = re.sub(r'\.tar(\.[a-z0-9]+)?$', '', name)
	key = hashlib.sha256(json.dumps([src, tar]).encode()).hexdigest()[:12]
	return os.path.join(BASES, '%s-%s' % (name, key))


def resolve(a, default_tarball):
	"""--base-dir (relative to the repo, as --workdir is), or default()."""
	if not a.base_dir:
		return default(a, default_tarball)
	return a.base_dir if os.path.isabs(a.base_dir) else \
		os.path.join(REPO, a.base_dir)


@contextlib.contextmanager
def held(home, progress):
	"""HOME, locked for this run: another run that holds it is waited
	for, with a line that says so."""
	os.makedirs(home, exist_ok=True)
	fd = os.open(os.path.join(home, LOCK), os.O_RDWR | os.O_CREAT, 0o644)
	try:
		try:
			fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
		except BlockingIOError:
			progress('waiting', 'another prevalidate is using the '
				 'base side in %s' % home)
			fcntl.flock(fd, fcntl.LOCK_EX)
		yield home
	finally:
		os.close(fd)
