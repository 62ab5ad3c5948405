# SPDX-License-Identifier: GPL-2.0
"""kshim prevalidate: compare what the base and the patched build did.

Pure functions over data already collected (meson's testlog.json entries,
the scenarios' JSON files); main.py runs things, and report.py prints.

Tests: compared per CUnit test and per seed, from the line a test binary
prints for each run ("kshim: seed 3 (det): 12 test(s) run, 1 failed:
SUITE/TEST; exit 1; trace hash ..."; a det binary sweeps every seed of
--seeds and prints one per seed). A CUnit test that passes on base at a
seed and fails patched at the same seed is a regression, whatever else
fails in that binary; one that fails on both at that seed is pre-existing.
A binary without those lines (a script, a run killed before it printed)
is compared as a whole. The 'finding' suite holds reproductions of known
kernel behaviour: a change there in either direction is reported, not
counted as a regression by itself.

Behaviour: a det run's trace hash folds in every scheduling decision, so
per test binary and seed an identical hash on both sides means the patch
did not change what that run did, as far as the scheduler can see.

Scenario metrics: in a deterministic-backend JSON every figure is virtual
time or a count and repeats exactly for its seed, so base and patched are
compared exactly. Fields named real_* are wall-clock timings (and, in a
parallel-backend JSON, so is every time or rate): they are judged against
the spread of the repeats (see judge_timing).
"""

import re
import statistics

OK_RESULTS = ('OK', 'EXPECTEDFAIL')
# A test's name in testlog.json: "project:suite1+suite2 / name".
NAME_RE = re.compile(r'^(?:[^:/ ]+:)?([^ ]*) / (.+)$')
REPLAY_RES = (re.compile(r'first failing seed: \d+ \(replay: ([^)]*)\)'),
	      re.compile(r'\(replay: ((?:KSHIM_\w+=\S+ )*KSHIM_SEED=\d+)\)'))
# print_seed_line() in kernel-shim/host/kshim_test_main.c.
SEED_LINE = re.compile(
	r'^kshim: seed (\d+) \((\w+)\): (\d+) test\(s\) run, (\d+) failed:?'
	r'([^;\n]*)(?:; stopped in (\S+))?(?:; exit (\d+))?'
	r'(?:; trace hash ([0-9a-f]+))?[ \t]*$', re.M)
# The runs of a binary are keyed by seed in the det backend ("seed 3");
# a parallel run's seed does not make its schedule, so both sides' runs
# are one key.
PARALLEL_KEY = 'parallel'
TIME_RE = re.compile(r'(_ns|_ms|_s|per_s)(_|$)')
# Fields that identify a run inside a list ("runs": [{"n": 8, "push":
# "late", ...}]) rather than measure it.
ID_FIELDS = ('n', 'name', 'regime', 'push', 'mode')
MIN_TIMING_REPEATS = 3


def parse_runs(out):
	"""{key: dict(seed, backend, run, failed=[SUITE/TEST], stopped, exit,
	hash)} from the seed lines in OUT; the first line of a key wins (a
	sweep prints its seeds' lines before it replays the first failing
	one, which prints its own)."""
	runs = {}
	for m in SEED_LINE.finditer(out):
		seed, backend = int(m.group(1)), m.group(2)
		key = 'seed %d' % seed if backend == 'det' else PARALLEL_KEY
		if key in runs:
			continue
		failed = m.group(5).split()
		rc = int(m.group(7)) if m.group(7) is not None else None
		if rc not in (None, 0, 77) and not failed:
			# Failed outside any test: start-up, a suite's init.
			failed = ['(exit %d)' % rc]
		runs[key] = dict(seed=seed, backend=backend,
				 run=int(m.group(3)), failed=failed,
				 stopped=m.group(6), exit=rc, hash=m.group(8))
	return runs


def parse_records(text):
	"""The per-test records a run writes to KSHIM_RESULTS_FD (see
	kernel-shim/host/kshim_test_main.c) -> dict(run, failed, stopped,
	hash): a "begin" without its "end" is the test the run stopped in,
	and it failed."""
	run, failed, open_, h = 0, [], None, None
	for line in text.splitlines():
		w = line.split()
		if len(w) == 2 and w[0] == 'begin':
			run += 1
			open_ = w[1]
		elif len(w) == 3 and w[0] == 'end':
			open_ = None
			if w[2] != 'pass':
				failed.append(w[1])
		elif len(w) == 2 and w[0] == 'hash':
			h = w[1]
	if open_:
		failed.append(open_)
	return dict(run=run, failed=failed, stopped=open_, hash=h)


