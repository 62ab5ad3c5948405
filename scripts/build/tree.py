# SPDX-License-Identifier: GPL-2.0
"""Prepare the kernel tree kshim compiles from.  Run by meson at configure time
(python3 -m scripts.build.tree).

Prints ONE line on stdout on success: the absolute path of the tree to compile
from.  On failure prints one line starting with "kshim:" on stderr and exits 1,
so meson.build can show it verbatim.

The tree is one of:
  - WORKDIR/linux: the listed dirs extracted from the kernel tarball (Debian's
    linux-source-6.12 by default), re-extracted only when the tarball or the
    list of dirs changed;
  - the user's tree (-Dkernel_src), which is only ever read;
  - WORKDIR/linux-patched: a fresh copy of the listed dirs of either of the
    above with the patches applied, because patches must never touch the
    user's tree and the extracted tree is cached across configures. A copy
    of the extracted tree is made of hard links; each file a patch or
    keep_times() changes gets its own inode first.

The overlay directory holds symlinks: kernel-shim/overlay/<kernel path> for
headers that override a kernel's quoted #include, and --link'ed kernel .c
files.  A .c file compiled as OVERLAY/mm/list_lru.c finds OVERLAY/mm/internal.h
first for #include "internal.h", because the compiler searches the directory
of the path it was given, not of the symlink's target.

WORKDIR/tree.json records what was used, for the build manifest.
"""

import argparse
import filecmp
import hashlib
import json
import os
import re
import shutil
import stat
import subprocess
import sys
import tarfile
import time

from scripts import REPO

SUPPORTED = (6, 12)
# The top-level parts of a kernel tree kshim extracts, copies for patches
# and lets patches touch: what the compiled files and their headers need
# (scripts/ for the generators of generated headers). prevalidate --commits
# limits a git history to them.
KERNEL_DIRS = ('Makefile', 'include', 'lib', 'mm', 'fs', 'kernel', 'block',
	       'scripts')


class KshimError(Exception):
	pass


def die(msg):
	raise KshimError(msg)


class Parser(argparse.ArgumentParser):
	# argparse prints usage and exits 2; meson.build expects one kshim: line.
	def error(self, message):
		die('scripts.build.tree: %s' % message)


def resolve_input(path, what, must_exist=True):
	"""Absolute path of a user-supplied path.

	meson runs us from the source dir (the repo root), but a user may have
	typed the path relative to the shell they ran meson from: $PWD is
	inherited unchanged through meson, unlike the working directory.  So a
	relative path is tried against the working directory, the repo root,
	then $PWD.
	"""
	if os.path.isabs(path):
		cands = [os.path.normpath(path)]
	else:
		bases = []
		for b in (os.getcwd(), REPO, os.environ.get('PWD')):
			if b and os.path.abspath(b) not in bases:
				bases.append(os.path.abspath(b))
		cands = [os.path.normpath(os.path.join(b, path))
			 for b in bases]
	for cand in cands:
		if os.path.exists(cand):
			return cand
	if not must_exist:
		return cands[0]
	die('%s %s not found' % (what, cands[0]) if len(cands) == 1 else
	    '%s %s not found (looked in %s)' % (what, path, ', '.join(cands)))


def write_atomic(path, text):
	tmp = '%s.tmp.%d' % (path, os.getpid())
	with open(tmp, 'w') as f:
		f.write(text)
	os.replace(tmp, path)


def rmtree_quiet(path):
	if os.path.islink(path) or os.path.isfile(path):
		os.unlink(path)
	elif os.path.isdir(path):
		shutil.rmtree(path)


def read_version(tree):
	"""(version tuple, "X.Y.Z<extra>") from TREE/Makefile, or None."""
	mk = os.path.join(tree, 'Makefile')
	try:
		with open(mk, errors='replace') as f:
			head = f.read(4096)
	except OSError:
		return None
	fields = {}
	for key in ('VERSION', 'PATCHLEVEL', 'SUBLEVEL', 'EXTRAVERSION'):
		m = re.search(r'^%s\s*=[ \t]*(\S*)' % key, head, re.M)
		if m:
			fields[key] = m.group(1)
	if 'VERSION' not in fields or 'PATCHLEVEL' not in fields:
		return None
	try:
		v = (int(fields['VERSION']), int(fields['PATCHLEVEL']))
	except ValueError:
		return None
	s = '%s.%s.%s%s' % (fields['VERSION'], fields['PATCHLEVEL'],
			    fields.get('SUBLEVEL') or '0',
			    fields.get('EXTRAVERSION', ''))
	return v, s


