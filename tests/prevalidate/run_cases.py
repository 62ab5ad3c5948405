#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run the example patches of cases.json through ./kshim prevalidate and
check each verdict: the exit status, the tests a regression must name (and
words its excerpt must show: the CUnit test or the invariant), the new
sanitizer reports (--sanitizers, in "args") and their words, the words
the one-line reason of an exit 2 must contain, for a clean patch that no
deterministic scenario figure moved, the coverage report's figures
for the patch's files, "report": report.json fields as given
(--only's and --device's), the tests --select must run and skip
("selected", "not_selected"), and the tests whose programs the patch
left the same ("same_program") or changed ("run_on_patched"). A
"fresh_workdir" case runs in a work dir of its own, made new each time:
with the base side shared by work dirs (base_home.py), after a case that
ran it, nothing of the base runs again ("report": {"base_rerun": []}).

usage: run_cases.py [--workdir DIR] [--only NAME]...

All cases share one work dir, so the base build and base results are made
once and the patched build is incremental from case to case.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

import git_fixture

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def check(case, rc, first, rep, secs=0):
	"""The reasons CASE failed (empty: it passed)."""
	bad = []
	if rc != case['exit']:
		bad.append('exit %d, expected %d' % (rc, case['exit']))
	if 'max_seconds' in case and secs > case['max_seconds']:
		bad.append('took %.0f s, more than %d' % (secs,
							  case['max_seconds']))
	for w in case.get('reason_contains', []):
		if w not in first:
			bad.append('first line lacks %r: %r' % (w, first))
	if case['exit'] == 2 or rep is None:
		return bad if rep is not None or case['exit'] == 2 else \
			bad + ['no report.json']
	if 'per_commit' in case:
		verdicts = ['clean' if not r['regressions'] and not
			    r.get('could_not_run') else 'regression'
			    for r in rep.get('per_commit', [])]
		if verdicts != case['per_commit']:
			bad.append('per commit %s, expected %s' % (
				verdicts, case['per_commit']))
	got = {r['name']: r for r in rep['tests']['regressions']}
	for name, words in case.get('regressions', {}).items():
		if name not in got:
			bad.append('%s not reported as a regression (got %s)'
				   % (name, sorted(got)))
		elif words not in got[name]['tail']:
			bad.append('%s: its excerpt lacks %r' % (name, words))
	bad += check_verdict(case, rep, got)
	if case.get('no_test_regressions') and rep['tests']['regressions']:
		bad.append('the normal run caught it: %s' % sorted(
			r['name'] for r in rep['tests']['regressions']))
	san = rep.get('sanitizers') or {}
	for kind, tests in case.get('sanitizer_regressions', {}).items():
		got = {r['name']: r for r in
		       san.get(kind, {}).get('regressions', [])}
		for name, words in tests.items():
			if name not in got:
				bad.append('%s not a new %s report (got %s)' % (
					name, kind, sorted(got)))
			elif words not in got[name]['summary'] + \
					got[name]['report']:
				bad.append('%s: its %s report lacks %r' % (
					name, kind, words))
	for kind in case.get('sanitizers_ran', []):
		if san.get(kind, {}).get('status') != 'ran' or \
		   not san[kind].get('tests'):
			bad.append('%s did not run: %s' % (
				kind, san.get(kind, {}).get('reason', 'no result')))
	bad += check_coverage(case.get('coverage', {}), rep)
	if case.get('no_figure_changes'):
		moved = {n: [e['metric'] for e in s['exact']]
			 for n, s in rep['scenarios'].items() if s['exact']}
		if moved:
			bad.append('deterministic figures changed: %s' % moved)
	return bad


def check_verdict(case, rep, got):
	"""The untested reason, the behaviour, the -p level; per regression
	row the CUnit tests that regressed, its replays and hangs. GOT:
	{name: regression row}."""
	bad = []
	w = case.get('verdict_reason_contains')
	if w and w not in (rep.get('verdict_reason') or ''):
		bad.append('verdict reason %r lacks %r' % (
			rep.get('verdict_reason'), w))
	moved = (rep.get('behaviour') or {}).get('changed') or {}
	for name in case.get('behaviour_changed_in', []):
		if name not in moved:
			bad.append('behaviour of %s not reported changed (got %s)'
				   % (name, sorted(moved)))
	if 'patch_level' in case and \
	   rep['patches'][0].get('level') != case['patch_level']:
		bad.append('patch level %r, expected %r' % (
			rep['patches'][0].get('level'), case['patch_level']))
	for name, test in case.get('regression_cases', {}).items():
		cases = ((got.get(name) or {}).get('cases') or {}).get(
			'regressions', [])
		if not any(test in c['test'] for c in cases):
			bad.append('%s: no regression of CUnit test %s at a seed '
				   '(got %s)' % (name, test, cases))
	for name, status in case.get('replayed', {}).items():
		reps = (got.get(name) or {}).get('replays') or []
		if not reps or not reps[0]['status'].startswith(status):
			bad.append('%s: replay %r, expected %r' % (
				name, reps[0]['status'] if reps else None, status))
	for name in case.get('hang', []):
		if not (got.get(name) or {}).get('hang'):
			bad.append('%s not reported as a hang over budget' % name)
	sel = rep.get('selection') or {}
	for name in case.get('selected', []):
		if name not in (sel.get('run') or []):
			bad.append('--select did not run %s (ran %s)' % (
				name, sel.get('run')))
	for name in case.get('not_selected', []):
		if name not in sel.get('skipped', []):
			bad.append('--select did not skip %s' % name)
	same = rep.get('same_program') or []
	for name in case.get('same_program', []):
		if name not in same:
			bad.append('%s was run on the patched side, though its '
				   'programs are the base\'s' % name)
	for name in case.get('run_on_patched', []):
		if name in same:
			bad.append('%s was not run on the patched side' % name)
	for key, want in case.get('report', {}).items():
		if rep.get(key) != want:
			bad.append('report.json %s is %r, expected %r' % (
				key, rep.get(key), want))
	return bad


def inputs(case, workdir):
	"""(work dir, arguments): the patch, or for a "commits" case a git
	tree holding them as commits; its base is not the tarball's build,
	so it gets its own work dir, and the shared one is not rebuilt back
	and forth. A "fresh_workdir" case's own work dir is made new."""
	if case.get('fresh_workdir'):
		own = workdir + '-' + case['name']
		shutil.rmtree(own, ignore_errors=True)
		return own, [os.path.join(REPO, case['patch'])]
	if 'commits' not in case:
		return workdir, [os.path.join(REPO, case['patch'])]
	own = workdir + '-' + case['name']
	print('+ git tree for %s' % case['name'], flush=True)
	tree = git_fixture.git_tree(os.path.join(own, 'git-tree'),
				    case['commits'])
	return own, ['--kernel-src', tree, '--commits', 'kshim-base..HEAD']


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
		workdir, args = inputs(case, a.workdir)
		cmd = [os.path.join(REPO, 'kshim'), 'prevalidate', '--workdir',
		       workdir, '--out', out] + args + case.get('args', [])
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
		bad = check(case, r.returncode, first, rep, secs)
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