# Printed by the budget wrapper (coverage.py wrap) when it kills a test.
OVER_BUDGET = 'kshim prevalidate: over budget:'


def parse_entry(e):
	"""One testlog.json entry -> dict(name, suites, result, ...)."""
	raw = e.get('name', '?')
	m = NAME_RE.match(raw)
	name, suites = (m.group(2), [s for s in m.group(1).split('+') if s]) \
		if m else (raw, [])
	out = (e.get('stdout') or '') + (e.get('stderr') or '')
	replay = None
	for r in REPLAY_RES:
		found = r.findall(out)
		if found:
			replay = found[-1]
			break
	hang = [l for l in out.splitlines() if l.startswith(OVER_BUDGET)]
	return dict(name=name, suites=suites, result=e.get('result'),
		    returncode=e.get('returncode'),
		    duration=float(e.get('duration') or 0), output=out,
		    replay=replay, runs=parse_runs(out),
		    hang=hang[-1][len(OVER_BUDGET):].strip() if hang else None)


# Lines that say why a test failed, shown before the tail of its output:
# a long CUnit log ends with expected WARN traces, not with its failure.
KEY_RE = re.compile(r'assertion failed|invariant broken|HANG|BUG|ASSERT|'
		    r'first failing seed|blocked for more than|NOT CAUGHT|'
		    r'ERROR|Sanitizer|timed out|\.\.\.FAILED|'
		    r'^\s+\d+\. \S+:\d+\s+- |verdict\s+FAIL')


def tail(text, lines=30):
	ls = text.rstrip('\n').splitlines()
	return '\n'.join(ls[-lines:])


# The runtime's exit checks: one line per leaked object (at most 20 of
# them, then "... and N more"), kind and cache first.
LEAK_RE = re.compile(r'kshim: leak: (pages|[a-z]+(?: \S+)?): ')
LEAK_MORE_RE = re.compile(r'kshim: leak: \.\.\. and (\d+) more')


def leak_summary(ls):
	"""One line for the leak report's many: objects by kind and cache
	(slab xfs_inode 3, kmalloc 2...), or None."""
	by = {}
	more = 0
	for l in ls:
		m = LEAK_RE.search(l)
		if m:
			by[m.group(1)] = by.get(m.group(1), 0) + 1
		m = LEAK_MORE_RE.search(l)
		if m:
			more += int(m.group(1))
	if not by:
		return None
	kinds = ', '.join('%s %d' % (k, n) for k, n in
			  sorted(by.items(), key=lambda x: (-x[1], x[0])))
	return 'leaked at exit: %s%s' % (
		kinds, ' and %d more' % more if more else '')


def excerpt(text, keys=8, lines=12):
	"""The lines that say why (at most KEYS; a leak report summed up in
	one), then the last LINES."""
	ls = text.rstrip('\n').splitlines()
	key = [l for l in ls if KEY_RE.search(l)][:keys]
	leaks = leak_summary(ls)
	if leaks:
		key.append(leaks)
	out = ['why:'] + ['  ' + l for l in key] + ['last lines:'] if key \
		else []
	return '\n'.join(out + ls[-lines:])


def is_det(t):
	return 'det' in t['suites']


def compare_runs(b, p):
	"""Per CUnit test and seed, the runs of one binary on base (B) and
	patched (P), parsed entries with 'runs'. Returns dict(regressions,
	pre_existing, fixed, not_compared), each a list of dict(test, key):
	a test that fails patched at a key and passes on base there is a
	regression; a base run that stopped before the test did not run it,
	so that pair is not compared. A key the base has and patched lacks
	(the patched run was killed before it printed that seed) counts as
	'(did not finish)' failing there."""
	res = dict(regressions=[], pre_existing=[], fixed=[], not_compared=[])
	br, pr = b['runs'], p['runs']
	for key in sorted(set(br) | set(pr), key=run_order):
		bk, pk = br.get(key), pr.get(key)
		if bk is None:
			continue
		bf = set(bk['failed'])
		pf = set(pk['failed']) if pk else {'(did not finish)'}
		for t in sorted(pf):
			if t in bf:
				res['pre_existing'].append(dict(test=t, key=key))
			elif bk['stopped']:
				res['not_compared'].append(dict(test=t, key=key))
			else:
				res['regressions'].append(dict(test=t, key=key))
		if pk is not None and not pk['stopped']:
			for t in sorted(bf - pf):
				res['fixed'].append(dict(test=t, key=key))
	return res


