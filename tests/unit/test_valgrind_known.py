#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""scripts/testing/valgrind_known.py tells a kernel finding's valgrind
errors from any other: on made-up meson test log entries, no build or
valgrind needed."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
from scripts.testing import valgrind_known as vk  # noqa: E402

KNOWN = [{'finding': 'f', 'tests': ['scenario_x'],
	  'every_error_names': 'xfs_iroot_realloc'}]

SITE = '''==7==    at 0x1: crc32_body (crc32.c:112)
==7==    by 0x2: xlog_cksum (xfs_log.c:1596)
'''
NAMED = '''==7== Use of uninitialised value of size 8
''' + SITE + '''==7==  Uninitialised value was created by a heap allocation
==7==    at 0x3: malloc (vg_replace_malloc.c:1)
==7==    by 0x4: xfs_iroot_realloc (xfs_inode_fork.c:413)
==7==
'''
# The same site, origin not traced: counts with a named one.
UNTRACED = '''==7== Use of uninitialised value of size 8
''' + SITE + '''==7==
'''
OTHER_ORIGIN = NAMED.replace('xfs_iroot_realloc', 'xfs_buf_alloc')
OTHER_SITE = UNTRACED.replace('xlog_cksum', 'xfs_buf_ioapply')
LEAK = '''==7== 40 bytes in 1 blocks are definitely lost in loss record 2 of 6
==7==    at 0x5: malloc (vg_replace_malloc.c:1)
==7==
'''
PASSED = 'KSHIM-RESULT tests=2 passed=2 failed=0 skipped=0\n'
FAILED = 'KSHIM-RESULT tests=2 passed=1 failed=1 skipped=0\n'


def entry(stderr, name='scenario_x', rc=99, out=PASSED):
	return {'name': 'kshim:scenario+det / ' + name, 'result': 'FAIL',
		'returncode': rc, 'stdout': out, 'stderr': stderr}


class Classify(unittest.TestCase):
	def verdict(self, e):
		ok, bad = vk.classify([e], KNOWN)
		return 'known' if ok and not bad else 'failed'

	def test_named_and_untraced_errors_of_the_finding_are_known(self):
		self.assertEqual(self.verdict(entry(NAMED + UNTRACED + NAMED)),
				 'known')

	def test_another_origin_fails(self):
		self.assertEqual(self.verdict(entry(NAMED + OTHER_ORIGIN)),
				 'failed')

	def test_an_untraced_error_elsewhere_fails(self):
		self.assertEqual(self.verdict(entry(NAMED + OTHER_SITE)),
				 'failed')

	def test_a_leak_fails(self):
		self.assertEqual(self.verdict(entry(NAMED + LEAK)), 'failed')

	def test_untraced_errors_alone_fail(self):
		self.assertEqual(self.verdict(entry(UNTRACED)), 'failed')

	def test_a_test_not_listed_fails(self):
		self.assertEqual(self.verdict(entry(NAMED, name='test_y')),
				 'failed')

	def test_its_own_failure_is_not_hidden(self):
		self.assertEqual(self.verdict(entry(NAMED, out=FAILED)),
				 'failed')

	def test_another_exit_status_fails(self):
		self.assertEqual(self.verdict(entry(NAMED, rc=1)), 'failed')

	def test_a_det_sweep_replaying_a_valgrind_failure_is_known(self):
		out = ('kshim: seed sweep: seed 3 of 4 fails (exit 99); '
		       'replaying it:\n' + PASSED +
		       'KSHIM-RESULT tests=3 passed=2 failed=1 skipped=0\n')
		self.assertEqual(self.verdict(entry(NAMED, rc=1, out=out)),
				 'known')

	def test_a_det_sweep_failing_its_own_checks_fails(self):
		out = ('kshim: seed sweep: seed 3 of 4 fails (exit 99); '
		       'replaying it:\n' + FAILED +
		       'KSHIM-RESULT tests=3 passed=2 failed=1 skipped=0\n')
		self.assertEqual(self.verdict(entry(NAMED, rc=1, out=out)),
				 'failed')

	def test_two_findings_listed_for_one_test(self):
		known = KNOWN + [{'finding': 'g', 'tests': ['scenario_x'],
				  'every_error_names': 'xfs_buf_alloc'}]
		ok, bad = vk.classify([entry(NAMED + OTHER_ORIGIN)], known)
		self.assertTrue(ok and not bad)

	def test_a_failure_quotes_the_first_error_not_known(self):
		ok, bad = vk.classify([entry(NAMED + OTHER_ORIGIN)], KNOWN)
		self.assertEqual(len(bad), 1)
		why = bad[0][1]
		self.assertIn('the first that is not:', why)
		self.assertIn('xfs_buf_alloc', why)
		self.assertNotIn('xfs_iroot_realloc', why)
		self.assertNotIn('0x3', why)

	def test_a_test_not_listed_quotes_its_first_error(self):
		ok, bad = vk.classify([entry(NAMED, name='test_y')], KNOWN)
		self.assertIn('Use of uninitialised value', bad[0][1])

	def test_passed_tests_are_not_listed(self):
		e = dict(entry(''), result='OK', returncode=0)
		self.assertEqual(vk.classify([e], KNOWN), ([], []))


if __name__ == '__main__':
	unittest.main()
