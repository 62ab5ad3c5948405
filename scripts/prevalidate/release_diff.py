# SPDX-License-Identifier: GPL-2.0
"""The diff between two kernel releases in the files kshim compiles.

  ./kshim release-diff OLD NEW -o PATCH [--builddir build]

OLD and NEW are each a kernel tree, a linux-source-6.12.tar.xz, or the
linux-source-6.12_*.deb Debian ships it in (apt-get download
linux-source-6.12=6.12.107-1~deb12u1 fetches an older point release).

The files are those BUILDDIR compiles and the kernel headers they include
(scripts/build/used_files.py): a stable update's real upstream patches, cut
down to what kshim can judge. Apply the result to OLD and every file kshim
uses is NEW's, so `./kshim prevalidate --kernel-tarball OLD PATCH` checks
the update.
Only the files needed are read out of a tarball; nothing is written but
PATCH and a temporary directory.
"""

import argparse
import os
import subprocess
import tarfile
import tempfile

import scripts
from scripts.build import used_files as kuf

DEB_TARBALL = './usr/src/linux-source-6.12.tar.xz'


def die(msg, status=2):
	raise scripts.Error(msg, status)


def tarball_of(src, tmp):
	"""SRC's kernel tarball: SRC itself, or the one inside a .deb."""
	if not src.endswith('.deb'):
		return src
	out = os.path.join(tmp, os.path.basename(src) + '.tar.xz')
	with open(out, 'wb') as f:
		deb = subprocess.Popen(['dpkg-deb', '--fsys-tarfile', src],
				       stdout=subprocess.PIPE)
		r = subprocess.run(['tar', '-xO', DEB_TARBALL],
				   stdin=deb.stdout, stdout=f,
				   stderr=subprocess.PIPE)
		deb.wait()
	if deb.returncode or r.returncode:
		die('%s holds no %s: %s' % (src, DEB_TARBALL,
					    r.stderr.decode().strip()))
	return out


def tree_of(src, files, tmp, label):
	"""A directory holding SRC's version of FILES (those it has)."""
	if os.path.isdir(src):
		return src
	tarball = tarball_of(src, tmp)
	dest = os.path.join(tmp, label)
	os.makedirs(dest)
	try:
		with tarfile.open(tarball) as t:
			# Streamed once, in archive order: one pass over the xz.
			for m in t:
				top, _, rel = m.name.partition('/')
				if rel in files and m.isfile():
					m.name = rel
					t.extract(m, dest, set_attrs=False)
	except (OSError, tarfile.TarError) as e:
		die('cannot read %s: %s' % (src, e))
	return dest


def unified(old, new, rel):
	"""diff -u of REL between trees OLD and NEW, a/ b/ labelled; '' if
	the same."""
	o, n = os.path.join(old, rel), os.path.join(new, rel)
	r = subprocess.run(['diff', '-uN', '--label', 'a/' + rel, '--label',
			    'b/' + rel, o if os.path.exists(o) else '/dev/null',
			    n if os.path.exists(n) else '/dev/null'],
			   stdout=subprocess.PIPE, text=True, errors='replace')
	if r.returncode > 1:
		die('diff failed on %s' % rel, status=1)
	return r.stdout


def main(argv):
	paras = __doc__.split('\n\n')
	ap = scripts.ArgumentParser(
		prog='kshim release-diff', description=paras[0],
		epilog='\n\n'.join(paras[2:]),
		formatter_class=argparse.RawDescriptionHelpFormatter)
	ap.add_argument('old', metavar='OLD',
			help='the older release: a tree, a tarball or a .deb')
	ap.add_argument('new', metavar='NEW', help='the newer release')
	ap.add_argument('-o', '--output', required=True, metavar='PATCH',
			help='the patch to write')
	ap.add_argument('--builddir', default='build', metavar='DIR',
			help='a built kshim build dir: which files kshim uses '
			'(relative to the working directory or the '
			'repository root; default %(default)s)')
	a = ap.parse_args(argv)
	for src in (a.old, a.new):
		if not os.path.exists(src):
			die('%s not found' % src)
	bd = scripts.user_path(a.builddir)
	if not kuf.compiled_c_files(bd):
		die('%s has no manifest.json: run ./kshim build first'
		    % a.builddir)
	files = kuf.used_files(bd)
	with tempfile.TemporaryDirectory(prefix='kshim-release-diff-') as tmp:
		old = tree_of(a.old, files, tmp, 'old')
		new = tree_of(a.new, files, tmp, 'new')
		chunks = [(rel, unified(old, new, rel)) for rel in sorted(files)]
	changed = [(rel, d) for rel, d in chunks if d]
	with open(a.output, 'w') as f:
		f.write(''.join(d for _, d in changed))
	print('%s: %d of the %d files kshim uses differ (%d .c files, %d '
	      'headers)' % (a.output, len(changed), len(files),
			    sum(r.endswith('.c') for r, _ in changed),
			    sum(not r.endswith('.c') for r, _ in changed)))
	return 0