def run_order(key):
	return (0, int(key.split()[1])) if key.startswith('seed ') else (1, 0)


def hashes(b, p):
	"""{key: (base hash, patched hash)} of the det runs both sides
	printed a trace hash for."""
	return {k: (b['runs'][k]['hash'], p['runs'][k]['hash'])
		for k in sorted(set(b['runs']) & set(p['runs']), key=run_order)
		if b['runs'][k]['hash'] and p['runs'][k]['hash']}


def cases_text(cases, limit=6):
	"""'xfs_log/test_a at seeds 3, 7; xfs_log/test_b in the parallel
	run': CASES (compare_runs) grouped by test."""
	by = {}
	for c in cases:
		by.setdefault(c['test'], []).append(c['key'])
	parts = []
	for t, keys in by.items():
		seeds = [k.split()[1] for k in keys if k.startswith('seed ')]
		where = []
		if seeds:
			where.append('at seed%s %s' % (
				'' if len(seeds) == 1 else 's', ', '.join(seeds)))
		if PARALLEL_KEY in keys:
			where.append('in the parallel run')
		parts.append('%s %s' % (t, ' and '.join(where)))
	more = len(parts) - limit
	return '; '.join(parts[:limit]) + \
		('; and %d more test(s)' % more if more > 0 else '')


def compare_tests(base, patched):
	"""base, patched: {name: parsed entry}. Returns the classification,
	and per det binary its trace hashes ('hashes': {name: {key: (base,
	patched)}})."""
	out = dict(regressions=[], pre_existing=[], fixed=[], findings=[],
		   only_base=[], only_patched=[], skipped=[], passed=0,
		   hashes={})
	for name in sorted(set(base) | set(patched)):
		b, p = base.get(name), patched.get(name)
		if b is None or p is None:
			(out['only_patched'] if b is None else
			 out['only_base']).append(name)
			continue
		b_ok, p_ok = b['result'] in OK_RESULTS, p['result'] in OK_RESULTS
		row = dict(name=name, suites=p['suites'], base=b['result'],
			   patched=p['result'])
		if p.get('hang'):
			row['hang'] = p['hang']
		if 'finding' in p['suites']:
			if b_ok != p_ok:
				row['note'] = (
					'reproduces on base only: the patch '
					'hides or fixes it' if b_ok else
					'reproduces on patched only')
				row['tail'] = tail(p['output'])
				out['findings'].append(row)
			elif b_ok:
				out['passed'] += 1
			else:
				out['pre_existing'].append(row)
			continue
		if 'SKIP' in (b['result'], p['result']) and b_ok == p_ok:
			if b['result'] != p['result']:
				out['skipped'].append(row)
			continue
		# The detect suite's wrappers expect their binary to fail:
		# its lines are not results.
		wrapped = 'detect' in p['suites']
		if is_det(p) and not wrapped:
			h = hashes(b, p)
			if h:
				out['hashes'][name] = h
		if b['runs'] and (p['runs'] or not p_ok) and not wrapped and \
		   not (b_ok and p_ok):
			if classify_runs(row, b, p, out):
				continue
		if b_ok and p_ok:
			out['passed'] += 1
		elif b_ok:
			row['tail'] = excerpt(p['output'])
			row['replay'] = p['replay'] if is_det(p) else None
			row['det'] = is_det(p)
			out['regressions'].append(row)
		elif p_ok:
			out['fixed'].append(row)
		else:
			row['tail'] = tail(p['output'], 10)
			out['pre_existing'].append(row)
	return out


