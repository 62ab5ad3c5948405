#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The pure parts of kshim prevalidate's verdicts
(scripts/prevalidate/compare.py): test results per CUnit test and per
seed, read from the lines a test binary prints, and the trace hashes
compared per seed. No build needed."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
from scripts.prevalidate import compare as cmp  # noqa: E402


def entry(lines, result=None, name='test_x_det', suite='det'):
	"""A testlog.json entry of a det binary that printed LINES."""
	out = '\n'.join(lines) + '\nKSHIM-RESULT tests=1\n'
	failed = any(' 0 failed' not in l for l in lines)
	return dict(name='kshim:unit+%s / %s' % (suite, name),
		    result=result or ('FAIL' if failed else 'OK'),
		    stdout=out, returncode=1 if failed else 0)


def seed(n, failed=(), stopped=None, rc=None, h='aa'):
	rc = (1 if failed else 0) if rc is None else rc
	return ('kshim: seed %d (det): 5 test(s) run, %d failed%s%s%s; '
		'exit %d; trace hash %s' % (
			n, len(failed), ':' if failed else '', ''.join(
				' ' + f for f in failed),
			'; stopped in %s' % stopped if stopped else '', rc, h))


def compare(base, patched):
	b, p = cmp.parse_entry(base), cmp.parse_entry(patched)
	return cmp.compare_tests({b['name']: b}, {p['name']: p})


class TestPerTestAndSeed(unittest.TestCase):
	def test_seed_lines_are_read(self):
		e = cmp.parse_entry(entry([
			seed(1), seed(2, ['s/t_a', 's/t_b'], h='bb'),
			seed(3, ['s/t_c'], stopped='s/t_c', rc=134)]))
		r = e['runs']
		self.assertEqual(sorted(r), ['seed 1', 'seed 2', 'seed 3'])
		self.assertEqual(r['seed 2']['failed'], ['s/t_a', 's/t_b'])
		self.assertEqual(r['seed 2']['hash'], 'bb')
		self.assertEqual(r['seed 3']['stopped'], 's/t_c')
		self.assertEqual(r['seed 3']['exit'], 134)

	def test_a_line_without_failures_ends_at_its_end(self):
		e = cmp.parse_entry(dict(name='kshim:unit / t', result='OK',
					 stdout='kshim: seed 7 (parallel): 3 '
					 'test(s) run, 0 failed\nKSHIM-RESULT '
					 'tests=3\nkshim: 1 page leaked\n'))
		self.assertEqual(e['runs']['parallel']['failed'], [])

	def test_first_line_of_a_seed_wins(self):
		# The sweep's line, then the replay's own for the same seed.
		e = cmp.parse_entry(entry([seed(2, ['s/t_a']), seed(2)]))
		self.assertEqual(e['runs']['seed 2']['failed'], ['s/t_a'])

	def test_another_test_failing_on_base_does_not_hide_a_regression(self):
		# The case: base fails t_a at seed 19; the patch breaks
		# t_b at seed 3. The binary fails on both sides.
		base = entry([seed(3), seed(19, ['s/t_a'])])
		pat = entry([seed(3, ['s/t_b']), seed(19, ['s/t_a'])])
		res = compare(base, pat)
		self.assertEqual([r['name'] for r in res['regressions']],
				 ['test_x_det'])
		c = res['regressions'][0]['cases']
		self.assertEqual(c['regressions'],
				 [dict(test='s/t_b', key='seed 3')])
		self.assertEqual(c['pre_existing'],
				 [dict(test='s/t_a', key='seed 19')])
		self.assertIn('s/t_b at seed 3',
			      cmp.cases_text(c['regressions']))

	def test_same_test_at_another_seed_is_a_regression(self):
		base = entry([seed(3), seed(19, ['s/t_a'])])
		pat = entry([seed(3, ['s/t_a']), seed(19, ['s/t_a'])])
		c = compare(base, pat)['regressions'][0]['cases']
		self.assertEqual(c['regressions'],
				 [dict(test='s/t_a', key='seed 3')])

	def test_same_failures_are_pre_existing(self):
		base = entry([seed(3), seed(19, ['s/t_a'])])
		pat = entry([seed(3), seed(19, ['s/t_a'], h='cc')])
		res = compare(base, pat)
		self.assertEqual(res['regressions'], [])
		self.assertEqual([r['name'] for r in res['pre_existing']],
				 ['test_x_det'])

	def test_a_base_run_that_stopped_compares_nothing_after(self):
		base = entry([seed(1, ['s/t_a'], stopped='s/t_a', rc=134)])
		pat = entry([seed(1, ['s/t_b'])])
		res = compare(base, pat)
		self.assertEqual(res['regressions'], [])
		self.assertEqual(res['pre_existing'][0]['cases']['not_compared'],
				 [dict(test='s/t_b', key='seed 1')])

	def test_a_patched_run_killed_before_a_seed_did_not_finish(self):
		base = entry([seed(1), seed(2)])
		pat = entry([seed(1)], result='TIMEOUT')
		c = compare(base, pat)['regressions'][0]['cases']
		self.assertEqual(c['regressions'],
				 [dict(test='(did not finish)', key='seed 2')])

	def test_failure_outside_any_test_has_a_name(self):
		e = cmp.parse_entry(entry([seed(1, rc=1)]))
		self.assertEqual(e['runs']['seed 1']['failed'], ['(exit 1)'])

	def test_without_seed_lines_the_binary_decides(self):
		base = dict(name='kshim:unit / s', result='OK', stdout='ok')
		pat = dict(name='kshim:unit / s', result='FAIL', stdout='no')
		res = compare(base, pat)
		self.assertEqual([r['name'] for r in res['regressions']], ['s'])
		self.assertNotIn('cases', res['regressions'][0])

	def test_a_wrapper_expecting_failure_is_judged_by_its_result(self):
		base = entry([seed(1, ['s/t_a'])], result='OK', suite='detect+det')
		pat = entry([seed(1, ['s/t_b'])], result='OK', suite='detect+det')
		res = compare(base, pat)
		self.assertEqual((res['passed'], res['regressions'],
				  res['hashes']), (1, [], {}))

	def test_hashes_per_seed(self):
		base = entry([seed(1, h='aa'), seed(2, h='bb')])
		pat = entry([seed(1, h='aa'), seed(2, h='cc')])
		res = compare(base, pat)
		self.assertEqual(res['passed'], 1)
		self.assertEqual(res['hashes']['test_x_det'],
				 {'seed 1': ('aa', 'aa'), 'seed 2': ('bb', 'cc')})



