# SPDX-License-Identifier: GPL-2.0
"""./kshim mutate FILE: which lines of a kernel file no test guards.

Mutants of FILE (generate.py, operators.py) are built one object each
from the base build dir, which is only read (objects.py); those the
compiler proves identical are dropped; the others run the det tests whose
coverage reaches the mutated lines (covmap.py), at the same seeds for
every mutant, each run within a budget from its base duration
(tests.py); judge.py gives the verdict, report.py the tables.

The work dir (default build-mutate/) keeps the coverage build (cov/), the
per-test coverage and the base runs (cached per build stamp), and one
scratch dir per job.
"""

import hashlib
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time

import scripts
from scripts.build import used_files
from scripts.mutate import covmap, generate, objects, operators, report
from scripts.mutate import tests as mt
from scripts.mutate.judge import Judge
from scripts.prevalidate import build as pvbuild
from scripts.prevalidate.main import Progress

# Bump when what base-runs.json keeps per run changes.
BASE_RUNS_VERSION = 2
EQUIVALENTS = os.path.join(scripts.REPO, 'tests', 'mutate',
			   'equivalent.txt')


def parser():
	p = scripts.ArgumentParser(
		prog='kshim mutate',
		description='Mutate a kernel .c file the way buggy patches do, '
		'run the tests that reach each mutated line, and report which '
		'mutants no test kills (the mutation score per function). '
		'Exit 0 when it ran, 2 on bad input.')
	p.add_argument('file', metavar='FILE',
		       help='a kernel .c file kshim compiles, tree-relative '
		       '(fs/xfs/xfs_icache.c)')
	p.add_argument('--function', action='append', metavar='F',
		       help='only mutate inside function F (repeatable)')
	p.add_argument('--lines', metavar='A-B',
		       help='only mutate lines A to B (inclusive)')
	p.add_argument('--operator', action='append', metavar='OP',
		       help='only mutants of operator OP (repeatable): %s'
		       % ', '.join(operators.NAMES))
	p.add_argument('--max', type=int, metavar='N',
		       help='at most N mutants, a sample drawn with a fixed '
		       'seed (--sample-seed), in file order')
	p.add_argument('--sample-seed', type=int, default=1, metavar='S',
		       help='the seed --max samples with (default '
		       '%(default)s)')
	p.add_argument('--jobs', type=int, default=2, metavar='J',
		       help='mutants built and run at once (default '
		       '%(default)s)')
	p.add_argument('--seeds', type=int, default=2, metavar='N',
		       help='det seeds 1..N each test runs at, the same for '
		       'every mutant (default %(default)s); a test with a '
		       'seed of its own (scenarios) runs at that one')
	p.add_argument('--tests', nargs='+', metavar='TEST',
		       help='run these det tests (meson names) on every '
		       'mutant instead of those whose coverage reaches it: '
		       'no coverage build needed')
	p.add_argument('--builddir', default='build', metavar='DIR',
		       help='the base build, only read (default %(default)s)')
	p.add_argument('--workdir', default='build-mutate', metavar='DIR',
		       help='coverage build, caches and scratch dirs, kept '
		       '(default %(default)s)')
	p.add_argument('--out', metavar='DIR',
		       help='where mutate.md and mutate.json go (default '
		       'WORKDIR/report)')
	p.add_argument('--equivalents', default=EQUIVALENTS, metavar='FILE',
		       help='mutants judged equivalent, with reasons '
		       '(default tests/mutate/equivalent.txt)')
	p.add_argument('--list', action='store_true',
		       help='only list the mutants (no build, no tests)')
	return p


def in_repo(path):
	return path if os.path.isabs(path) else os.path.join(scripts.REPO,
							     path)


def check(a):
	if a.jobs < 1:
		raise scripts.Error('--jobs must be at least 1')
	if a.seeds < 1:
		raise scripts.Error('--seeds must be at least 1')
	if a.max is not None and a.max < 1:
		raise scripts.Error('--max must be at least 1')
	for op in a.operator or ():
		if op not in operators.NAMES:
			raise scripts.Error('--operator %s: no such operator; '
					    'operators: %s' % (
						    op, ', '.join(operators.NAMES)))
	a.lines_range = None
	if a.lines:
		m = re.match(r'^(\d+)-(\d+)$', a.lines)
		if not m or int(m.group(1)) > int(m.group(2)) or \
		   int(m.group(1)) < 1:
			raise scripts.Error('--lines %s: expected A-B with '
					    '1 <= A <= B' % a.lines)
		a.lines_range = (int(m.group(1)), int(m.group(2)))
	a.builddir = in_repo(a.builddir)
	a.workdir = in_repo(a.workdir)
	if not os.path.isfile(os.path.join(a.builddir, 'build.ninja')):
		raise scripts.Error('%s is not a build dir; run ./kshim build'
				    % a.builddir)
	a.file = os.path.normpath(a.file)


