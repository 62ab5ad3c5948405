# SPDX-License-Identifier: GPL-2.0
"""kshim prevalidate: the report, three ways from one result dict.

The terminal gets the verdict first and at most TERM_ROWS changed figures
per scenario; report.md has every changed figure; report.json has all of
the result, for scripts (tests/prevalidate/ reads it).
"""

import json
import os

from scripts import REPO
from scripts.prevalidate import compare as cmp
from scripts.prevalidate.sanitizers import new_reports

TERM_ROWS = 12
TERM_FILES = 8


def rel(p):
	r = os.path.relpath(p, REPO)
	return p if r.startswith('..') else r


def some(names, cap=12):
	"""NAMES, the first CAP of them and how many more."""
	return ', '.join(names[:cap]) + (
		' and %d more' % (len(names) - cap) if len(names) > cap else '')


def base_reuse_text(rerun):
	"""How much of the base side ran (base_results.cached()'s RERUN)."""
	if rerun is None:
		return ''
	if not rerun:
		return '; base results reused (build and options unchanged)'
	return '; base results reused but for %d test(s) whose files ' \
		'changed: %s' % (len(rerun), some(rerun))


def fmt(v):
	if isinstance(v, float):
		return '%.6g' % v
	return str(v)


def fmt_pct(p):
	if p is None:
		return ''
	if p == float('inf'):
		return 'new'
	return '%+.1f%%' % p


def spread(e, side):
	m, lo, hi = (e['%s_%s' % (side, k)] for k in ('median', 'min', 'max'))
	return fmt(m) if lo == hi else '%s [%s-%s]' % (fmt(m), fmt(lo), fmt(hi))


def headline(res):
	t = res['tests']
	san = new_reports(res)
	if res['verdict'] == 'regression' and not t['regressions'] and \
	   not san:
		# --per-commit: the series ends clean, a commit inside it not.
		bad = [i + 1 for i, r in enumerate(res.get('per_commit', []))
		       if r.get('could_not_run') or r['regressions']]
		return 'REGRESSION inside the series (commit %s); the whole ' \
			'series is clean' % ', '.join(map(str, bad))
	if res['verdict'] == 'regression':
		parts = []
		if t['regressions']:
			parts.append('%d test(s) pass on base and fail patched: '
				     '%s' % (len(t['regressions']), ', '.join(
					     r['name'] + (' (HANG: over budget)'
							  if r.get('hang') else '')
					     for r in t['regressions'])))
		if san:
			parts.append('%d new sanitizer report(s): %s' % (
				len(san), ', '.join('%s (%s)' % (r['name'], k)
						    for k, r in san)))
		return 'REGRESSION: ' + '; '.join(parts)
	san_ok = '; no new sanitizer report' if 'sanitizers' in res else ''
	if res['verdict'] == 'untested':
		return 'UNTESTED: %s%s (nothing failed, but nothing checked the ' \
			'change either)' % (res.get('verdict_reason') or '?',
					    san_ok)
	return 'clean: tests executed the change and passed; %s%s' % (
		cmp.behaviour_text(res.get('behaviour')), san_ok)