def classify_runs(row, b, p, out):
	"""ROW into OUT by compare_runs(); False when the runs say nothing
	(no failure on either side) and the binary's results decide."""
	c = compare_runs(b, p)
	row['cases'] = c
	row['det'] = is_det(p)
	if c['regressions']:
		row['tail'] = excerpt(p['output'])
		row['replay'] = p['replay'] if row['det'] else None
		out['regressions'].append(row)
	elif c['pre_existing'] or c['not_compared']:
		row['tail'] = tail(p['output'], 10)
		out['pre_existing'].append(row)
		if c['fixed']:
			out['fixed'].append(row)
	elif c['fixed']:
		out['fixed'].append(row)
	else:
		return False
	return True


# ------------------------------------------------------------------- budget

BUDGET_FACTOR = 5
BUDGET_MIN_S = 30


def budget(base_seconds):
	"""A patched test's time budget from its base duration: the larger of
	BUDGET_FACTOR times it and BUDGET_MIN_S (a short test's duration is
	mostly start-up noise on a loaded machine)."""
	return max(BUDGET_FACTOR * (base_seconds or 0), BUDGET_MIN_S)


# ------------------------------------------------------------------ verdict

EXIT = dict(clean=0, regression=1, untested=3)


def judge(tests, coverage, compiled, san_new=()):
	"""The verdict of a run that ran: dict(verdict, exit_status, reason,
	behaviour). TESTS: compare_tests(); COVERAGE: the coverage section
	(None: not measured); COMPILED {file: kshim compiles it}; SAN_NEW:
	the new sanitizer reports.

	regression: a test (per CUnit test and seed) or a sanitizer report.
	untested: no test can have seen the change: kshim compiles none of
	its files, or no test executed a changed line, or every det test that
	did ran the same schedule on both sides (trace hashes identical at
	every seed). clean: tests executed the change and passed; BEHAVIOUR
	says whether their trace hashes moved."""
	def out(verdict, reason=None, behaviour=None):
		return dict(verdict=verdict, exit_status=EXIT[verdict],
			    reason=reason, behaviour=behaviour)
	if tests['regressions'] or san_new:
		return out('regression')
	if not any(compiled.values()):
		return out('untested', 'the patch touches no file kshim '
			   'compiles, so no test can see it')
	reach, known = reaching(coverage)
	if known and not reach:
		measured = [e for e in coverage['files']
			    if e['status'] == 'measured']
		if measured and not any(e['executable'] for e in measured):
			return out('untested', 'no changed line has code '
				   '(comments, blank lines, declarations)')
		return out('untested', 'no test executed a changed line')
	det = {n: h for n, h in tests['hashes'].items()
	       if not known or n in reach}
	moved = {n: [k for k, (b, p) in h.items() if b != p]
		 for n, h in det.items()}
	moved = {n: ks for n, ks in moved.items() if ks}
	beh = dict(det_tests=sorted(det), changed=moved)
	if det and not moved:
		return out('untested', 'every det test that %s ran the same '
			   'schedule on both sides (trace hashes identical at '
			   'every seed: %s)' % (
				   'executed a changed line' if known else
				   'ran (coverage not known for every file)',
				   ', '.join(sorted(det))), beh)
	return out('clean', None, beh)


def reaching(coverage):
	"""(tests that executed a changed line, known for every compiled
	file); (set(), False) without coverage."""
	if not coverage:
		return set(), False
	tests, known = set(), True
	for e in coverage['files']:
		if e['status'] == 'not compiled':
			continue
		if e['status'] != 'measured':
			known = False
			continue
		tests |= {t for t, n in e['changed_lines_run_by_test'].items()
			  if n}
	return tests, known


def behaviour_text(beh):
	"""One line for a clean verdict: did the det tests that reached the
	change run differently?"""
	if not beh or not beh['det_tests']:
		return 'behaviour change not measured: no det test reached ' \
			'the change (only parallel-backend runs, whose ' \
			'schedules do not repeat)'
	moved = beh['changed']

	def seeds(keys):
		n = [k.split()[1] for k in keys]
		return 'seed%s %s' % ('' if len(n) == 1 else 's', ', '.join(n))
	return 'behaviour changed: trace hashes differ in %s; same in %d ' \
		'other det test(s) that reached it' % ('; '.join(
			'%s (%s)' % (n, seeds(ks)) for n, ks in
			sorted(moved.items())),
			len(beh['det_tests']) - len(moved))


# ---------------------------------------------------------------- scenarios