def load_equivalents(path):
	"""{hash: (file, function, reason)} from the equivalents file:
	"FILE FUNCTION HASH REASON..." per line, # comments."""
	out = {}
	try:
		with open(path) as f:
			for n, line in enumerate(f, 1):
				line = line.strip()
				if not line or line.startswith('#'):
					continue
				w = line.split(None, 3)
				if len(w) < 4:
					raise scripts.Error(
						'%s:%d: expected FILE FUNCTION HASH '
						'REASON' % (path, n))
				out[w[2]] = (w[0], w[1], w[3])
	except FileNotFoundError:
		pass
	return out


def base_runs(a, tests, progress):
	"""{test: [(seed, dict(status, seconds))]} of TESTS on the base
	binaries, cached in WORKDIR/base-runs.json per binary stamp and
	seeds."""
	path = os.path.join(a.workdir, 'base-runs.json')
	try:
		with open(path) as f:
			cache = json.load(f)
	except (OSError, ValueError):
		cache = {}
	out = {}
	for i, name in enumerate(sorted(tests)):
		t = tests[name]
		st = os.stat(t['cmd'][0])
		key = hashlib.sha256(json.dumps(
			[BASE_RUNS_VERSION, name, t['cmd'], sorted((t.get('env') or {}).items()),
			 st.st_size, st.st_mtime_ns,
			 mt.seeds_of(t, a.seeds)]).encode()).hexdigest()[:16]
		if cache.get(name, {}).get('key') == key:
			out[name] = [tuple(x) for x in cache[name]['runs']]
			continue
		runs = []
		for seed in mt.seeds_of(t, a.seeds):
			progress('base runs', '%d/%d %s seed %d' % (
				i + 1, len(tests), name, seed))
			limit = max(t.get('timeout') or 600, 60)
			r = mt.run_one(t, seed, a.builddir, (limit, limit),
				       scratch=a.workdir)
			runs.append((seed, dict(status=r['status'],
						seconds=r['seconds'],
						cpu=r['cpu'])))
		out[name] = runs
		cache[name] = dict(key=key, runs=runs)
		with open(path + '.tmp', 'w') as f:
			json.dump(cache, f)
		os.replace(path + '.tmp', path)
	return out


class Status:
	"""The progress line: mutants done, killed, survived, rate, time
	left."""

	def __init__(self, progress, total):
		self.p, self.total = progress, total
		self.t0 = time.monotonic()
		self.counts = {}
		self.done = 0
		self.lock = threading.Lock()

	def add(self, r):
		with self.lock:
			self.done += 1
			self.counts[r['status']] = self.counts.get(r['status'],
								   0) + 1
			self.show()

	def rate(self):
		el = time.monotonic() - self.t0
		return self.done * 60.0 / el if el > 0 else 0.0

	def show(self):
		rate = self.rate()
		left = (self.total - self.done) / rate * 60 if rate else 0
		c = self.counts
		self.p('mutants', '%d/%d done, %d killed (%d hang), %d survived, '
		       '%d equivalent, %d not built; %.1f/min, %.0f s left' % (
			       self.done, self.total, c.get('killed', 0) +
			       c.get('hang', 0), c.get('hang', 0),
			       c.get('survived', 0), c.get('equivalent', 0),
			       c.get('not built', 0), rate, left))