def sanitizer_lines(res, md, h):
	"""--sanitizers: what each sanitizer build ran and its new and
	pre-existing reports."""
	out = []
	if not res.get('sanitizers'):
		return out
	out += h('Sanitizers (patched tree; a test failing there is re-run '
		 'on a base build with the same sanitizer)')
	for kind, s in res['sanitizers'].items():
		li = '- ' if md else '  '
		if s['status'] != 'ran':
			out.append('%s%s (%s): not run: %s' % (li, kind, s['name'],
							     s['reason']))
			continue
		out.append('%s%s (%s): %d tests on patched (suites %s left '
			   'out), %d failed: %d new report(s), %d pre-existing%s'
			   % (li, kind, s['name'], s['tests'],
			      ', '.join(s['excluded_suites']), len(s['failed']),
			      len(s['regressions']), len(s['pre_existing']),
			      '; run under setarch -R (ASLR)' if s.get('no_aslr')
			      else ''))
	for kind, s in res['sanitizers'].items():
		for what, rows in (('new report', s['regressions']),
				   ('pre-existing', s['pre_existing'])):
			for r in rows:
				out.append('%s%s %s: %s [%s]: %s on patched, %s on '
					   'base%s' % ('### ' if md else '  ', kind,
						       what, r['name'],
						       ' '.join(r['suites']),
						       r['patched'], r['base'],
						       '; ' + r['rerun'] if
						       r.get('rerun') else ''))
				out.append('%s%s' % ('' if md else '    ',
						     r['summary']))
				if what != 'new report':
					continue
				out += ['', '```'] if md else []
				out += [('' if md else '    | ') + l
					for l in r['report'].splitlines()]
				out += ['```', ''] if md else []
	return out


def patch_files(files, md):
	"""The files a patch touches, those kshim does not compile marked;
	on a terminal a long list (a stable update) is cut to those."""
	unused = [f['file'] for f in files if not f['compiled']]
	if md or len(files) <= TERM_FILES:
		return ', '.join('%s%s' % (f['file'], '' if f['compiled'] else
					   ' (NOT compiled by kshim: no test '
					   'sees it)') for f in files)
	return '%d files, %d compiled or included by kshim%s (list in ' \
		'report.md)' % (len(files), len(files) - len(unused),
				'; NOT compiled, no test sees them: ' +
				', '.join(unused) if unused else '')


def table(rows, header):
	"""Markdown-ish table; the terminal gets the same text."""
	w = [max(len(str(r[i])) for r in rows + [header])
	     for i in range(len(header))]
	line = lambda r: '| ' + ' | '.join(str(c).ljust(w[i])
					    for i, c in enumerate(r)) + ' |'
	return [line(header), '|' + '|'.join('-' * (x + 2) for x in w) + '|'] \
		+ [line(r) for r in rows]


def coverage_lines(res, md, h):
	"""Per file the patches touch: the tests that ran it and the changed
	lines they covered, or why that is not known."""
	cov = res.get('coverage')
	out = h('Coverage of the patch (gcov on the patched build)')
	if cov is None:
		return out + ['%snot measured (--no-coverage)'
			      % ('' if md else '  ')]
	for e in cov['files']:
		pre = '- ' if md else '  '
		st = e['status']
		if st == 'not compiled':
			out.append('%s%s: NOT compiled by kshim: no test runs it'
				   % (pre, e['file']))
			continue
		if st != 'measured':
			out.append('%s%s: %s' % (pre, e['file'], st))
			continue
		ran = ', '.join(e['exercised_by']) or 'no test'
		if not e['executable']:
			what = 'no executable line changed (%d changed line%s, ' \
				'none with code: comments, blank lines, ' \
				'declarations)' % (e['changed'],
						   '' if e['changed'] == 1
						   else 's')
		else:
			what = 'changed lines covered %d of %d' % (
				e['covered'], e['executable'])
			if e.get('after_deletion'):
				what += ' (%d of them the line after a ' \
					'deletion)' % e['after_deletion']
			if e['uncovered_total']:
				what += ' (uncovered: %s%s)' % (
					', '.join(str(u['line'])
						  for u in e['uncovered']),
					', ...' if e['uncovered_total'] >
					len(e['uncovered']) else '')
		if e.get('not_located'):
			what += '; %d changed line(s) not found in the ' \
				'patched file (a later patch changed them)' \
				% e['not_located']
		out.append('%s%s: exercised by %s; %s' % (pre, e['file'], ran,
							  what))
		for ln in e.get('lines', []):
			out.append('%s%6d: %s' % ('    ' if md else '      ',
						   ln['line'], ln['text']))
			out.append('%s%s' % ('        ' if md else '          ',
					     'executed by ' + ', '.join(
						     '%s %dx' % kv for kv in
						     ln['tests'].items())
					     if ln['tests'] else
					     'executed by no test'))
		if len(e.get('lines', [])) < e['executable']:
			out.append('%s... %d more changed line(s) in report.json'
				   % ('    ' if md else '      ',
				      e['executable'] - len(e['lines'])))
	return out