def flatten(obj, prefix=''):
	"""Scalar leaves of a scenario JSON as {dotted name: value}. Lists of
	runs are keyed by their identifying fields; lists of plain values (time
	series) are left out: they are for plots."""
	out = {}
	if isinstance(obj, dict):
		for k, v in obj.items():
			out.update(flatten(v, '%s%s' % (prefix + '.' if prefix
							 else '', k)))
	elif isinstance(obj, list):
		for i, v in enumerate(obj):
			if not isinstance(v, dict):
				return {}
			ids = ['%s=%s' % (k, v[k]) for k in ID_FIELDS if k in v]
			key = '%s[%s]' % (prefix, ','.join(ids) or i)
			out.update(flatten({k: x for k, x in v.items()
					    if k not in ID_FIELDS}, key))
	elif isinstance(obj, (bool, str)) or obj is None:
		out[prefix] = obj
	elif isinstance(obj, (int, float)):
		out[prefix] = obj
	return out


def is_timing(name, backend):
	leaf = name.rsplit('.', 1)[-1]
	if leaf.startswith('real_'):
		return True
	return backend != 'det' and bool(TIME_RE.search(leaf))


def pct(b, p):
	if not isinstance(b, (int, float)) or not isinstance(p, (int, float)) \
	   or isinstance(b, bool) or isinstance(p, bool):
		return None
	if b == 0:
		return None
	return 100.0 * (p - b) / abs(b)


TIMING_RULE = (
	'a real-time figure is called changed only when the min-max ranges of '
	'the two sides do not overlap (every patched run above, or below, '
	'every base run), over at least %d runs per side of the scenarios '
	'alone (--repeat), alternating base and patched; the change shown is '
	'between the medians' % MIN_TIMING_REPEATS)


def judge_timing(bvals, pvals):
	"""TIMING_RULE."""
	n = min(len(bvals), len(pvals))
	if n < MIN_TIMING_REPEATS:
		return 'not judged (%d run%s; needs --repeat %d)' % (
			n, '' if n == 1 else 's', MIN_TIMING_REPEATS)
	if min(pvals) > max(bvals):
		return 'higher beyond noise'
	if max(pvals) < min(bvals):
		return 'lower beyond noise'
	return 'within noise'


def compare_scenario(base_runs, patched_runs, base_timing, patched_timing):
	"""Lists (one per run) of the parsed JSON of one scenario file: the
	runs of the full suite, and the runs timings are taken from (the
	--repeat runs, or the same). Deterministic figures must be the same in
	every run of a side (else 'unstable')."""
	res = dict(exact=[], timing=[], unstable=[], compared=0)
	if not base_runs or not patched_runs:
		return res
	backend = base_runs[0].get('backend', 'parallel')
	bflat = [flatten(r) for r in base_runs + (
		base_timing if base_timing is not base_runs else [])]
	pflat = [flatten(r) for r in patched_runs + (
		patched_timing if patched_timing is not patched_runs else [])]
	btime = [flatten(r) for r in base_timing]
	ptime = [flatten(r) for r in patched_timing]
	names = [k for k in bflat[0] if k in pflat[0]]
	names += [k for k in pflat[0] if k not in bflat[0]]
	for k in names:
		if k in ('seed', 'backend', 'scenario'):
			continue
		bv = [f.get(k) for f in bflat]
		pv = [f.get(k) for f in pflat]
		res['compared'] += 1
		if is_timing(k, backend):
			bn = [f[k] for f in btime
			      if isinstance(f.get(k), (int, float))]
			pn = [f[k] for f in ptime
			      if isinstance(f.get(k), (int, float))]
			if not bn or not pn:
				continue
			bm, pm = statistics.median(bn), statistics.median(pn)
			res['timing'].append(dict(
				metric=k, base_median=bm, base_min=min(bn),
				base_max=max(bn), patched_median=pm,
				patched_min=min(pn), patched_max=max(pn),
				pct=pct(bm, pm), verdict=judge_timing(bn, pn)))
			continue
		for side, vals in (('base', bv), ('patched', pv)):
			if any(v != vals[0] for v in vals):
				res['unstable'].append(dict(metric=k, side=side,
							    values=vals))
		if bv[0] != pv[0]:
			res['exact'].append(dict(metric=k, base=bv[0],
						 patched=pv[0],
						 pct=pct(bv[0], pv[0])))
	return res
