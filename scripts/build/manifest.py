#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write or print kshim's build manifest: which kernel, which patches, and the
sha256 of every kernel file compiled.

Build time (a meson custom_target):
  kshim_manifest.py --tree-json WORKDIR/tree.json --tree TREE --out OUT FILE...
FILE is a kernel-relative path ("mm/list_lru.c") or an absolute path inside
TREE or inside the overlay (a symlink into TREE); either is recorded
tree-relative.

Report time:
  kshim_manifest.py --print BUILDDIR/manifest.json
"""

import argparse
import hashlib
import json
import os
import sys


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
	ap = Parser(description=__doc__.split('\n')[0])
	ap.add_argument('--print', dest='show', metavar='MANIFEST',
			help='print a short human form of MANIFEST')
	ap.add_argument('--tree-json')
	ap.add_argument('--tree')
	ap.add_argument('--out')
	ap.add_argument('files', nargs='*', metavar='FILE')
	a = ap.parse_args(argv)
	if a.show:
		show(a.show)
		return 0
	if not (a.tree_json and a.tree and a.out):
		ap.error('--tree-json, --tree and --out are required '
			 '(or --print MANIFEST)')
	write(a)
	return 0


if __name__ == '__main__':
	try:
		sys.exit(main(sys.argv[1:]))
	except KshimError as e:
		print('kshim: %s' % e, file=sys.stderr)
		sys.exit(1)
	except OSError as e:
		print('kshim: %s' % e, file=sys.stderr)
		sys.exit(1)