def check_dirs(dirs):
	for d in dirs:
		n = os.path.normpath(d)
		if os.path.isabs(d) or n.startswith('..') or n == '.':
			die('--dirs entry %r must be a path inside the kernel tree'
			    % d)
	return [os.path.normpath(d) for d in dirs]


# ---------------------------------------------------------------- extraction

def tar_top_folder(tarball):
	"""Name of the tarball's top folder, from its first member only."""
	try:
		with tarfile.open(tarball, 'r|*') as tf:
			for m in tf:
				top = m.name.lstrip('./').split('/', 1)[0]
				if top:
					return top
	except (tarfile.TarError, OSError, EOFError) as e:
		die('cannot read kernel tarball %s: %s' % (tarball, e))
	die('kernel tarball %s is empty' % tarball)


def extract(tarball, workdir, dirs):
	"""Extract DIRS of TARBALL to WORKDIR/linux; return seconds spent (0 if
	the stamp says it is already there)."""
	final = os.path.join(workdir, 'linux')
	stampf = os.path.join(workdir, 'linux.stamp')
	st = os.stat(tarball)
	stamp = json.dumps({'tarball': tarball, 'size': st.st_size,
			    'mtime_ns': st.st_mtime_ns, 'dirs': dirs},
			   sort_keys=True)
	try:
		with open(stampf) as f:
			if f.read() == stamp and os.path.isdir(final):
				return 0.0
	except OSError:
		pass

	os.makedirs(workdir, exist_ok=True)
	# Leftovers of an interrupted extraction.
	for name in os.listdir(workdir):
		if name.startswith(('linux.tmp.', 'linux.old.')):
			rmtree_quiet(os.path.join(workdir, name))
	try:
		os.unlink(stampf)
	except FileNotFoundError:
		pass

	top = tar_top_folder(tarball)
	tmp = os.path.join(workdir, 'linux.tmp.%d' % os.getpid())
	os.mkdir(tmp)
	cmd = ['tar']
	# The Debian tarball is multi-block xz: threaded decompression is
	# about 1.5x faster on 2 cores.  Other compressions: tar detects them.
	if tarball.endswith(('.xz', '.txz')) and shutil.which('xz'):
		cmd += ['-I', 'xz -T0']
	# -m: the files get the time of extraction, not the tarball's. A tree
	# extracted again from another release (a downgrade's files are older
	# than the objects built from the last one) must look newer than
	# every object, or ninja would keep them.
	cmd += ['-xmf', tarball, '-C', tmp, '--strip-components=1',
		'--no-same-owner']
	cmd += ['%s/%s' % (top, d) for d in dirs]
	t0 = time.monotonic()
	r = subprocess.run(cmd, stdout=subprocess.DEVNULL,
			   stderr=subprocess.PIPE, text=True)
	secs = time.monotonic() - t0
	if r.returncode != 0:
		rmtree_quiet(tmp)
		missing = re.findall(r'%s/(\S+): Not found in archive'
				     % re.escape(top), r.stderr)
		if missing:
			die('kernel tarball %s has no %s' % (
				tarball, ', '.join(missing)))
		lines = [l for l in r.stderr.splitlines() if l.strip()]
		die('extracting %s failed: %s' % (
			tarball, lines[-1] if lines else 'tar exit %d'
			% r.returncode))
	if os.path.exists(final):
		old = os.path.join(workdir, 'linux.old.%d' % os.getpid())
		os.rename(final, old)
		os.rename(tmp, final)
		rmtree_quiet(old)
	else:
		os.rename(tmp, final)
	write_atomic(stampf, stamp)
	return secs


# ------------------------------------------------------------------- patches

def patch_targets(patch):
	"""Tree-relative paths (after -p1) a unified/git patch touches.

	Hunk bodies are skipped by their line counts, so a removed line that
	starts with "-- " is not taken for a file header.
	"""
	targets = set()
	old = new = 0
	with open(patch, errors='replace') as f:
		for line in f:
			if old > 0 or new > 0:
				c = line[:1]
				if c in (' ', '\n', ''):
					old -= 1
					new -= 1
				elif c == '-':
					old -= 1
				elif c == '+':
					new -= 1
				elif c != '\\':
					old = new = 0
				continue
			m = re.match(r'^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@',
				     line)
			if m:
				old = int(m.group(1) or 1)
				new = int(m.group(2) or 1)
				continue
			m = re.match(r'^(---|\+\+\+) (\S+)', line)
			if not m or m.group(2) == '/dev/null':
				continue
			parts = m.group(2).split('/', 1)
			if len(parts) == 2 and parts[1]:
				targets.add(os.path.normpath(parts[1]))
	return sorted(targets)