def run(a, progress):
	t_start = time.monotonic()
	check(a)
	base = objects.Base(a.builddir)
	if base.entry(a.file) is None:
		raise scripts.Error('%s is not a kernel file kshim compiles (not '
				    'in %s/compile_commands.json; the files are '
				    'meson.build\'s kernel_files)' % (
					    a.file, os.path.relpath(a.builddir,
								   scripts.REPO)))
	tree = used_files.tree_of(a.builddir)
	with open(os.path.join(tree, a.file), errors='replace') as f:
		text = f.read()
	nlines = text.count('\n') + (0 if text.endswith('\n') else 1)
	if a.lines_range and a.lines_range[1] > nlines:
		raise scripts.Error('--lines %s: %s has %d lines' % (
			a.lines, a.file, nlines))
	funcs = set(a.function) if a.function else None
	pre = os.path.join(a.workdir, 'jobs', 'pre')
	os.makedirs(pre, exist_ok=True)
	active = objects.Builder(base, a.file, pre).active_lines(text)
	ops = set(a.operator) if a.operator else None
	muts, found, total, inactive = generate.mutants(
		a.file, text, funcs, a.lines_range, a.max, a.sample_seed, active,
		ops)
	for fn in sorted(funcs or ()):
		if fn not in found:
			raise scripts.Error('no function %s in %s' % (fn, a.file))
	if a.list:
		for m in muts:
			print('%4d %s %s:%d %-10s %s' % (m.id, m.hash, m.function,
							 m.line, m.operator,
							 m.description))
		print('%d mutants (%d before --max; %d more in #if branches the '
		      'build does not compile)' % (len(muts), total, inactive))
		return 0
	if not muts:
		print('kshim mutate: no mutant in %s%s%s' % (
			a.file, ' in ' + ', '.join(sorted(funcs)) if funcs else '',
			' on lines ' + a.lines if a.lines else ''))
		return 0
	os.makedirs(a.workdir, exist_ok=True)
	equiv = load_equivalents(a.equivalents)
	phases = {}
	t = time.monotonic()
	intro = pvbuild.intro_tests(a.builddir)
	cands = {x['name']: x for x in mt.candidates(intro)}
	cov = None
	if a.tests:
		bad = [n for n in a.tests if n not in cands]
		if bad:
			raise scripts.Error('--tests %s: not a det test mutate '
					    'can run (see meson test --list '
					    '--suite det)' % bad[0])
		everywhere = sorted(range(1, nlines + 1))
		by_test = {n: everywhere for n in a.tests}
		for m in muts:
			m.probe = list(range(m.lines[0], m.lines[1] + 1))
	else:
		cov = covmap.CovMap(a.workdir, a.builddir, a.seeds, progress)
		by_test = cov.lines_by_test(a.file, set(cands))
		phases['coverage'] = time.monotonic() - t
		for m in muts:
			m.probe = covmap.probe_lines(m.lines[0], m.lines[1],
						     cov.executable,
						     found[m.function])
	lines = {n for m in muts for n in m.probe}
	used = {n: cands[n] for n, ls in by_test.items()
		if n in cands and lines & set(ls)}
	t = time.monotonic()
	bruns = base_runs(a, used, progress)
	phases['base runs'] = time.monotonic() - t
	base_fail = {n: [s for s, r in runs if r['status'] != 'pass']
		     for n, runs in bruns.items()}

	def cost(name):
		return sum(r['seconds'] for _, r in bruns.get(name, []))
	plan = dict(tests=used, lines_by_test=by_test, base=bruns,
		    cost=cost)
	todo = queue.Queue()
	results = {}
	listed = []
	for m in muts:
		if m.hash in equiv:
			results[m.id] = dict(id=m.id, status='listed equivalent',
					     why=equiv[m.hash][2])
			listed.append(m)
		else:
			todo.put(m)
	status = Status(progress, todo.qsize())
	errors = []

	def worker(j):
		jobdir = os.path.join(a.workdir, 'jobs', 'j%d' % j)
		shutil.rmtree(jobdir, ignore_errors=True)
		os.makedirs(jobdir)
		try:
			judge = Judge(objects.Builder(base, a.file, jobdir), text,
				      plan)
		except RuntimeError as e:
			errors.append(str(e))
			return
		if j == 0:
			why = judge.preflight()
			if why:
				errors.append(why)
				return
		while not errors:
			try:
				m = todo.get_nowait()
			except queue.Empty:
				return
			t0 = time.monotonic()
			try:
				r = judge.judge(m)
			except (OSError, subprocess.SubprocessError,
				scripts.Error) as e:
				errors.append('mutant #%d: %s' % (m.id, e))
				return
			r['mutant_seconds'] = round(time.monotonic() - t0, 1)
			results[m.id] = r
			status.add(r)
	t = time.monotonic()
	status.show()
	threads = [threading.Thread(target=worker, args=(j,))
		   for j in range(a.jobs)]
	for th in threads:
		th.start()
	for th in threads:
		th.join()
	if errors:
		raise scripts.Error(errors[0], status=1)
	if cov:
		# Where a check is missing: the CUnit tests that ran it.
		for m in muts:
			r = results.get(m.id) or {}
			if r.get('status') == 'survived':
				r['cunit_tests'] = cov.cunits_reaching(m.probe)
	phases['mutants'] = time.monotonic() - t
	phases['total'] = time.monotonic() - t_start
	progress.done()
	load = os.getloadavg()
	return report.write(dict(
		file=a.file, functions=sorted(funcs) if funcs else None,
		lines=a.lines, max=a.max, sample_seed=a.sample_seed,
		seeds=a.seeds, jobs=a.jobs, generated=total,
		inactive=inactive,
		command='./kshim mutate ' + ' '.join(sys.argv[2:]
						     if len(sys.argv) > 1 and
						     sys.argv[1] == 'mutate'
						     else []),
		mutants=[dict(m.to_json(), **results[m.id]) for m in muts],
		functions_found=found,
		base_failures={n: s for n, s in base_fail.items() if s},
		tests_used=sorted(used), phases=phases,
		rate_per_min=status.rate() if status.done else None,
		mutants_run=status.done, loadavg=load,
		manifest_sha256=used_files.manifest(a.builddir).get(
			'combined_sha256')),
		a.out or os.path.join(a.workdir, 'report'))


def main(argv):
	progress = Progress()
	try:
		a = parser().parse_args(argv)
		return run(a, progress)
	except KeyboardInterrupt:
		progress.done()
		print('kshim mutate: interrupted')
		return 2
