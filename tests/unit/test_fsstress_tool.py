#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""./kshim fsstress's argument checks (scripts/testing/fsstress.py): the
operations and default weights read from tests/support/fsstress.c, and
the one-line errors for a bad mix, without a build."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
from scripts import Error  # noqa: E402
from scripts.testing import fsstress  # noqa: E402


class DefaultMix(unittest.TestCase):
	def test_every_operation_has_a_name_and_a_weight(self):
		mix = fsstress.default_mix()
		self.assertEqual(len(mix), 35)
		self.assertIn('rename', mix)
		self.assertIn('dropcaches', mix)
		# The file data operations (fsstress_data.c).
		for op in ('write', 'read', 'dsyncwrite', 'dwrite', 'dread',
			   'fsync', 'fdatasync', 'fallocate', 'punch', 'zero',
			   'collapse', 'insert', 'truncate', 'clone', 'dedupe'):
			self.assertIn(op, mix)
		self.assertTrue(all(w > 0 for w in mix.values()), mix)


class CheckMix(unittest.TestCase):
	def check(self, spec):
		fsstress.check_mix(spec, fsstress.default_mix())

	def refused(self, spec, words):
		with self.assertRaises(Error) as e:
			self.check(spec)
		self.assertIn(words, str(e.exception))
		self.assertEqual(e.exception.status, 2)

	def test_good_mixes_pass(self):
		self.check('create=20,unlink=0')
		self.check('only:create=1,lookup=3')
		self.check('only:create=1,write=4,read=2,fsync=1')

	def test_unknown_operation(self):
		self.refused('create=1,bogus=2', 'unknown operation "bogus"')

	def test_not_name_equals_weight(self):
		self.refused('create', 'is not NAME=WEIGHT')
		self.refused('create=x', 'is not NAME=WEIGHT')

	def test_weights_summing_to_zero(self):
		self.refused('only:create=0,unlink=0', 'sum to zero')
		zeros = ','.join('%s=0' % n for n in fsstress.default_mix())
		self.refused(zeros, 'sum to zero')


class Arguments(unittest.TestCase):
	def test_zero_tasks_is_refused_in_one_line(self):
		with self.assertRaises(Error) as e:
			fsstress.main(['--tasks', '0'])
		self.assertIn('--tasks must be a positive number', str(e.exception))

	def test_too_many_tasks(self):
		with self.assertRaises(Error) as e:
			fsstress.main(['--tasks', '2000'])
		self.assertIn('at most 1024', str(e.exception))


if __name__ == '__main__':
	unittest.main()