def lines(res, md):
	t = res['tests']
	out = []
	h = (lambda s: ['', '## ' + s, '']) if md else \
		(lambda s: ['', s.upper()])
	out.append(('# kshim prevalidate: ' if md else 'kshim prevalidate: ')
		   + headline(res))
	out.append('')
	ser = res.get('series')
	if ser:
		out.append('%scommits %s: %d, on the tree at %s%s' % (
			'- ' if md else '', ser['range'], len(ser['commits']),
			ser['base'][:12], '; %d merge commit(s) not applied '
			'(git format-patch skips them)' % ser['merges']
			if ser['merges'] else ''))
	for p in res['patches']:
		out.append('%spatch %s%s: %s' % (
			'- ' if md else '', rel(p['path']),
			' (a -p%d patch, applied as %s)' % (
				p['level'], rel(p['applied']))
			if p.get('level', 1) != 1 else '',
			patch_files(p['files'], md)))
	k = res['kernel']
	out.append('%skernel: Linux %s from %s; manifest sha256 base %s, '
		   'patched %s' % ('- ' if md else '', k['version'], k['source'],
				   (k['combined_sha256_base'] or '?')[:16],
				   (k['combined_sha256_patched'] or '?')[:16]))
	out.append('%sdeterministic tests: seeds 1..%d on both sides; '
		   'scenarios: %d run(s) per side%s' % (
			   '- ' if md else '', res['seeds'], res['repeat'],
			   base_reuse_text(res['base_rerun'])))
	if res.get('only'):
		out.append('%sonly these tests, on both sides (--only): %s' % (
			'- ' if md else '', ', '.join(res['only'])))
	sel = res.get('selection')
	if sel:
		if sel['run'] is None:
			out.append('%s--select: %s' % ('- ' if md else '',
						       sel['why']))
		else:
			out.append('%s--select: ran %d test(s) on the patched '
				   'side, %s; skipped %d that did not: %s' % (
					   '- ' if md else '', len(sel['run']),
					   sel['why'], len(sel['skipped']),
					   some(sel['skipped'])))
	same = res.get('same_program')
	if same:
		out.append('%snot run on the patched side: %d test(s) whose '
			   'programs the patch left byte for byte the base\'s '
			   '(kshim\'s own tool tests among them); their base '
			   'results stand for both sides: %s' % (
				   '- ' if md else '', len(same), some(same)))
	if res.get('device'):
		out.append('%severy device: KSHIM_DEVICE=%s (--device), on '
			   'both sides' % ('- ' if md else '', res['device']))
	n = res['tests']['passed'] + sum(len(t[k]) for k in (
		'regressions', 'pre_existing', 'fixed', 'findings'))
	out.append('%stests: %d compared: %d pass on both, %d regression(s), '
		   '%d pre-existing, %d fixed, %d finding(s) changed' % (
			   '- ' if md else '', n, t['passed'],
			   len(t['regressions']), len(t['pre_existing']),
			   len(t['fixed']), len(t['findings'])))

	if t['regressions']:
		out += h('Regressions (pass on base, fail on patched)')
		for r in t['regressions']:
			out.append('%s%s [%s]: %s on patched, %s on base%s' % (
				'### ' if md else '  ', r['name'],
				' '.join(r['suites']), r['patched'], r['base'],
				'; ' + r['rerun'] if r.get('rerun') else ''))
			li = '' if md else '    '
			c = r.get('cases')
			if c:
				out.append('%sfails on patched, passes on base: %s'
					   % (li, cmp.cases_text(c['regressions'])))
				if c['pre_existing']:
					out.append('%salso failing, on base too (not '
						   'blamed): %s' % (li, cmp.cases_text(
							   c['pre_existing'])))
			if r.get('hang'):
				out.append('%sHANG: over its time budget: %s' % (
					li, r['hang']))
			for x in r.get('replays', []):
				out.append('%sreplay %s at %s: %s' % (
					li, x['test'], x['key'], x['status']))
				out.append('%s  %s' % (li, x['line']))
			if r.get('replay') and not r.get('replays'):
				out.append('%sreplay: %s' % (li, r['replay']))
			if r.get('replay_note'):
				out.append('%s%s' % (li, r['replay_note']))
			out += ['', '```'] if md else []
			out += [('' if md else '    | ') + l
				for l in r['tail'].splitlines()]
			out += ['```', ''] if md else []
	if t['pre_existing']:
		out += h('Pre-existing (fail on both; not blamed on the patch)')
		for r in t['pre_existing']:
			c = r.get('cases')
			out.append('%s%s [%s]: %s' % (
				'- ' if md else '  ', r['name'],
				' '.join(r['suites']),
				'fail on both at the same seed: %s' %
				cmp.cases_text(c['pre_existing']) if c and
				c['pre_existing'] else
				'%s on patched, passed on its re-run; %s' % (
					r['patched'], r['base_flaky'])
				if r.get('base_flaky') else
				'%s on base, %s on patched'
				% (r['base'], r['patched'])))
			if c and c['not_compared']:
				out.append('%s  not compared (the base run stopped '
					   'before them): %s' % (
						   '' if md else '  ',
						   cmp.cases_text(c['not_compared'])))
	if t['fixed']:
		out += h('Fixed (fail on base, pass on patched)')
		out += ['%s%s' % ('- ' if md else '  ', r['name'])
			for r in t['fixed']]
	if t['findings']:
		out += h('Findings that changed (expected failures; a change '
			 'is worth a look, not a regression by itself)')
		for r in t['findings']:
			out.append('%s%s: %s (test result base %s, patched %s)'
				   % ('- ' if md else '  ', r['name'], r['note'],
				      r['base'], r['patched']))
	for k, what in (('only_base', 'only on base'),
			('only_patched', 'only on patched'),
			('skipped', 'skipped on one side')):
		if t[k]:
			out.append('%snote: tests %s: %s' % (
				'- ' if md else '  ', what,
				', '.join(x if isinstance(x, str) else x['name']
					  for x in t[k])))

	out += sanitizer_lines(res, md, h)
	out += coverage_lines(res, md, h)
	if res['scenarios']:
		out += h('Scenarios (base against patched)')
		out.append('Deterministic figures (virtual time, counts) are '
			   'compared exactly. Timings (real_*): %s' %
			   res['timing_rule'])
	left = [n for n, s in res['scenarios'].items()
		if s.get('not_run_patched')]
	if left:
		out.append('%sNot run on the patched side (--select left out '
			   'the tests that write them): %s' % (
				   '' if md else '  ', ', '.join(left)))
	for name, s in res['scenarios'].items():
		if s.get('not_run_patched'):
			continue
		nb, np = s['runs']
		out.append('')
		out.append('%s%s: %d figures compared, %d deterministic '
			   'changed (runs: base %d, patched %d)' % (
				   '### ' if md else '  ', name, s['compared'],
				   len(s['exact']), nb, np))
		if not nb or not np:
			out.append('  no JSON from the %s side (the scenario '
				   'failed before writing it?)' %
				   ('base' if not nb else 'patched'))
			continue
		rows = [(e['metric'], fmt(e['base']), fmt(e['patched']),
			 fmt_pct(e['pct'])) for e in s['exact']]
		if rows:
			shown = rows if md else rows[:TERM_ROWS]
			out += [''] if md else []
			out += [('' if md else '    ') + l for l in
				table(shown, ('figure', 'base', 'patched',
					      'change'))]
			if len(shown) < len(rows):
				out.append('    ... %d more in report.md'
					   % (len(rows) - len(shown)))
		trows = [(e['metric'], spread(e, 'base'), spread(e, 'patched'),
			  fmt_pct(e['pct']), e['verdict'])
			 for e in s['timing']]
		judged = [e for e in s['timing']
			  if not e['verdict'].startswith('not judged')]
		if trows and not judged and not md:
			out.append('    %d real-time figures not judged: %d run '
				   'per side (--repeat %d for a verdict); '
				   'values in report.md' % (
					   len(trows), min(nb, np),
					   cmp.MIN_TIMING_REPEATS))
		elif trows:
			out += [''] if md else []
			out += [('' if md else '    ') + l for l in
				table(trows, ('timing', 'base median [min-max]',
					      'patched median [min-max]',
					      'change', 'verdict'))]
		for u in s['unstable']:
			out.append('  note: %s differs between repeats on the %s '
				   'side: %s' % (u['metric'], u['side'],
						 u['values']))

	if res.get('plots'):
		out += h('Plots (base and patched overlaid)')
		for name, png in sorted(res['plots'].items()):
			out.append('%s%s: %s' % ('- ' if md else '  ', name,
						 rel(png) if png.startswith('/')
						 else png))

	if res.get('per_commit'):
		out += per_commit_lines(res['series'], res['per_commit'], md)

	out += h('Time')
	out.append(', '.join('%s %.0f s' % (k, v)
			     for k, v in res['phases'].items()))
	out.append('build steps: base %(base)d, patched %(patched)d'
		   % res['build_steps'] + (
			   ' (of its objects, %d the same as the base\'s: '
			   'copied when ninja had to make them)'
			   % res['reusable_objects']
			   if res.get('reusable_objects') else ''))
	if res.get('builddirs'):
		out.append('base side: %s, shared by every work dir that '
			   'tests this kernel source' % rel(os.path.dirname(
				   res['builddirs']['base'])))
	out.append('')
	out.append('verdict: %s (exit %d); report: %s, %s' % (
		res['verdict'], res['exit_status'],
		rel(os.path.join(res['out_dir'], 'report.md')),
		rel(os.path.join(res['out_dir'], 'report.json'))))
	return out


