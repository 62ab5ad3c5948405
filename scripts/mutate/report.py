# SPDX-License-Identifier: GPL-2.0
"""kshim mutate: the score table on the terminal, mutate.md and
mutate.json.

Score = killed (hangs included) / (killed + survived): mutants that did
not build, that the compiler proved equivalent, or that the equivalents
file lists, are counted apart and not in the score.
"""

import json
import os

import scripts

COLUMNS = ('mutants', 'killed', 'hang', 'survived', 'not reached',
	   'not built', 'equivalent', 'listed')


def tally(ms):
	c = dict.fromkeys(COLUMNS, 0)
	for m in ms:
		c['mutants'] += 1
		s = m['status']
		if s in ('killed', 'hang'):
			c['killed'] += 1
			c['hang'] += s == 'hang'
		elif s == 'survived':
			c['survived'] += 1
			c['not reached'] += m.get('why') == 'no test reaches it'
		elif s == 'not built':
			c['not built'] += 1
		elif s == 'equivalent':
			c['equivalent'] += 1
		elif s == 'listed equivalent':
			c['listed'] += 1
	judged = c['killed'] + c['survived']
	c['score'] = 100.0 * c['killed'] / judged if judged else None
	return c


def rows(res):
	"""[(name, tally)]: per function, then the file."""
	by = {}
	for m in res['mutants']:
		by.setdefault(m['function'], []).append(m)
	out = [(f, tally(by[f])) for f in sorted(by)]
	out.append((res['file'], tally(res['mutants'])))
	return out


def score(c):
	return '%.0f%%' % c['score'] if c['score'] is not None else '-'


def table(res, md=False):
	head = ('function',) + COLUMNS + ('score',)
	body = [(n,) + tuple(str(c[k]) for k in COLUMNS) + (score(c),)
		for n, c in rows(res)]
	if md:
		lines = ['| ' + ' | '.join(head) + ' |',
			 '|' + '---|' * len(head)]
		lines += ['| ' + ' | '.join(r) + ' |' for r in body]
		return '\n'.join(lines)
	w = [max(len(r[i]) for r in [head] + body) for i in range(len(head))]
	return '\n'.join('  ' + '  '.join(
		(r[i].ljust(w[i]) if i == 0 else r[i].rjust(w[i]))
		for i in range(len(head))) for r in [head] + body)


def killed_line(m):
	how = 'killed' if m['status'] == 'killed' else \
		'HANG (over its CPU time budget; counted as killed)'
	cu = ', '.join(m.get('cunit') or []) or 'exit status'
	return '%s by %s seed %s (%s)' % (how, m['test'], m['seed'], cu)


def figures(res):
	ph = res['phases']
	out = ['mutants run: %d in %.0f s with %d job(s): %s mutants/min' % (
		res['mutants_run'], ph.get('mutants', 0), res['jobs'],
		'%.1f' % res['rate_per_min'] if res['rate_per_min'] is not None
		else '-')]
	out.append('machine load (1, 5, 15 min) at the end: %.1f %.1f %.1f; '
		   'cores: %d' % (tuple(res['loadavg']) + (os.cpu_count(),)))
	out.append('phases: ' + ', '.join('%s %.0f s' % kv
					 for kv in ph.items()))
	return out


def survivors(res):
	return [m for m in res['mutants'] if m['status'] == 'survived']


def terminal(res):
	print('kshim mutate: %s: %d mutants (%d generated; %d more in #if '
	      'branches the build does not compile), seeds 1..%d, %d test(s) '
	      'reach them' % (res['file'], len(res['mutants']),
			      res['generated'], res['inactive'], res['seeds'],
			      len(res['tests_used'])))
	if res['base_failures']:
		print('tests failing on base at some seed (those seeds not '
		      'used): %s' % ', '.join(
			      '%s %s' % kv for kv in
			      sorted(res['base_failures'].items())))
	print()
	print(table(res))
	print()
	for m in res['mutants']:
		s = m['status']
		what = killed_line(m) if s in ('killed', 'hang') else \
			'SURVIVED' + (': %s' % m['why'] if m.get('why') else
				      ' %d run(s)' % m.get('runs', 0)) \
			if s == 'survived' else \
			s + (': %s' % m['why'] if m.get('why') else '')
		print('  #%-3d %s %s:%d %-9s %-32s %s' % (
			m['id'], m['hash'], m['function'], m['line'],
			m['operator'], m['description'][:32], what))
	for line in figures(res):
		print(line)


def markdown(res):
	out = ['# kshim mutate: %s' % res['file'], '',
	       '`%s`' % res['command'], '',
	       'Kernel manifest sha256 %s; seeds 1..%d; %d mutants of %d '
	       'generated (%d more in `#if` branches the build does not '
	       'compile).' % (res['manifest_sha256'], res['seeds'],
			      len(res['mutants']), res['generated'],
			      res['inactive']), '',
	       table(res, md=True), '']
	out += ['- ' + l for l in figures(res)]
	out += ['', '## Surviving mutants', '']
	sv = survivors(res)
	if not sv:
		out.append('None.')
	for m in sv:
		out += ['### #%d %s `%s` line %d: %s (%s)' % (
			m['id'], m['hash'], m['function'], m['line'],
			m['description'], m.get('why') or 'tests: ' +
			', '.join(m.get('tests') or [])), '']
		if m.get('cunit_tests'):
			out += ['CUnit tests that ran it and passed: ' +
				', '.join('`%s`' % u for u in
					  m['cunit_tests']), '']
		out += ['```diff', m['diff'].rstrip('\n'), '```', '']
	out += ['## Every mutant', '',
		'| # | hash | function | line | operator | change | verdict |',
		'|---|---|---|---|---|---|---|']
	for m in res['mutants']:
		v = killed_line(m) if m['status'] in ('killed', 'hang') else \
			m['status'] + (': ' + m['why'] if m.get('why') else '')
		out.append('| %d | %s | %s | %d | %s | %s | %s |' % (
			m['id'], m['hash'], m['function'], m['line'],
			m['operator'], m['description'].replace('|', '\\|'),
			v.replace('|', '\\|').replace('\n', ' ')))
	return '\n'.join(out) + '\n'


def write(res, out_dir):
	os.makedirs(out_dir, exist_ok=True)
	res['score'] = {n: c for n, c in rows(res)}
	md = os.path.join(out_dir, 'mutate.md')
	js = os.path.join(out_dir, 'mutate.json')
	with open(md, 'w') as f:
		f.write(markdown(res))
	with open(js, 'w') as f:
		json.dump(res, f, indent=1)
	terminal(res)
	print('report: %s, %s' % (os.path.relpath(md, scripts.REPO),
				  os.path.relpath(js, scripts.REPO)))
	return 0
