# SPDX-License-Identifier: GPL-2.0
"""A git kernel tree for the --commits cases of cases.json.

The kernel dirs kshim uses, out of the default tarball, committed as
"base" (tag kshim-base), then one commit per example patch. Made once per
list of commits and kept (about 2 minutes: git hashes some 60,000 files).
"""

import json
import os
import shutil
import subprocess
import sys
import tarfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
	os.path.abspath(__file__))))
# Run from run_cases.py, a script: the repository root goes on the path
# to import the package scripts/, as ./kshim does.
sys.path.insert(0, REPO)
from scripts.build.tree import KERNEL_DIRS  # noqa: E402

TARBALL = '/usr/src/linux-source-6.12.tar.xz'


def run(cmd, cwd):
	subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.DEVNULL)


def git_tree(dest, commits):
	"""DEST as a git tree: base, then COMMITS ([subject, patch file]) in
	order; the tag kshim-base marks the base."""
	stamp = os.path.join(dest, '.git', 'kshim-fixture.json')
	want = json.dumps([[s, os.path.abspath(os.path.join(REPO, p))]
			   for s, p in commits])
	try:
		with open(stamp) as f:
			if f.read() == want:
				return dest
	except OSError:
		pass
	shutil.rmtree(dest, ignore_errors=True)
	os.makedirs(dest)
	with tarfile.open(TARBALL) as t:
		top = t.next().name.split('/')[0]
	subprocess.run(['tar', '-xf', TARBALL, '-C', dest,
			'--strip-components=1'] +
		       ['%s/%s' % (top, d) for d in KERNEL_DIRS], check=True)
	git = ['git', '-c', 'user.name=kshim', '-c',
	       'user.email=kshim@localhost']
	run(['git', 'init', '-q'], dest)
	run(['git', 'add', '-A', '.'], dest)
	run(git + ['commit', '-q', '-m', 'base: ' + TARBALL], dest)
	run(['git', 'tag', 'kshim-base'], dest)
	for subject, patch in commits:
		run(['patch', '-p1', '-s', '-i', os.path.join(REPO, patch)],
		    dest)
		run(['git', 'add', '-A', '.'], dest)
		run(git + ['commit', '-q', '-m', subject], dest)
	with open(stamp, 'w') as f:
		f.write(want)
	return dest