class TestReplayAndBudget(unittest.TestCase):
	def test_records_name_the_test_a_run_stopped_in(self):
		r = cmp.parse_records('backend det\nbegin s/a\nend s/a pass\n'
				      'begin s/b\nend s/b fail\nbegin s/c\n')
		self.assertEqual((r['run'], r['failed'], r['stopped']),
				 (3, ['s/b', 's/c'], 's/c'))
		self.assertIsNone(r['hash'])

	def test_records_of_a_finished_run(self):
		r = cmp.parse_records('begin s/a\nend s/a pass\nhash 00ff\n')
		self.assertEqual((r['failed'], r['stopped'], r['hash']),
				 ([], None, '00ff'))

	def test_budget_is_5x_base_at_least_30_s(self):
		self.assertEqual(cmp.budget(1.5), 30)
		self.assertEqual(cmp.budget(20), 100)
		self.assertEqual(cmp.budget(None), 30)

	def test_over_budget_is_a_hang_regression(self):
		base = entry([seed(1), seed(2)])
		pat = entry([seed(1)], result='FAIL')
		pat['stdout'] += '\n%s test_x_det ran 31 s\n' % cmp.OVER_BUDGET
		res = compare(base, pat)
		r = res['regressions'][0]
		self.assertEqual(r['hang'], 'test_x_det ran 31 s')
		self.assertEqual(r['cases']['regressions'],
				 [dict(test='(did not finish)', key='seed 2')])


def tests_with(hashes, regressions=()):
	return dict(regressions=list(regressions), hashes=hashes)


def cov(*files):
	return dict(files=list(files))


def measured(name, runs, executable=1):
	return dict(file=name, status='measured', executable=executable,
		    changed_lines_run_by_test=runs)


