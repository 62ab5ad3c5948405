#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run the example patches of cases.json through ./kshim prevalidate and
check each verdict: the exit status, the tests a regression must name (and
words its excerpt must show: the CUnit test or the invariant), the words
the one-line reason of an exit 2 must contain, for a clean patch
that no deterministic scenario figure moved, and the coverage report's
figures for the patch's files.

usage: run_cases.py [--workdir DIR] [--only NAME]...

All cases share one work dir, so the base build and base results are made
once and the patched build is incremental from case to case.
"""
import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def check(case, rc, first, rep):
	"""The reasons CASE failed (empty: it passed)."""
	bad = []
	if rc != case['exit']:
		bad.append('exit %d, expected %d' % (rc, case['exit']))
	for w in case.get('reason_contains', []):
		if w not in first:
			bad.append('first line lacks %r: %r' % (w, first))
	if case['exit'] == 2 or rep is None:
		return bad if rep is not None or case['exit'] == 2 else \
			bad + ['no report.json']
	got = {r['name']: r for r in rep['tests']['regressions']}
	for name, words in case.get('regressions', {}).items():
		if name not in got:
			bad.append('%s not reported as a regression (got %s)'
				   % (name, sorted(got)))
		elif words not in got[name]['tail']:
			bad.append('%s: its excerpt lacks %r' % (name, words))
	bad += check_coverage(case.get('coverage', {}), rep)
	if case.get('no_figure_changes'):
		moved = {n: [e['metric'] for e in s['exact']]
			 for n, s in rep['scenarios'].items() if s['exact']}
		if moved:
			bad.append('deterministic figures changed: %s' % moved)
	return bad


def check_coverage(want, rep):
	"""WANT: {file: {field: value}} of report.json's coverage section;
	"exercised_by_includes" lists tests that must be among those that
	ran the file."""
	bad = []
	if want and not rep.get('coverage'):
		return ['no coverage section in report.json']
	got = {e['file']: e for e in (rep.get('coverage') or {}).get(
		'files', [])}
	for fn, fields in want.items():
		e = got.get(fn)
		if e is None:
			bad.append('coverage: %s not reported' % fn)
			continue
		for k, v in fields.items():
			if k == 'exercised_by_includes':
				miss = set(v) - set(e.get('exercised_by', []))
				if miss:
					bad.append('coverage: %s not run by %s' % (
						fn, sorted(miss)))
			elif e.get(k) != v:
				bad.append('coverage: %s %s is %r, expected %r'
					   % (fn, k, e.get(k), v))
	return bad


def main():
	ap = argparse.ArgumentParser()
	ap.add_argument('--workdir', default=os.path.join(REPO,
				'build-prevalidate'))
	ap.add_argument('--only', action='append', default=[])
	a = ap.parse_args()
	with open(os.path.join(HERE, 'cases.json')) as f:
		cases = json.load(f)
	failed = 0
	for case in cases:
		if a.only and case['name'] not in a.only:
			continue
		out = os.path.join(a.workdir, 'cases', case['name'])
		rep_path = os.path.join(out, 'report.json')
		if os.path.exists(rep_path):
			os.unlink(rep_path)
		cmd = [os.path.join(REPO, 'kshim'), 'prevalidate',
		       os.path.join(REPO, case['patch']), '--workdir',
		       a.workdir, '--out', out] + case.get('args', [])
		print('+ ' + ' '.join(cmd), flush=True)
		t0 = time.monotonic()
		r = subprocess.run(cmd, stdout=subprocess.PIPE, text=True)
		secs = time.monotonic() - t0
		print(r.stdout, flush=True)
		first = (r.stdout.splitlines() or [''])[0]
		rep = None
		if os.path.exists(rep_path):
			with open(rep_path) as f:
				rep = json.load(f)
		bad = check(case, r.returncode, first, rep)
		print('%s: %s (exit %d, %.0f s)%s' % (
			case['name'], 'FAIL' if bad else 'ok', r.returncode, secs,
			''.join('\n  ' + b for b in bad)), flush=True)
		failed += bool(bad)
	print('KSHIM-RESULT tests=%d passed=%d failed=%d skipped=0' % (
		len(cases) if not a.only else len(a.only),
		(len(cases) if not a.only else len(a.only)) - failed, failed))
	return 1 if failed else 0


if __name__ == '__main__':
	sys.exit(main())
