#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""kshim prevalidate's handling of a parallel-backend regression
(scripts/prevalidate/main.py, confirm()), with meson test replaced by a
script of results: one that fails again is a regression; one that passes
its re-run is run on base up to BASE_RERUNS times, and a base failure
makes it pre-existing (a flaky test, said so in the report), not a
regression; one that base passes every time stays a regression, said to
be intermittent. A det regression never runs on base (it is replayed by
seed instead; here with no cases, so nothing runs)."""

import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
from scripts.prevalidate import compare as cmp  # noqa: E402
from scripts.prevalidate import main  # noqa: E402

NAME = 'test_xfs_fsstress_crash'


class Flaky(unittest.TestCase):
	def setUp(self):
		self.tmp = tempfile.TemporaryDirectory()
		self.runs = []		# (side, test) in order
		self.saved = (main.meson_test, main.intro_tests)
		main.meson_test = self.fake_meson_test
		main.intro_tests = lambda bd: [dict(
			name=NAME, cmd=['/bin/' + NAME], env={})]

	def tearDown(self):
		main.meson_test, main.intro_tests = self.saved
		self.tmp.cleanup()

	def fake_meson_test(self, side, bd, env, logbase, progress, args):
		self.runs.append((side, args[0]))
		result = self.script[side].pop(0)
		return {args[0]: dict(result=result)}

	def confirm(self, script, det=False):
		self.script = script
		row = dict(name=NAME, suites=['unit', 'det' if det else
					      'parallel'],
			   base='OK', patched='FAIL', tail='')
		if det:
			row['det'] = True
		cls = dict(regressions=[row], pre_existing=[])
		main.confirm('patched-bd', cls, {NAME: {}}, {},
			     lambda *a: None, {}, base=dict(
				     bd='base-bd', home=self.tmp.name))
		return cls

	def test_failing_again_is_a_regression_without_base_runs(self):
		cls = self.confirm(dict(patched=['FAIL'], base=[]))
		self.assertEqual(len(cls['regressions']), 1)
		self.assertEqual(cls['regressions'][0]['rerun'], 'failed again')
		self.assertEqual(self.runs, [('patched', NAME)])

	def test_failing_on_base_once_is_pre_existing(self):
		cls = self.confirm(dict(patched=['OK'], base=['OK', 'FAIL']))
		self.assertEqual(cls['regressions'], [])
		self.assertEqual(len(cls['pre_existing']), 1)
		self.assertIn('re-run 2 of %d' % main.BASE_RERUNS,
			      cls['pre_existing'][0]['base_flaky'])
		self.assertEqual(self.runs, [('patched', NAME), ('base', NAME),
					     ('base', NAME)])
		verdict = cmp.judge(dict(cls, hashes={}), None, {'x.c': True})
		self.assertNotEqual(verdict['verdict'], 'regression')
		self.assertIn('a flaky test, not blamed on the patch',
			      cls['pre_existing'][0]['base_flaky'])

	def test_passing_every_base_run_stays_a_regression(self):
		cls = self.confirm(dict(patched=['OK'],
					base=['OK'] * main.BASE_RERUNS))
		self.assertEqual(len(cls['regressions']), 1)
		self.assertIn('passed %d re-runs on base' % main.BASE_RERUNS,
			      cls['regressions'][0]['rerun'])
		self.assertEqual(cmp.judge(dict(cls, hashes={}), None,
					   {'x.c': True})['verdict'],
				 'regression')

	def test_a_det_regression_never_runs_on_base(self):
		self.confirm(dict(patched=[], base=[]), det=True)
		self.assertEqual([s for s, _ in self.runs if s == 'base'], [])


if __name__ == '__main__':
	unittest.main()
