# SPDX-License-Identifier: GPL-2.0
"""Which files of the kernel tree a kshim build dir compiles or includes.

The compiled .c files are the manifest's; the headers are the ones the
compiler recorded as dependencies (ninja -t deps) that resolve into the
build's kernel tree. A header seen through the overlay is the kernel's only
if its symlink points into the tree: the overlay also holds kshim's own
headers that replace a kernel one, and those are not the kernel's text.
"""

import json
import os
import subprocess


def _load(path):
	try:
		with open(path) as f:
			return json.load(f)
	except (OSError, ValueError):
		return {}


def manifest(bd):
	return _load(os.path.join(bd, 'manifest.json'))


def tree_of(bd):
	"""The kernel tree BD compiles from (the patched copy when patched)."""
	return _load(os.path.join(bd, 'kernel', 'tree.json')).get('tree')


def compiled_c_files(bd):
	return set(manifest(bd).get('files', {}))


def included_files(bd):
	"""Tree-relative paths of the kernel headers BD's objects depend on
	(empty before a first build)."""
	tree = tree_of(bd)
	if not tree:
		return set()
	root = os.path.realpath(tree) + os.sep
	r = subprocess.run(['ninja', '-C', bd, '-t', 'deps'],
			   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
			   text=True, errors='replace')
	seen, out = set(), set()
	for line in r.stdout.splitlines():
		if not line.startswith(' '):
			continue
		dep = line.strip()
		if dep in seen:
			continue
		seen.add(dep)
		real = os.path.realpath(dep)
		if real.startswith(root) and not real.endswith('.c'):
			out.add(real[len(root):])
	return out


def used_files(bd):
	"""Every kernel file whose text reaches BD's objects."""
	return compiled_c_files(bd) | included_files(bd)
