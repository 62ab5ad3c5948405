#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""scripts/testing/tsan_known.py tells a kernel finding's TSan reports
from any other: on made-up meson test log entries, no build or TSan
needed."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
from scripts.testing import tsan_known as tk  # noqa: E402

KNOWN = [{'finding': 'f', 'tests': ['test_x'],
	  'every_access_at': ['mm/vmscan.c:6077', 'mm/vmscan.c:6764']}]


def report(top1, top2, kind='data race'):
	return '''==================
WARNING: ThreadSanitizer: %s (pid=1)
  Write of size 4 at 0x55 by main thread:
    #0 %s (t+0x1)
    #1 shrink_zones /b/kernel-overlay/mm/vmscan.c:6234 (t+0x2)

  Previous read of size 4 at 0x55 by thread T11:
    #0 %s (t+0x3)
    #1 kswapd_try_to_sleep /b/kernel-overlay/mm/vmscan.c:7119 (t+0x4)

  Location is global 'contig_page_data' of size 3648 at 0x5

SUMMARY: ThreadSanitizer: data race /b/mm/vmscan.c:6077 in shrink_node
==================
''' % (kind, top1, top2)


KNOWN_REP = report('shrink_node /b/kernel-overlay/mm/vmscan.c:6077',
		   'prepare_kswapd_sleep /b/kernel-overlay/mm/vmscan.c:6764')
# One access elsewhere: another race in the same function.
OTHER_LINE = report('shrink_node /b/kernel-overlay/mm/vmscan.c:6078',
		    'prepare_kswapd_sleep /b/kernel-overlay/mm/vmscan.c:6764')
OTHER_FILE = report('shrink_node /b/kernel-overlay/mm/other.c:6077',
		    'prepare_kswapd_sleep /b/kernel-overlay/mm/vmscan.c:6764')
PASSED = 'KSHIM-RESULT tests=2 passed=2 failed=0 skipped=0\n'
FAILED = 'KSHIM-RESULT tests=2 passed=1 failed=1 skipped=0\n'


def entry(stderr, name='test_x', rc=66, out=PASSED):
	return {'name': 'kshim:unit+parallel / ' + name, 'result': 'FAIL',
		'returncode': rc, 'stdout': out, 'stderr': stderr}


class Classify(unittest.TestCase):
	def verdict(self, e):
		ok, bad = tk.classify([e], KNOWN)
		return 'known' if ok and not bad else 'failed'

	def test_reports_of_the_finding_are_known(self):
		self.assertEqual(self.verdict(entry(KNOWN_REP + KNOWN_REP)),
				 'known')

	def test_another_line_fails(self):
		self.assertEqual(self.verdict(entry(KNOWN_REP + OTHER_LINE)),
				 'failed')

	def test_another_file_fails(self):
		self.assertEqual(self.verdict(entry(OTHER_FILE)), 'failed')

	def test_another_kind_of_report_fails(self):
		self.assertEqual(self.verdict(entry(report(
			'shrink_node /b/kernel-overlay/mm/vmscan.c:6077',
			'prepare_kswapd_sleep /b/kernel-overlay/mm/vmscan.c:6764',
			kind='heap-use-after-free'))), 'failed')

	def test_another_test_fails(self):
		self.assertEqual(self.verdict(entry(KNOWN_REP, name='test_y')),
				 'failed')

	def test_own_check_failed_fails(self):
		self.assertEqual(self.verdict(entry(KNOWN_REP, out=FAILED)),
				 'failed')

	def test_other_exit_status_fails(self):
		self.assertEqual(self.verdict(entry(KNOWN_REP, rc=1)), 'failed')

	def test_no_report_fails(self):
		self.assertEqual(self.verdict(entry('')), 'failed')

	def test_passed_tests_are_ignored(self):
		e = entry(OTHER_LINE)
		e['result'] = 'OK'
		self.assertEqual(tk.classify([e], KNOWN), ([], []))

	def test_the_list_parses(self):
		import json
		with open(tk.KNOWN) as f:
			for k in json.load(f):
				self.assertTrue(k['tests'] and k['every_access_at'])


if __name__ == '__main__':
	unittest.main()
