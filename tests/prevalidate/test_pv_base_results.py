#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""kshim prevalidate's base side, kept per test and run once where it can
be: on made-up build dirs and tests.

- same_program.py: a test whose built files are byte for byte the base's
  is not run on the patched side; a changed binary, a changed binary named
  by a wrapper's relative argument, a test script, a script in the build
  dir and a scenario test are run.
- base_results.py: a kept work dir re-runs on the base side only the tests
  whose files changed; the scenario tests re-run together; a new test in
  the build, --select without stored coverage and a new --seeds re-run
  everything that needs it; a re-run test's old result is not kept."""

import os
import shutil
import sys
import tempfile
import types
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
from scripts.prevalidate import base_results, same_program  # noqa: E402

ELF = b'\x7fELF' + b'\0' * 60
PY = sys.executable


def write(path, data):
	os.makedirs(os.path.dirname(path), exist_ok=True)
	with open(path, 'wb') as f:
		f.write(data)


def test(name, cmd, suite='unit'):
	return dict(name=name, cmd=cmd, suite=['kshim:' + suite], env={},
		    workdir=None)


class Dirs(unittest.TestCase):
	def setUp(self):
		self.root = tempfile.mkdtemp(prefix='kshim-pv-base-')
		self.bd = {s: os.path.join(self.root, s)
			   for s in ('base', 'patched')}

	def tearDown(self):
		shutil.rmtree(self.root)

	def both(self, rel, data, patched=None):
		write(os.path.join(self.bd['base'], rel), data)
		write(os.path.join(self.bd['patched'], rel),
		      data if patched is None else patched)


class TestSameProgram(Dirs):
	def intro(self):
		p = self.bd['patched']
		return [
			test('lib', [os.path.join(p, 'tests/lib')]),
			test('xfs', [os.path.join(p, 'tests/xfs')]),
			test('finding_lib', [PY, '-m',
					     'scripts.testing.expect_failure',
					     'tests/lib', '4', 'x'], 'finding'),
			test('finding_xfs', [PY, '-m',
					     'scripts.testing.expect_failure',
					     'tests/xfs', '4', 'x'], 'finding'),
			test('script', [PY, os.path.join(HERE, 'run_cases.py'),
					os.path.join(p, 'tests/lib')]),
			test('built_script', [os.path.join(p, 'tests/run.sh')]),
			test('scenario_lib', [os.path.join(p, 'tests/lib')],
			     'scenario'),
		]

	def test_only_unchanged_known_programs_are_left_out(self):
		self.both('tests/lib', ELF + b'lib')
		self.both('tests/xfs', ELF + b'xfs', ELF + b'XFS')
		self.both('tests/run.sh', b'#!/bin/sh\n')
		intro = self.intro()
		same = same_program.tests(self.bd['base'], self.bd['patched'],
					  intro, [t['name'] for t in intro])
		self.assertEqual(same, ['lib', 'finding_lib'])

	def test_a_declared_tool_test_is_left_out(self):
		# tests/meson.build's tool_suites: reads only the repository.
		tool = test('pv_compare', [PY, os.path.join(HERE, 'x.py')],
			    'nobuild')
		tool['suite'].append('kshim:unit')
		self.assertEqual(same_program.tests(
			self.bd['base'], self.bd['patched'],
			self.intro() + [tool], ['script', 'pv_compare']),
			['pv_compare'])

	def test_a_binary_missing_on_base_runs(self):
		write(os.path.join(self.bd['patched'], 'tests/lib'), ELF)
		self.assertEqual(same_program.tests(
			self.bd['base'], self.bd['patched'], self.intro(),
			['lib']), [])

	def test_same_size_other_bytes_runs(self):
		self.both('tests/lib', ELF + b'aaaa', ELF + b'aaab')
		self.assertEqual(same_program.tests(
			self.bd['base'], self.bd['patched'], self.intro(),
			['lib', 'finding_lib']), [])


class FakeRun:
	"""main.run_side() for base_results.cached(): every test it is asked
	to run passes, with its run number in the entry; a scenario test
	writes a figure named after it."""

	def __init__(self, intro):
		self.intro, self.calls = intro, []

	def __call__(self, names, wrap):
		ran = names if names is not None else \
			[t['name'] for t in self.intro]
		self.calls.append(None if names is None else sorted(names))
		k = len(self.calls)
		return dict(tests={n: dict(result='OK', run=k) for n in ran},
			    scenarios={n + '.json': [k] for n in ran
				       if n.startswith('scenario_')},
			    seconds=1.0)


