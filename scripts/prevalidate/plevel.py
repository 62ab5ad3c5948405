# SPDX-License-Identifier: GPL-2.0
"""kshim prevalidate: the -p level of a patch.

kshim applies patches with patch -p1 (scripts/build/tree.py), the form git
and most mail use (--- a/fs/xfs/xfs_log.c). A patch made with diff from
inside the tree (--- fs/xfs/xfs_log.c, -p0) or from above two trees
(--- linux/a/fs/..., -p2) names the same files with fewer or more leading
components. The level is the number of leading components whose removal
makes every file it changes exist in the kernel tree (-p1 first), or
without the tree yet, puts the most file names inside the kernel dirs
kshim copies (-p1 on a tie); a patch at another level is rewritten to the -p1 form in the work
dir, and the report says which level was found. When no level from 0 to
MAX_LEVEL puts any name there, the error names the levels tried.
"""

import os
import re

from scripts.build.tree import KERNEL_DIRS, inside_dirs

MAX_LEVEL = 4
HEADER = re.compile(r'^(---|\+\+\+) (\S+)(.*)$')
HUNK = re.compile(r'^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@')


def headers(lines):
	"""The indexes of the ---/+++ file header lines of a unified patch
	(hunk bodies skipped by their counts, so a removed line starting
	with "-- " is not one), with their path."""
	out = []
	old = new = 0
	for i, line in enumerate(lines):
		if old > 0 or new > 0:
			c = line[:1]
			if c in (' ', '\n', ''):
				old -= 1
				new -= 1
				continue
			if c == '-':
				old -= 1
				continue
			if c == '+':
				new -= 1
				continue
			if c == '\\':
				continue
			old = new = 0
		m = HUNK.match(line)
		if m:
			old = int(m.group(1) or 1)
			new = int(m.group(2) or 1)
			continue
		m = HEADER.match(line)
		if m:
			out.append((i, m.group(2)))
	return out


def names(text):
	"""(the files a patch changes or deletes: its '---' names, the names
	of all files in it), /dev/null left out."""
	old, every = [], []
	lines = text.split('\n')
	for i, path in headers(lines):
		if path == '/dev/null':
			continue
		every.append(path)
		if lines[i].startswith('---'):
			old.append(path)
	return old, every


def strip(path, level):
	"""PATH without its first LEVEL components, as patch -pLEVEL; None
	when it has too few."""
	parts = [p for p in path.split('/') if p]
	if len(parts) <= level:
		return None
	return os.path.normpath('/'.join(parts[level:]))


def detect(old, every, tree=None, dirs=KERNEL_DIRS):
	"""The -p level of a patch that changes the files OLD ('---' names)
	and names EVERY: with the kernel TREE, the first level (1 first) at
	which every changed file exists there and some name is inside DIRS;
	without it, the level that puts the most names inside DIRS, 1 on a
	tie. None when no level fits."""
	order = [1] + [n for n in range(MAX_LEVEL + 1) if n != 1]

	def inside(level):
		return sum(1 for p in every if strip(p, level) and
			   inside_dirs(strip(p, level), dirs))
	if tree:
		for level in order:
			if inside(level) and all(
					strip(p, level) and os.path.exists(
						os.path.join(tree, strip(p, level)))
					for p in old):
				return level
		return None
	best, score = None, 0
	for level in order:
		if inside(level) > score:
			best, score = level, inside(level)
	return best


def as_p1(text, level):
	"""TEXT, a patch at -pLEVEL, with its file headers in the -p1 form
	(--- a/PATH, +++ b/PATH)."""
	lines = text.split('\n')
	for i, path in headers(lines):
		if path == '/dev/null':
			continue
		m = HEADER.match(lines[i])
		side = 'a' if m.group(1) == '---' else 'b'
		lines[i] = '%s %s/%s%s' % (m.group(1), side, strip(path, level),
					   m.group(3))
	return '\n'.join(lines)


def normalise(path, workdir, index, tree=None):
	"""(path of the patch to apply with -p1, level found), the level
	checked against the kernel TREE when given (detect()). A -p1 patch is
	used as it is; another level is written as WORKDIR/patches/
	NN-NAME in the -p1 form. Raises ValueError naming the levels tried
	when none fits."""
	with open(path, errors='replace') as f:
		text = f.read()
	old, every = names(text)
	level = detect(old, every, tree)
	if level is None:
		raise ValueError(
			'%s: its file names (%s) fit no -p level from 0 to %d: '
			'at none of them %s (git diff and format-patch make -p1 '
			'patches)' % (
				path, ', '.join(sorted(set(every))[:4]) or
				'no ---/+++ lines', MAX_LEVEL,
				'do the files it changes exist in the kernel tree'
				if tree else 'is a name inside the kernel dirs '
				'kshim copies (%s)' % ' '.join(KERNEL_DIRS)))
	if level == 1:
		return path, 1
	d = os.path.join(workdir, 'patches')
	os.makedirs(d, exist_ok=True)
	out = os.path.join(d, '%02d-p%d-%s' % (index, level,
					       os.path.basename(path)))
	with open(out, 'w') as f:
		f.write(as_p1(text, level))
	return out, level
