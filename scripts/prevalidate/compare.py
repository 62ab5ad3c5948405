# SPDX-License-Identifier: GPL-2.0
"""kshim prevalidate: compare what the base and the patched build did.

Pure functions over data already collected (meson's testlog.json entries,
the scenarios' JSON files); main.py runs things, and report.py prints.

Tests: a test that passes on base and fails on patched is a regression;
failing on both is pre-existing. The 'finding' suite holds reproductions of
known kernel behaviour: a change there in either direction is reported, not
counted as a regression by itself.

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
TIME_RE = re.compile(r'(_ns|_ms|_s|per_s)(_|$)')
# Fields that identify a run inside a list ("runs": [{"n": 8, "push":
# "late", ...}]) rather than measure it.
ID_FIELDS = ('n', 'name', 'regime', 'push', 'mode')
MIN_TIMING_REPEATS = 3


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
	return dict(name=name, suites=suites, result=e.get('result'),
		    returncode=e.get('returncode'),
		    duration=float(e.get('duration') or 0), output=out,
		    replay=replay)


# Lines that say why a test failed, shown before the tail of its output:
# a long CUnit log ends with expected WARN traces, not with its failure.
KEY_RE = re.compile(r'assertion failed|invariant broken|HANG|BUG|ASSERT|'
		    r'first failing seed|blocked for more than|NOT CAUGHT|'
		    r'ERROR|Sanitizer|timed out|\.\.\.FAILED|'
		    r'^\s+\d+\. \S+:\d+\s+- |verdict\s+FAIL')


def tail(text, lines=30):
	ls = text.rstrip('\n').splitlines()
	return '\n'.join(ls[-lines:])


def excerpt(text, keys=8, lines=12):
	"""The lines that say why (at most KEYS), then the last LINES."""
	ls = text.rstrip('\n').splitlines()
	key = [l for l in ls if KEY_RE.search(l)][:keys]
	out = ['why:'] + ['  ' + l for l in key] + ['last lines:'] if key \
		else []
	return '\n'.join(out + ls[-lines:])


def is_det(t):
	return 'det' in t['suites']


def compare_tests(base, patched):
	"""base, patched: {name: parsed entry}. Returns the classification."""
	out = dict(regressions=[], pre_existing=[], fixed=[], findings=[],
		   only_base=[], only_patched=[], skipped=[], passed=0)
	for name in sorted(set(base) | set(patched)):
		b, p = base.get(name), patched.get(name)
		if b is None or p is None:
			(out['only_patched'] if b is None else
			 out['only_base']).append(name)
			continue
		b_ok, p_ok = b['result'] in OK_RESULTS, p['result'] in OK_RESULTS
		row = dict(name=name, suites=p['suites'], base=b['result'],
			   patched=p['result'])
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