def inside_dirs(rel, dirs):
	return any(rel == d or rel.startswith(d + '/') for d in dirs)


def explain_patch_failure(out):
	"""One line out of patch(1)'s dry-run output: which file, which hunks."""
	problems = []
	cur = None
	missing = None
	for line in out.splitlines():
		if missing is not None:
			m = re.match(r'^\|(?:\+\+\+|---) (\S+)', line)
			if m and m.group(1) != '/dev/null':
				name = m.group(1).split('/', 1)[-1]
				problems[missing] = ('%s does not exist in the '
						     'tree' % name)
				missing = None
				continue
		m = re.match(r'^(?:checking|patching) file (.+)$', line)
		if m:
			cur = m.group(1).strip().strip("'")
			continue
		m = re.match(r'^Hunk #(\d+) FAILED at (\d+)', line)
		if m:
			problems.append('%s hunk #%s FAILED at %s'
					% (cur, m.group(1), m.group(2)))
			continue
		if line.startswith('Reversed (or previously applied) patch'):
			problems.append('%s is already patched (or the patch '
					'is reversed)' % cur)
			continue
		m = re.match(r"^can't find file to patch at input line (\d+)",
			     line)
		if m:
			missing = len(problems)
			problems.append('no file to patch at patch line %s'
					% m.group(1))
			continue
		m = re.match(r'^patch: \*\*\*\* (.+)$', line)
		if m:
			problems.append(m.group(1).strip())
	if not problems:
		lines = [l for l in out.splitlines() if l.strip()]
		problems = [lines[-1] if lines else 'patch(1) failed']
	return '; '.join(problems)


def copy_dir(s, d, link):
	"""cp -a S D, with LINK as hard links where the filesystem allows
	(cp -al: 0.4 s instead of 6.7 s for the 143 MB of kernel dirs).
	Returns cp's error, or None."""
	if link:
		r = subprocess.run(['cp', '-al', '--', s, d],
				   stderr=subprocess.DEVNULL)
		if r.returncode == 0:
			return None
		# Another filesystem, or links refused: copy instead.
		rmtree_quiet(d)
	r = subprocess.run(['cp', '-a', '--', s, d], stderr=subprocess.PIPE,
			   text=True)
	return r.stderr.strip() if r.returncode != 0 else None


def own_inode(path):
	"""Give PATH an inode of its own before its times are changed: a hard
	link shares them with the extracted tree. (patch(1) already writes a
	new file and renames it over the link.)"""
	if os.lstat(path).st_nlink > 1:
		tmp = path + '.kshim-own'
		shutil.copy2(path, tmp)
		os.replace(tmp, path)


