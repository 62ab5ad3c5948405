#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Seed sweeps split into shards (docs/test.md#seed-sweeps): the test
runner's --shard (kernel-shim/host/kshim_test_shard.c) and its Python
twin for ./kshim test (scripts/testing/shard.py) pick the same seeds from
the same flags and CI variables; the shards of a sweep are disjoint and
cover it; a sweep run J seeds at a time prints what it prints one at a
time; every bad input is one line on stderr and exit 2; and the reports
(JUnit per shard, junit-merge, KCIDB) on made-up logs.

A failing seed whose replay passes is said to not replay, with the
output of the run that failed (NOT_REPLAYING, a fixture binary whose test
fails only in the sweep's own runs).

usage: test_shard.py BINARY NOT_REPLAYING   (a det test binary: meson
passes test_runtime; a hundred runs that list seeds and a few of one
small test, about 2 s; and tests/unit/fixture_sweep_not_replaying.c's)
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, REPO)
import scripts  # noqa: E402
from scripts.testing import junit_merge, kcidb, shard, sweep_report  # noqa: E402,E501

BINARY = None
NOT_REPLAYING = None
# The CI variables a case may set; every run starts with none of them.
CI_VARS = ('KSHIM_SHARD', 'KSHIM_SHARD_TOTAL', 'CI_NODE_INDEX',
	   'CI_NODE_TOTAL', 'SLURM_ARRAY_TASK_ID', 'SLURM_ARRAY_TASK_COUNT',
	   'SLURM_ARRAY_TASK_MIN', 'SLURM_ARRAY_TASK_STEP',
	   'JOB_COMPLETION_INDEX')
SMALL_TEST = 'test_mutex_excludes_tasks'


def clean_env(**extra):
	env = {k: v for k, v in os.environ.items()
	       if k not in CI_VARS and not k.startswith('KSHIM_')}
	env['KSHIM_BACKEND'] = 'det'
	env.update(extra)
	return env


def binary(args, **env):
	return subprocess.run([BINARY] + args, env=clean_env(**env),
			      stdout=subprocess.PIPE, stderr=subprocess.PIPE,
			      text=True, timeout=120)


def listed(seeds, flag=None, **env):
	"""The binary's seeds for --seeds SEEDS [--shard FLAG]; or the
	CompletedProcess if it refused."""
	args = ['--seeds', seeds, '--list-seeds']
	if flag is not None:
		args += ['--shard', flag]
	r = binary(args, **env)
	if r.returncode:
		return r
	return [int(x) for x in r.stdout.split()]


# (flag, environment, the shard K/N, or the words of the error)
CASES = [
	(None, {}, '1/1'),
	('2/4', {}, '2/4'),
	('4/4', {}, '4/4'),
	(None, {'KSHIM_SHARD': '3/5'}, '3/5'),
	# the flag beats the environment
	('1/2', {'KSHIM_SHARD': '3/5'}, '1/2'),
	# CI variables are read only on request
	(None, {'CI_NODE_INDEX': '2', 'CI_NODE_TOTAL': '4'}, '1/1'),
	# GitLab: CI_NODE_INDEX counts from 1
	('auto', {'CI_NODE_INDEX': '1', 'CI_NODE_TOTAL': '16'}, '1/16'),
	('auto', {'CI_NODE_INDEX': '16', 'CI_NODE_TOTAL': '16'}, '16/16'),
	(None, {'KSHIM_SHARD': 'auto', 'CI_NODE_INDEX': '3',
		'CI_NODE_TOTAL': '4'}, '3/4'),
	# Slurm: the task's place in its range, whatever the range's start
	('auto', {'SLURM_ARRAY_TASK_ID': '0', 'SLURM_ARRAY_TASK_MIN': '0',
		  'SLURM_ARRAY_TASK_COUNT': '16'}, '1/16'),
	('auto', {'SLURM_ARRAY_TASK_ID': '16', 'SLURM_ARRAY_TASK_MIN': '1',
		  'SLURM_ARRAY_TASK_COUNT': '16'}, '16/16'),
	('auto', {'SLURM_ARRAY_TASK_ID': '4', 'SLURM_ARRAY_TASK_MIN': '0',
		  'SLURM_ARRAY_TASK_STEP': '2', 'SLURM_ARRAY_TASK_COUNT': '8'},
	 '3/8'),
	# Kubernetes: JOB_COMPLETION_INDEX counts from 0
	('auto', {'JOB_COMPLETION_INDEX': '0', 'KSHIM_SHARD_TOTAL': '4'},
	 '1/4'),
	('auto', {'JOB_COMPLETION_INDEX': '3', 'KSHIM_SHARD_TOTAL': '4'},
	 '4/4'),
	# two engines that agree
	('auto', {'CI_NODE_INDEX': '2', 'CI_NODE_TOTAL': '4',
		  'JOB_COMPLETION_INDEX': '1', 'KSHIM_SHARD_TOTAL': '4'}, '2/4'),
	# bad input
	('3/2', {}, 'there is no shard 3 of 2'),
	('0/2', {}, 'there is no shard 0 of 2'),
	('1/0', {}, 'must be at least 1'),
	('2', {}, 'expected K/N'),
	('a/b', {}, 'expected K/N, two whole numbers'),
	('-1/2', {}, 'expected K/N, two whole numbers'),
	(None, {'KSHIM_SHARD': '5/4'}, 'KSHIM_SHARD=5/4: there is no shard'),
	('auto', {}, 'no CI shard variables are set'),
	('auto', {'CI_NODE_INDEX': '2'}, 'CI_NODE_TOTAL is not'),
	('auto', {'CI_NODE_INDEX': '0', 'CI_NODE_TOTAL': '4'},
	 'CI_NODE_INDEX counts from 1'),
	('auto', {'JOB_COMPLETION_INDEX': '1'}, 'set KSHIM_SHARD_TOTAL'),
	('auto', {'JOB_COMPLETION_INDEX': '4', 'KSHIM_SHARD_TOTAL': '4'},
	 'not one of the 4 shards'),
	('auto', {'SLURM_ARRAY_TASK_ID': '3', 'SLURM_ARRAY_TASK_MIN': '0',
		  'SLURM_ARRAY_TASK_STEP': '2', 'SLURM_ARRAY_TASK_COUNT': '8'},
	 'not a task of a range'),
	('auto', {'SLURM_ARRAY_TASK_ID': '3'}, 'SLURM_ARRAY_TASK_COUNT'),
	('auto', {'CI_NODE_INDEX': '2', 'CI_NODE_TOTAL': '4',
		  'SLURM_ARRAY_TASK_ID': '2', 'SLURM_ARRAY_TASK_MIN': '0',
		  'SLURM_ARRAY_TASK_COUNT': '4'}, 'names two shards'),
]


class Resolve(unittest.TestCase):
	"""The binary and scripts/testing/shard.py agree on every case."""

	def test_cases(self):
		for flag, env, want in CASES:
			with self.subTest(flag=flag, env=env):
				got = listed('1..24', flag, **env)
				try:
					py = shard.resolve(flag, env)
				except scripts.Error as e:
					py = e
				if re.fullmatch(r'\d+/\d+', want):
					k, n = (int(x) for x in want.split('/'))
					seeds = [s for s in range(1, 25)
						 if s % n == k % n]
					self.assertEqual(got, seeds)
					self.assertEqual(str(py), want)
					self.assertEqual(py.seeds(1, 24), seeds)
				else:
					self.assertEqual(got.returncode, 2, got)
					self.assertEqual(got.stdout, '')
					lines = got.stderr.strip().splitlines()
					self.assertEqual(len(lines), 1, lines)
					self.assertIn(want, lines[0])
					self.assertIsInstance(py, scripts.Error)
					self.assertEqual(py.status, 2)
					# the same words from both
					self.assertEqual(lines[0], 'kshim: ' + str(py))


class Partition(unittest.TestCase):
	def test_shards_are_disjoint_and_cover_the_sweep(self):
		for first, last in ((1, 20), (5, 17), (3, 3)):
			for n in range(1, 7):
				with self.subTest(seeds=(first, last), n=n):
					parts = [listed('%d..%d' % (first, last),
							'%d/%d' % (k, n))
						 for k in range(1, n + 1)]
					flat = [s for p in parts for s in p]
					self.assertEqual(sorted(flat),
							 list(range(first, last + 1)))
					self.assertEqual(len(flat), len(set(flat)))

	def test_a_seeds_shard_depends_on_the_seed_alone(self):
		# seed 7 is in shard 3/4 whether the sweep starts at 1 or 5
		self.assertIn(7, listed('1..12', '3/4'))
		self.assertIn(7, listed('5..12', '3/4'))


def seed_lines(out):
	return sorted(l for l in out.splitlines()
		      if re.match(r'kshim: seed \d+ ', l))


class Sweep(unittest.TestCase):
	"""Real sweeps of one small test of the binary."""

	def sweep(self, *args, **env):
		r = binary(['-t', SMALL_TEST, '--seeds', '6'] + list(args),
			   **env)
		self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
		return r.stdout

	def test_shards_run_what_the_whole_sweep_runs(self):
		whole = seed_lines(self.sweep(KSHIM_SWEEP_TESTS='1'))
		parts = []
		for k in (1, 2, 3):
			parts += seed_lines(self.sweep('--shard', '%d/3' % k,
						       '--jobs', '2',
						       KSHIM_SWEEP_TESTS='1'))
		self.assertEqual(sorted(parts), whole)
		self.assertEqual(len(whole), 6 * 3)   # 2 tests + seed line

	def test_jobs_print_what_one_at_a_time_prints(self):
		one = self.sweep()
		self.assertEqual(self.sweep('--jobs', '3'), one)

	def test_a_shard_with_no_seed_passes_and_says_so(self):
		r = binary(['-t', SMALL_TEST, '--seeds', '2', '--shard', '3/4'])
		self.assertEqual(r.returncode, 0)
		self.assertIn('has no seed in 1..2', r.stdout)
		self.assertIn('KSHIM-RESULT tests=0 ', r.stdout)

	def test_env_shard_in_a_sweep(self):
		out = self.sweep(KSHIM_SHARD='auto', CI_NODE_INDEX='2',
				 CI_NODE_TOTAL='3')
		self.assertIn('shard 2/3 (CI_NODE_INDEX=2 CI_NODE_TOTAL=3)', out)
		self.assertEqual([int(m) for m in re.findall(
			r'^kshim: seed (\d+) \(', out, re.M)], [2, 5])


class NotReplaying(unittest.TestCase):
	"""A seed that fails in the sweep and passes replayed."""

	def run_fixture(self, *args):
		return subprocess.run([NOT_REPLAYING] + list(args),
				      env=clean_env(), stdout=subprocess.PIPE,
				      stderr=subprocess.STDOUT, text=True,
				      timeout=120)

	def test_the_sweep_says_so_and_prints_the_failing_run(self):
		r = self.run_fixture('--seeds', '3..4')
		self.assertEqual(r.returncode, 1, r.stdout)
		self.assertIn('seed 3 of 4 fails (exit 1); replaying it', r.stdout)
		self.assertIn('seed 3 DID NOT REPLAY: it failed (exit 1) in the '
			      'sweep and its replay exited 0', r.stdout)
		# The failing run's own report, between the two lines.
		kept = r.stdout.split('DID NOT REPLAY', 1)[1].split(
			'end of the output of seed 3', 1)[0]
		self.assertIn('the sweep\'s own run of the seed fails here', kept)
		self.assertIn('test_fails_only_in_the_sweeps_own_run', kept)
		# Each of its lines marked, so that its seed and result lines
		# are not read as the sweep's.
		lines = kept.splitlines()[1:-1]
		self.assertTrue(lines)
		self.assertEqual([l for l in lines if not l.startswith('| ')],
				 [])
		self.assertIn('first failing seed: 3', r.stdout)

	def test_a_failure_that_replays_is_not_called_so(self):
		r = subprocess.run([NOT_REPLAYING, '--seeds', '1..1'],
				   env=clean_env(FIXTURE_FAILS_ALWAYS='1'),
				   stdout=subprocess.PIPE,
				   stderr=subprocess.STDOUT, text=True,
				   timeout=120)
		self.assertEqual(r.returncode, 1, r.stdout)
		self.assertIn('seed 1 of 1 fails', r.stdout)
		self.assertNotIn('DID NOT REPLAY', r.stdout)


class BadInput(unittest.TestCase):
	def refused(self, cmd, words, **env):
		r = subprocess.run(cmd, env=clean_env(**env),
				   stdout=subprocess.PIPE,
				   stderr=subprocess.PIPE, text=True,
				   timeout=120)
		self.assertEqual(r.returncode, 2, r)
		lines = r.stderr.strip().splitlines()
		self.assertEqual(len(lines), 1, r.stderr)
		self.assertIn(words, lines[0])

	def test_binary(self):
		for args, words in (
				(['--seeds', '4', '--shard', '3/2'], 'no shard 3 of 2'),
				(['--shard', '1/2'], 'works on a seed sweep'),
				(['--jobs', '2'], 'works on a seed sweep'),
				(['--seeds', '4', '--jobs', '0'], '--jobs 0'),
				(['--seeds', '4', '--jobs', 'x'], '--jobs x'),
				(['--seeds', 'x'], '--seeds x'),
				(['--seeds', '9..3'], '--seeds 9..3'),
				# A test that is not there would pass,
				# having run none.
				(['-t', 'test_no_such_test'],
				 'no such test in this binary'),
				(['-s', 'no_such_suite'],
				 'no such test in this binary'),
				(['--seeds', '2', '-t', 'test_no_such_test'],
				 'no such test in this binary')):
			with self.subTest(args=args):
				self.refused([BINARY] + args, words)

	def test_kshim_test(self):
		kshim = [sys.executable, os.path.join(REPO, 'kshim'), 'test',
			 '--builddir', '/nonexistent-kshim-build']
		for args, words in (
				(['--seeds', '4', '--shard', '3/2'], 'no shard 3 of 2'),
				(['--seeds', '4', '--shard', 'auto'],
				 'no CI shard variables'),
				(['--shard', '2/4'], 'works on a seed sweep'),
				(['--kcidb', 'x.json'], 'works on a seed sweep'),
				(['--seeds', '0'], '--seeds 0'),
				(['--seeds', '4', '--tsan'], 'not with --tsan'),
				(['--seeds', 'x'], 'invalid int value')):
			with self.subTest(args=args):
				self.refused(kshim + args, words)


def entry(test, out, result='OK', rc=0):
	return {'name': 'kshim:unit+det+sweep / ' + test, 'stdout': out,
		'result': result, 'returncode': rc,
		'command': [os.path.join(REPO, 'build', 'tests', 'test_x'),
			    '--seeds', '4'],
		'env': {'KSHIM_BACKEND': 'det', 'KSHIM_NCPUS': '4',
			'KSHIM_SEEDS': '8', 'KSHIM_SHARD': '2/4', 'PATH': '/bin'}}


def shard_log(k):
	"""Made-up output of test_x_det for shard K/4 of seeds 1..8: seed 6
	fails x/b, seed 2 dies in x/b."""
	out = ''
	for seed in (k, k + 4):
		if seed == 2:
			out += ('kshim: seed 2 test x/a: pass\n'
				'kshim: seed 2 test x/b: stopped\n'
				'kshim: seed 2 (det): 2 test(s) run, 1 failed: '
				'x/b; stopped in x/b; exit 134\n')
			continue
		b = 'fail' if seed == 6 else 'pass'
		out += ('kshim: seed %d test x/a: pass\n'
			'kshim: seed %d test x/b: %s\n'
			'kshim: seed %d (det): 2 test(s) run, %d failed%s; exit '
			'%d; trace hash %016x\n' % (
				seed, seed, b, seed, b == 'fail',
				': x/b' if b == 'fail' else '', b == 'fail',
				seed))
	return [entry('test_x_det', out), entry('test_y_det', '', 'TIMEOUT',
						 -15)] if k == 1 else \
		[entry('test_x_det', out)]


class Reports(unittest.TestCase):
	def setUp(self):
		self.tmp = tempfile.TemporaryDirectory()
		self.dir = self.tmp.name

	def tearDown(self):
		self.tmp.cleanup()

	def write_shards(self, ks=(1, 2, 3, 4)):
		paths = []
		for k in ks:
			vs = sweep_report.verdicts(shard_log(k))
			p = os.path.join(self.dir, 'shard-%d.xml' % k)
			sweep_report.write_junit(vs, ['test_x_det'],
						 shard.Shard(k, 4, 'test'), 8, p)
			paths.append(p)
		return paths

	def test_verdicts(self):
		vs = sweep_report.verdicts(shard_log(2))
		got = {(v['case'], v['seed']): v['status'] for v in vs}
		self.assertEqual(got, {('x/a', 2): 'PASS', ('x/b', 2): 'FAIL',
				       ('x/a', 6): 'PASS', ('x/b', 6): 'FAIL'})
		v = [v for v in vs if v['seed'] == 6][0]
		self.assertEqual(v['replay'], 'KSHIM_BACKEND=det KSHIM_NCPUS=4 '
				 'KSHIM_SEED=6 build/tests/test_x')
		timeout = sweep_report.verdicts(shard_log(1))[-1]
		self.assertEqual((timeout['test'], timeout['status']),
				 ('test_y_det', 'ERROR'))

	def test_merge(self):
		paths = self.write_shards()
		root = junit_merge.merge(paths)
		self.assertEqual(root.get('tests'), str(8 * 2 + 1))
		self.assertEqual(root.get('failures'), '2')
		self.assertEqual(root.get('errors'), '1')
		names = [tc.get('name') for tc in
			 root.find("testsuite[@name='test_x_det']")]
		self.assertIn('x/b seed=6', names)

	def test_merge_refuses(self):
		paths = self.write_shards()
		for args, words in (
				(paths[:3], 'shard(s) 4/4 of 4 missing'),
				(paths + paths[:1], 'given twice'),
				([os.path.join(self.dir, 'nope.xml')],
				 'not a readable JUnit file')):
			with self.subTest(words=words):
				with self.assertRaises(scripts.Error) as c:
					junit_merge.merge(args)
				self.assertIn(words, str(c.exception))
				self.assertEqual(c.exception.status, 2)
		other = os.path.join(self.dir, 'other.xml')
		sweep_report.write_junit([], ['test_x_det'],
					 shard.Shard(1, 2, 'test'), 8, other)
		with self.assertRaises(scripts.Error) as c:
			junit_merge.merge([paths[0], other])
		self.assertIn('not the same sweep', str(c.exception))

	def test_kcidb(self):
		with open(os.path.join(self.dir, 'manifest.json'), 'w') as f:
			json.dump({'kernel_version': '6.12.117', 'tree': '/t',
				   'source': '/usr/src/linux.tar.xz',
				   'patches': [{'file': 'a.patch',
						'sha256': 'ab' * 32}],
				   'files': {'mm/list_lru.c': 'cd' * 32},
				   'combined_sha256': 'ef' * 32}, f)
		vs = sweep_report.verdicts(shard_log(1))
		r = kcidb.report(vs, self.dir, shard.Shard(1, 4, 't'), 8)
		self.assertEqual(r['version'], {'major': 5, 'minor': 3})
		(ck,), (b,) = r['checkouts'], r['builds']
		self.assertEqual(b['checkout_id'], ck['id'])
		ids = [ck['id'], b['id']] + [t['id'] for t in r['tests']]
		self.assertEqual(len(ids), len(set(ids)))
		for i in ids:
			self.assertRegex(i, r'^[a-z0-9_]+:.+$')
		self.assertRegex(ck['patchset_hash'], r'^[0-9a-f]{64}$')
		for t in r['tests']:
			self.assertEqual(t['build_id'], b['id'])
			self.assertIn(t['status'], ('FAIL', 'ERROR', 'MISS', 'PASS',
						    'DONE', 'SKIP'))
			self.assertRegex(t['path'], r'^[.a-zA-Z0-9_-]*$')
		five = [t for t in r['tests'] if t['misc'].get('seed') == 5]
		self.assertEqual({t['path'] for t in five},
				 {'kshim.test_x_det.x.a', 'kshim.test_x_det.x.b'})
		self.assertIn('KSHIM_SEED=5', five[0]['misc']['replay'])


if __name__ == '__main__':
	BINARY = os.path.abspath(sys.argv.pop(1))
	NOT_REPLAYING = os.path.abspath(sys.argv.pop(1))
	unittest.main()