def verdict_of(row):
	if row.get('could_not_run'):
		return 'could not run: ' + row['could_not_run']
	if row['regressions']:
		return 'REGRESSION: ' + ', '.join(row['regressions'])
	return row.get('verdict') or 'clean'


def per_commit_lines(ser, rows, md):
	"""The per-commit results: commit k is base + commits 1..k."""
	out = ['', '## Per commit' if md else 'PER COMMIT', '']
	out.append('Each row is the base with the commits up to and '
		   'including that one applied.')
	out.append('')
	first_bad = next((r for r in rows if r.get('could_not_run') or
			  r['regressions']), None)
	for i, r in enumerate(rows):
		c = ser['commits'][i]
		out.append('%s%2d %s %s: %s%s' % (
			'- ' if md else '  ', i + 1, c['sha'][:12],
			c['subject'][:60], verdict_of(r),
			' (report: %s)' % rel(r['report']) if r.get('report')
			else ''))
	out.append('')
	if first_bad:
		c = ser['commits'][rows.index(first_bad)]
		out.append('first bad commit: %s %s' % (c['sha'][:12],
						      c['subject']))
	else:
		out.append('every commit of the series is clean')
	return out


def write(res, terminal=True):
	if terminal:
		print('\n'.join(lines(res, md=False)), flush=True)
	with open(os.path.join(res['out_dir'], 'report.md'), 'w') as f:
		f.write('\n'.join(lines(res, md=True)) + '\n')

	def default(o):
		return str(o)
	with open(os.path.join(res['out_dir'], 'report.json'), 'w') as f:
		json.dump(res, f, indent=1, default=default)
		f.write('\n')