class TestBaseResults(Dirs):
	def setUp(self):
		super().setUp()
		self.a = types.SimpleNamespace(
			workdir=self.root, base_home=self.root, seeds=4,
			kernel_src=None, kernel_tarball=None, device=None,
			only=[], select=False, coverage=True)
		b = self.bd['base']
		self.intro = [test(n, [os.path.join(b, 'tests', n)],
				   'scenario' if n.startswith('scenario_')
				   else 'unit')
			      for n in ('t1', 't2', 'scenario_a',
					'scenario_b')]
		for t in self.intro:
			write(t['cmd'][0], ELF + t['name'].encode())
		self.run = FakeRun(self.intro)

	def cached(self):
		return base_results.cached(self.bd['base'], self.a, self.intro,
					   self.run)

	def touch(self, name, data=b'changed'):
		write(os.path.join(self.bd['base'], 'tests', name), ELF + data)

	def test_first_run_runs_everything_then_nothing(self):
		r = self.cached()
		self.assertIsNone(r['rerun'])
		self.assertEqual(sorted(r['tests']), sorted(
			t['name'] for t in self.intro))
		r = self.cached()
		self.assertEqual(r['rerun'], [])
		self.assertEqual(self.run.calls, [None])
		self.assertEqual(r['scenarios'], {'scenario_a.json': [1],
						  'scenario_b.json': [1]})

	def test_one_changed_binary_reruns_that_test_alone(self):
		self.cached()
		self.touch('t2')
		r = self.cached()
		self.assertEqual(r['rerun'], ['t2'])
		self.assertEqual(self.run.calls[-1], ['t2'])
		self.assertEqual(r['tests']['t2']['run'], 2)
		self.assertEqual(r['tests']['t1']['run'], 1)
		self.assertEqual(r['scenarios']['scenario_a.json'], [1])

	def test_scenarios_rerun_together(self):
		self.cached()
		self.touch('scenario_a')
		r = self.cached()
		self.assertEqual(self.run.calls[-1], ['scenario_a', 'scenario_b'])
		self.assertEqual(r['scenarios'], {'scenario_a.json': [2],
						  'scenario_b.json': [2]})

	def test_a_test_missing_from_the_rerun_is_not_kept(self):
		self.cached()
		self.touch('t2')
		run = self.run
		self.run = lambda names, wrap: dict(
			run(names, wrap), tests={})
		r = self.cached()
		self.assertNotIn('t2', r['tests'])

	def test_a_new_test_reruns_everything(self):
		self.cached()
		self.intro.append(test('t3', [self.intro[0]['cmd'][0]]))
		self.assertIsNone(self.cached()['rerun'])

	def test_other_seeds_rerun_everything(self):
		self.cached()
		self.a.seeds = 8
		self.assertEqual(len(self.cached()['rerun']), 4)

	def test_select_reruns_what_ran_without_coverage(self):
		self.a.coverage = False
		self.cached()
		self.a.coverage, self.a.select = True, True
		self.assertEqual(len(self.cached()['rerun']), 4)
		self.assertEqual(self.cached()['rerun'], [])

	def test_only_reruns_its_tests_and_keeps_the_rest(self):
		self.cached()
		self.a.only = ['t1']
		r = self.cached()
		self.assertEqual(r['rerun'], [])
		self.assertEqual(sorted(r['tests']), ['t1'])
		self.assertEqual(r['scenarios'], {})
		self.a.only = []
		r = self.cached()
		self.assertEqual(r['rerun'], [])
		self.assertEqual(len(r['tests']), 4)

	def test_relative_binary_of_a_wrapper_is_stamped(self):
		self.intro.append(test('finding_t1', [
			PY, '-m', 'scripts.testing.expect_failure', 'tests/t1',
			'4', 'x'], 'finding'))
		self.cached()
		self.touch('t1')
		self.assertEqual(self.cached()['rerun'], ['finding_t1', 't1'])


if __name__ == '__main__':
	unittest.main(verbosity=2)
