# SPDX-License-Identifier: GPL-2.0
"""kshim's build manifest: which kernel, which patches, and the sha256 of
every kernel file compiled.

Report time (main):
  ./kshim manifest BUILDDIR_OR_MANIFEST

Build time, meson's custom_target (write_main):
  python3 -m scripts.build.manifest --tree-json WORKDIR/tree.json \
          --tree TREE --out OUT FILE...
FILE is a kernel-relative path ("mm/list_lru.c") or an absolute path inside
TREE or inside the overlay (a symlink into TREE); either is recorded
tree-relative.
"""

import argparse
import hashlib
import json
import os
import sys

import scripts


class KshimError(Exception):
	pass


class Parser(argparse.ArgumentParser):
	def error(self, message):
		raise KshimError('scripts.build.manifest: %s' % message)


def sha256(path):
	h = hashlib.sha256()
	with open(path, 'rb') as f:
		for chunk in iter(lambda: f.read(1 << 20), b''):
			h.update(chunk)
	return h.hexdigest()


def combined(files, patches):
	"""One hash for "the same kernel code": files and patches, in order."""
	h = hashlib.sha256()
	for path in sorted(files):
		h.update(('%s %s\n' % (files[path], path)).encode())
	for p in patches:
		h.update(('patch %s\n' % p['sha256']).encode())
	return h.hexdigest()


def tree_relative(f, tree):
	real_tree = os.path.realpath(tree)
	if os.path.isabs(f):
		real = os.path.realpath(f)
	else:
		real = os.path.realpath(os.path.join(tree, f))
	if os.path.commonpath([real, real_tree]) != real_tree:
		raise KshimError('%s is not a file of the kernel tree %s'
				 % (f, tree))
	if not os.path.isfile(real):
		raise KshimError('kernel file %s not found (%s)' % (f, real))
	return os.path.relpath(real, real_tree), real


def write(a):
	try:
		with open(a.tree_json) as fp:
			info = json.load(fp)
	except (OSError, ValueError) as e:
		raise KshimError('cannot read %s: %s (reconfigure the build '
				 'directory)' % (a.tree_json, e))
	files = {}
	for f in a.files:
		rel, real = tree_relative(f, a.tree)
		files[rel] = sha256(real)
	patches = info.get('patches', [])
	man = {
		'kernel_version': info.get('version'),
		'tree': os.path.abspath(a.tree),
		'source': info.get('source'),
		'patches': patches,
		'files': dict(sorted(files.items())),
		'combined_sha256': combined(files, patches),
	}
	text = json.dumps(man, indent=1) + '\n'
	tmp = '%s.tmp.%d' % (a.out, os.getpid())
	with open(tmp, 'w') as fp:
		fp.write(text)
	os.replace(tmp, a.out)


def show(path):
	try:
		with open(path) as fp:
			man = json.load(fp)
	except (OSError, ValueError) as e:
		raise KshimError('cannot read manifest %s: %s' % (path, e))
	if not isinstance(man, dict) or 'combined_sha256' not in man:
		raise KshimError('%s is not a kshim build manifest' % path)
	patches = man.get('patches') or []
	print('kernel:   Linux %s from %s' % (man.get('kernel_version'),
					       man.get('source')))
	print('tree:     %s' % man.get('tree'))
	print('files:    %d kernel files compiled, combined sha256 %s'
	      % (len(man.get('files', {})),
		 (man.get('combined_sha256') or '?')[:16]))
	if not patches:
		print('patches:  none')
	for i, p in enumerate(patches):
		print('%s %s (sha256 %s)' % ('patches: ' if i == 0 else
					     '         ', p['path'],
					     p['sha256'][:16]))
	print('manifest: %s' % os.path.abspath(path))


def main(argv):
	"""./kshim manifest: print a build dir's manifest."""
	ap = scripts.ArgumentParser(
		prog='kshim manifest',
		description='Print the build manifest of a build dir: the '
		'kernel version and where it came from, the tree compiled, how '
		'many kernel files and their combined sha256, the patches '
		'applied.')
	ap.add_argument('path', metavar='BUILDDIR_OR_MANIFEST',
			help='a build dir (relative to the working directory '
			'or to the repository root), or its manifest.json')
	a = ap.parse_args(argv)
	path = scripts.user_path(a.path)
	if not os.path.exists(path):
		raise scripts.Error('%s: no such build dir or file' % a.path)
	if os.path.isdir(path):
		path = os.path.join(path, 'manifest.json')
		if not os.path.isfile(path):
			raise scripts.Error('%s has no manifest.json: not a '
					    'build dir, or not built yet '
					    '(./kshim build)' % a.path)
	try:
		show(path)
	except KshimError as e:
		raise scripts.Error(str(e))
	return 0


def write_main(argv):
	"""meson's custom_target: write the manifest."""
	ap = Parser(description=__doc__.split('\n')[0])
	ap.add_argument('--tree-json', required=True)
	ap.add_argument('--tree', required=True)
	ap.add_argument('--out', required=True)
	ap.add_argument('files', nargs='*', metavar='FILE')
	write(ap.parse_args(argv))
	return 0


if __name__ == '__main__':
	try:
		sys.exit(write_main(sys.argv[1:]))
	except KshimError as e:
		print('kshim: %s' % e, file=sys.stderr)
		sys.exit(1)
	except OSError as e:
		print('kshim: %s' % e, file=sys.stderr)
		sys.exit(1)