def apply_patches(src, workdir, dirs, patches, link=False):
	"""Copy DIRS of SRC to WORKDIR/linux-patched and apply PATCHES there.
	LINK: the copy may be hard links to SRC, which is then kshim's own
	extracted tree, never the user's (a tool that wrote a linked file in
	place would write into SRC). Returns (tree, copy seconds, patch
	seconds)."""
	if not shutil.which('patch'):
		die('patch(1) is needed for kernel_patches: apt-get install '
		    'patch')
	for p in patches:
		outside = [t for t in patch_targets(p)
			   if not inside_dirs(t, dirs)]
		if outside:
			die('patch %s touches %s, outside the kernel dirs kshim '
			    'copies (%s)' % (p, ', '.join(outside),
					      ' '.join(dirs)))
	final = os.path.join(workdir, 'linux-patched')
	tmp = final + '.tmp.%d' % os.getpid()
	os.makedirs(workdir, exist_ok=True)
	for name in os.listdir(workdir):
		if name.startswith('linux-patched.tmp.'):
			rmtree_quiet(os.path.join(workdir, name))
	os.mkdir(tmp)
	t0 = time.monotonic()
	for d in dirs:
		s = os.path.join(src, d)
		if not os.path.lexists(s):
			rmtree_quiet(tmp)
			die('%s has no %s' % (src, d))
		os.makedirs(os.path.dirname(os.path.join(tmp, d)),
			    exist_ok=True)
		# cp -a: twice as fast as shutil.copytree on a kernel tree.
		err = copy_dir(s, os.path.join(tmp, d), link)
		if err is not None:
			rmtree_quiet(tmp)
			die('copying %s failed: %s' % (s, err))
	copy_secs = time.monotonic() - t0

	t0 = time.monotonic()
	base = ['patch', '-p1', '--forward', '--batch',
		'--no-backup-if-mismatch', '-d', tmp, '-i']
	for p in patches:
		r = subprocess.run(base[:-1] + ['--dry-run', '-i', p],
				   stdout=subprocess.PIPE,
				   stderr=subprocess.STDOUT, text=True)
		if r.returncode != 0:
			rmtree_quiet(tmp)
			die('patch %s does not apply: %s'
			    % (p, explain_patch_failure(r.stdout)))
		r = subprocess.run(base + [p], stdout=subprocess.PIPE,
				   stderr=subprocess.STDOUT, text=True)
		if r.returncode != 0:
			rmtree_quiet(tmp)
			die('patch %s does not apply: %s'
			    % (p, explain_patch_failure(r.stdout)))
	patch_secs = time.monotonic() - t0

	# The tree being replaced is moved aside, not removed, until the new
	# one is in place: a run stopped in between leaves it for the next
	# run's keep_times(), which would otherwise have nothing to compare
	# with and leave objects built from a reverted patch in place.
	aside = final + '.old'
	keep_times(tmp, final if os.path.isdir(final) else aside)
	if os.path.isdir(final):
		rmtree_quiet(aside)
		os.rename(final, aside)
	os.rename(tmp, final)
	rmtree_quiet(aside)
	return final, copy_secs, patch_secs


def keep_times(new, old):
	"""Give each file of the fresh copy NEW the time ninja last saw for
	it in OLD when its text is the same, and a new time when not.

	cp -a keeps the source's times, so a file an earlier patch set
	changed and this one does not comes back with its old time, older
	than the objects built from the patched text: ninja would keep them.
	Remembering only the previous set's files is not enough: meson may
	run this twice for one patch set (setup, then ninja's regeneration),
	and the second run would forget what the first re-timed (a patch to
	mm/list_lru.c then stayed compiled into the next patch set's build).
	Comparing with the tree being replaced holds however often it runs.
	Only files whose time differs between the two are read: those a
	patch set touched, now or before."""
	if not os.path.isdir(old):
		return
	for root, _, fnames in os.walk(new):
		for fn in fnames:
			p = os.path.join(root, fn)
			q = os.path.join(old, os.path.relpath(p, new))
			try:
				st, so = os.lstat(p), os.lstat(q)
			except OSError:
				continue
			if not stat.S_ISREG(st.st_mode) or \
			   st.st_mtime_ns == so.st_mtime_ns:
				continue
			own_inode(p)
			if stat.S_ISREG(so.st_mode) and \
			   filecmp.cmp(p, q, shallow=False):
				os.utime(p, ns=(so.st_atime_ns, so.st_mtime_ns))
			else:
				os.utime(p)


# ------------------------------------------------------------------- overlay

def build_overlay(ovsrc, ovdir, tree, links):
	tmp = ovdir.rstrip('/') + '.tmp.%d' % os.getpid()
	parent = os.path.dirname(tmp)
	os.makedirs(parent, exist_ok=True)
	base = os.path.basename(ovdir.rstrip('/')) + '.tmp.'
	for name in os.listdir(parent):
		if name.startswith(base):
			rmtree_quiet(os.path.join(parent, name))
	os.mkdir(tmp)
	owned = {}

	def link(rel, target):
		dst = os.path.join(tmp, rel)
		os.makedirs(os.path.dirname(dst), exist_ok=True)
		os.symlink(target, dst)

	if os.path.exists(ovsrc) and not os.path.isdir(ovsrc):
		die('overlay source %s is not a directory' % ovsrc)
	if os.path.isdir(ovsrc):
		for root, dnames, fnames in os.walk(ovsrc):
			dnames.sort()
			for fn in sorted(fnames):
				full = os.path.join(root, fn)
				rel = os.path.relpath(full, ovsrc)
				owned[rel] = full
				link(rel, os.path.abspath(full))
	for rel in links:
		n = os.path.normpath(rel)
		if os.path.isabs(rel) or n.startswith('..'):
			die('--link %s must be a path inside the kernel tree'
			    % rel)
		if n in owned:
			die('--link %s collides with overlay file %s'
			    % (rel, owned[n]))
		target = os.path.join(tree, n)
		if not os.path.isfile(target):
			die('the kernel tree %s has no %s' % (tree, n))
		owned[n] = target
		link(n, target)
	rmtree_quiet(ovdir)
	os.rename(tmp, ovdir)


