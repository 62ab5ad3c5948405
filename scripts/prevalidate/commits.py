# SPDX-License-Identifier: GPL-2.0
"""kshim prevalidate --commits A..B: a patch series out of a git history.

The base is the tree at A, read out with `git archive` into the work dir;
the patches are `git format-patch A..B`, both limited to the kernel dirs
kshim uses (a commit touching only drivers/ is not part of the series, and
the part of a commit outside those dirs is left out of its patch). Only
read-only git commands touch the user's repository: no checkout, no
worktree, no ref.
"""

import os
import shutil
import subprocess

from scripts.build.tree import KERNEL_DIRS


class GitError(Exception):
	"""The one-line reason --commits cannot be used."""


def git(src, *args, check=True):
	try:
		r = subprocess.run(['git', '-C', src] + list(args),
				   stdout=subprocess.PIPE,
				   stderr=subprocess.PIPE, text=True,
				   errors='replace')
	except FileNotFoundError:
		raise GitError('git not found: apt-get install git')
	if check and r.returncode != 0:
		err = (r.stderr.strip().splitlines() or ['exit %d'
							 % r.returncode])
		raise GitError('git %s: %s' % (args[0], err[-1]))
	return r.stdout


def parse_range(rng):
	if '...' in rng or rng.count('..') != 1:
		raise GitError('--commits takes A..B (the commits after A up '
			       'to B), not %r' % rng)
	a, b = rng.split('..')
	return a or 'HEAD', b or 'HEAD'


def export_tree(src, sha, dest, progress):
	"""The kernel dirs of commit SHA into DEST, once per commit."""
	stamp = os.path.join(dest, '.kshim-commit')
	try:
		with open(stamp) as f:
			if f.read().strip() == sha:
				return
	except OSError:
		pass
	progress('base: git archive', sha[:12])
	tmp = dest + '.tmp'
	shutil.rmtree(tmp, ignore_errors=True)
	os.makedirs(tmp)
	arch = subprocess.Popen(['git', '-C', src, 'archive', '--format=tar',
				 sha, '--'] + list(KERNEL_DIRS),
				stdout=subprocess.PIPE, stderr=subprocess.PIPE)
	tar = subprocess.run(['tar', '-x', '-C', tmp], stdin=arch.stdout,
			     stderr=subprocess.PIPE)
	arch.stdout.close()
	err = arch.stderr.read().decode(errors='replace').strip()
	if arch.wait() != 0 or tar.returncode != 0:
		shutil.rmtree(tmp, ignore_errors=True)
		raise GitError('git archive %s failed: %s' % (
			sha[:12], err or tar.stderr.decode().strip()))
	with open(os.path.join(tmp, '.kshim-commit'), 'w') as f:
		f.write(sha + '\n')
	shutil.rmtree(dest, ignore_errors=True)
	os.rename(tmp, dest)


def series(src, rng, workdir, progress):
	"""dict(base, tip, tree, commits=[dict(sha, subject, patch)],
	merges): the series A..B of the git tree SRC as patch files."""
	if not src:
		raise GitError('--commits needs --kernel-src: the git tree the '
			       'commits are in')
	if git(src, 'rev-parse', '--is-inside-work-tree',
	       check=False).strip() != 'true':
		raise GitError('--kernel-src %s is not a git tree' % src)
	a, b = parse_range(rng)
	base = git(src, 'rev-parse', '--verify', '--quiet',
		   a + '^{commit}', check=False).strip()
	tip = git(src, 'rev-parse', '--verify', '--quiet',
		  b + '^{commit}', check=False).strip()
	for name, sha in ((a, base), (b, tip)):
		if not sha:
			raise GitError('%s is not a commit in %s' % (name, src))
	dirs = ['--'] + list(KERNEL_DIRS)
	shas = git(src, 'rev-list', '--reverse', '--no-merges',
		   '%s..%s' % (base, tip), *dirs).split()
	merges = len(git(src, 'rev-list', '--merges', '%s..%s' % (base, tip),
			 *dirs).split())
	if not shas:
		raise GitError('no commit in %s touches the kernel dirs kshim '
			       'uses (%s)' % (rng, ' '.join(KERNEL_DIRS)))
	where = os.path.join(workdir, 'commits')
	pdir = os.path.join(where, 'patches')
	shutil.rmtree(pdir, ignore_errors=True)
	os.makedirs(pdir)
	progress('git format-patch', '%d commit(s)' % len(shas))
	# It prints the files it wrote, in the order of the series.
	names = [n for n in git(src, 'format-patch', '--no-signature',
				'--no-stat', '-o', pdir, '%s..%s' % (base, tip),
				*dirs).splitlines() if n.strip()]
	if len(names) != len(shas):
		raise GitError('git format-patch wrote %d patches for %d '
			       'commits' % (len(names), len(shas)))
	commits = [dict(sha=sha, subject=git(src, 'log', '-1',
					     '--format=%s', sha).strip(),
			patch=os.path.abspath(p))
		   for sha, p in zip(shas, names)]
	tree = os.path.join(where, 'tree-' + base[:12])
	export_tree(src, base, tree, progress)
	return dict(range=rng, base=base, tip=tip, tree=tree,
		    commits=commits, merges=merges)