class TestVerdict(unittest.TestCase):
	SAME = {'t_det': {'seed 1': ('aa', 'aa'), 'seed 2': ('bb', 'bb')}}
	MOVED = {'t_det': {'seed 1': ('aa', 'aa'), 'seed 2': ('bb', 'cc')}}

	def judge(self, tests, coverage, compiled=None):
		return cmp.judge(tests, coverage, compiled or {'fs/x.c': True})

	def test_regression_wins(self):
		j = self.judge(tests_with(self.SAME, ['r']), None)
		self.assertEqual((j['verdict'], j['exit_status']),
				 ('regression', 1))

	def test_nothing_compiled_is_untested(self):
		j = self.judge(tests_with(self.MOVED), None,
			       {'fs/xfs/xfs_file.c': False})
		self.assertEqual((j['verdict'], j['exit_status']),
				 ('untested', 3))
		self.assertIn('no file kshim compiles', j['reason'])

	def test_no_test_reached_a_changed_line(self):
		j = self.judge(tests_with(self.MOVED),
			       cov(measured('fs/x.c', {'t_det': 0})))
		self.assertEqual(j['verdict'], 'untested')
		self.assertIn('no test executed', j['reason'])

	def test_comment_only_says_so(self):
		j = self.judge(tests_with(self.SAME),
			       cov(measured('fs/x.c', {}, executable=0)))
		self.assertEqual(j['verdict'], 'untested')
		self.assertIn('no changed line has code', j['reason'])

	def test_reached_and_identical_is_untested(self):
		j = self.judge(tests_with(dict(self.SAME, other_det={
			'seed 1': ('x', 'y')})),
			cov(measured('fs/x.c', {'t_det': 1})))
		# other_det moved but never ran the change: not counted.
		self.assertEqual(j['verdict'], 'untested')
		self.assertIn('trace hashes identical', j['reason'])

	def test_reached_and_moved_is_clean(self):
		j = self.judge(tests_with(self.MOVED),
			       cov(measured('fs/x.c', {'t_det': 2})))
		self.assertEqual((j['verdict'], j['exit_status']), ('clean', 0))
		self.assertEqual(j['behaviour']['changed'], {'t_det': ['seed 2']})
		self.assertIn('t_det (seed 2)', cmp.behaviour_text(j['behaviour']))
		j['behaviour']['changed']['t_det'] = ['seed 1', 'seed 2']
		self.assertIn('t_det (seeds 1, 2)',
			      cmp.behaviour_text(j['behaviour']))

	def test_a_header_leaves_reach_unknown_and_all_det_tests_count(self):
		j = self.judge(tests_with(self.MOVED), cov(dict(
			file='fs/x.h', status='header: coverage not attributed')))
		self.assertEqual(j['verdict'], 'clean')

	def test_only_parallel_tests_reached(self):
		j = self.judge(tests_with(self.SAME),
			       cov(measured('fs/x.c', {'t': 3})))
		self.assertEqual(j['verdict'], 'clean')
		self.assertIn('not measured', cmp.behaviour_text(j['behaviour']))



class TestExcerpt(unittest.TestCase):
	"""What a regression's report shows first: the reason."""

	LEAKS = (
		'  Test: test_x ...passed\n'
		'kshim: leak: slab xfs_inode: 1024 bytes at 0x1, allocated from 0x2\n'
		'kshim: leak: slab xfs_inode: 1024 bytes at 0x3, allocated from 0x2\n'
		'kshim: leak: kmalloc: 64 bytes at 0x4, allocated from 0x5\n'
		'kshim: leak: ... and 7 more\n'
		'kshim: 10 object(s) leaked\n')

	def test_leaks_at_exit_are_summed_up_under_why(self):
		why = cmp.excerpt(self.LEAKS).split('last lines:')[0]
		self.assertIn('leaked at exit: slab xfs_inode 2, kmalloc 1 and '
			      '7 more', why)

	def test_a_run_without_leaks_has_no_leak_line(self):
		self.assertNotIn('leaked at exit', cmp.excerpt(
			'  Test: test_x ...FAILED\n  1. a.c:3  - x == 1\n'))


if __name__ == '__main__':
	unittest.main()