# ---------------------------------------------------------------------- main

def sha256(path):
	h = hashlib.sha256()
	with open(path, 'rb') as f:
		for chunk in iter(lambda: f.read(1 << 20), b''):
			h.update(chunk)
	return h.hexdigest()


def main(argv):
	ap = Parser(description=__doc__.split('\n')[0])
	ap.add_argument('--src', default='',
			help='user kernel tree; empty: extract --tarball')
	ap.add_argument('--tarball', default='')
	ap.add_argument('--workdir', required=True)
	ap.add_argument('--dirs', nargs='+', default=list(KERNEL_DIRS),
			help='top-level dirs/files of the tree kshim uses '
			'(default: %s)' % ' '.join(KERNEL_DIRS))
	ap.add_argument('--patch', action='append', default=[],
			help='patch applied with -p1 (repeatable, in order)')
	ap.add_argument('--overlay-src', required=True)
	ap.add_argument('--overlay', required=True)
	ap.add_argument('--link', action='append', default=[],
			help='kernel file REL symlinked into the overlay')
	a = ap.parse_args(argv)

	dirs = check_dirs(a.dirs)
	workdir = os.path.abspath(a.workdir)
	timings = {}

	if a.src:
		src = resolve_input(a.src, 'kernel_src', must_exist=False)
		if not os.path.isdir(src) or read_version(src) is None:
			die('%s is not a Linux kernel tree (no Makefile with '
			    'VERSION/PATCHLEVEL)' % src)
		tree = src
		source = src
	else:
		if not a.tarball:
			die('no kernel source: apt-get install '
			    'linux-source-6.12, or pass -Dkernel_src=PATH')
		tarball = resolve_input(a.tarball, 'kernel tarball',
					must_exist=False)
		if not os.path.isfile(tarball):
			die('kernel tarball %s not found: apt-get install '
			    'linux-source-6.12, or pass -Dkernel_src=PATH'
			    % tarball)
		xdirs = dirs if 'Makefile' in dirs else ['Makefile'] + dirs
		timings['extract_s'] = round(extract(tarball, workdir,
						     xdirs), 2)
		tree = os.path.join(workdir, 'linux')
		source = tarball
		if read_version(tree) is None:
			die('%s is not a Linux kernel tarball (no Makefile '
			    'with VERSION/PATCHLEVEL)' % tarball)

	ver, vstr = read_version(tree)
	if ver != SUPPORTED:
		die('%s is Linux %s; kshim supports the %d.%d series only'
		    % (source, vstr, *SUPPORTED))
	missing = [d for d in dirs
		   if not os.path.lexists(os.path.join(tree, d))]
	if missing:
		die('%s lacks %s (kshim needs %s)' % (
			tree, ', '.join(missing), ' '.join(dirs)))

	patches = [resolve_input(p, 'patch file') for p in a.patch]
	for p in patches:
		if not os.path.isfile(p):
			die('patch file %s is not a file' % p)
	patch_info = [{'path': p, 'sha256': sha256(p)} for p in patches]
	if patches:
		tree, cs, ps = apply_patches(tree, workdir, dirs, patches,
					     link=not a.src)
		timings['copy_s'] = round(cs, 2)
		timings['patch_s'] = round(ps, 2)
	else:
		# Do not leave a stale patched tree that looks current. (The
		# objects built from it depend on its headers, which are gone
		# now, so ninja rebuilds them.)
		rmtree_quiet(os.path.join(workdir, 'linux-patched'))
		rmtree_quiet(os.path.join(workdir, 'linux-patched.old'))

	build_overlay(os.path.abspath(a.overlay_src),
		      os.path.abspath(a.overlay), tree, a.link)

	os.makedirs(workdir, exist_ok=True)
	write_atomic(os.path.join(workdir, 'tree.json'), json.dumps({
		'version': vstr,
		'tree': tree,
		'source': source,
		'patches': patch_info,
		'dirs': dirs,
		'links': a.link,
		'overlay': os.path.abspath(a.overlay),
		'timings': timings,
	}, indent=1) + '\n')
	print(tree)
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
