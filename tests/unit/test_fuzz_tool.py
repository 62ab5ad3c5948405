#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""./kshim fuzz's argument checks (scripts/fuzz/main.py) and its case list
(fuzz/cases.json), without a build: every bad input is one line on
stderr and exit 2; every target has its README and seed corpus."""

import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, REPO)
from scripts.fuzz import cases, main  # noqa: E402


def kshim_fuzz(*args):
	return subprocess.run([os.path.join(REPO, 'kshim'), 'fuzz'] +
			      list(args), stdout=subprocess.PIPE,
			      stderr=subprocess.PIPE, text=True)


class BadInput(unittest.TestCase):
	def refused(self, args, words):
		r = kshim_fuzz(*args)
		self.assertEqual(r.returncode, 2, r)
		self.assertEqual(len(r.stderr.strip().splitlines()), 1, r.stderr)
		self.assertIn(words, r.stderr)

	def test_unknown_target(self):
		self.refused(['nosuchtarget'], 'unknown target')

	def test_check_cases_of_an_unknown_target(self):
		self.refused(['--check-cases', 'nosuchtarget'], 'unknown target')

	def test_no_target(self):
		self.refused([], 'a TARGET is needed')

	def test_corpus_dir_that_does_not_exist(self):
		self.refused(['metadata', '--corpus', '/nonexistent/corpus'],
			     'no such directory')

	def test_unreadable_crash_file(self):
		self.refused(['metadata', '--replay', '/nonexistent/crash'],
			     'not a readable file')

	def test_time_must_be_positive(self):
		self.refused(['metadata', '--time', '0'], 'must be positive')

	def test_bad_option(self):
		self.refused(['metadata', '--jobs', 'x'], 'invalid int value')


class Targets(unittest.TestCase):
	def test_list_names_each_target(self):
		r = kshim_fuzz('--list')
		self.assertEqual(r.returncode, 0, r)
		self.assertIn('metadata', r.stdout)

	def test_each_target_has_readme_and_corpus(self):
		for name, folder in main.targets().items():
			self.assertTrue(os.path.isfile(os.path.join(folder,
								    'README.md')))
			self.assertTrue(os.listdir(os.path.join(folder, 'corpus')),
					name)

	def test_cases_name_targets_and_patches(self):
		for c in cases.load(main.targets()):
			self.assertTrue(os.path.isfile(os.path.join(REPO,
								    c['patch'])))
			self.assertGreater(c['runs'], 0)
			self.assertTrue(c['expect'])


if __name__ == '__main__':
	unittest.main(verbosity=2)
