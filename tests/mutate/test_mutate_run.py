#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""./kshim mutate end to end, on two small functions of mm/list_lru.c
judged by test_list_lru_det alone (--tests: no coverage build), seed 1:
the mutant that counts an isolated item up instead of down is killed,
READ_ONCE made a plain read is equivalent by compiler, every mutant has
a verdict, mutate.json and mutate.md are written and parse. Then bad
input: one line on stderr, exit 2.

Usage: test_mutate_run.py BUILDDIR (a built build dir, only read).
"""

import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
KSHIM = [sys.executable, os.path.join(REPO, 'kshim'), 'mutate']
VERDICTS = {'killed', 'hang', 'survived', 'not built', 'equivalent',
	    'listed equivalent'}


def fail(msg):
	print('FAIL: %s' % msg)
	sys.exit(1)


def check_bad_input(bd, work):
	common = ['--builddir', bd, '--workdir', work]
	cases = [
		(['fs/xfs/xfs_nope.c'], 'not a kernel file kshim compiles'),
		(['mm/list_lru.c', '--function', 'no_such_function'],
		 'no function no_such_function'),
		(['mm/list_lru.c', '--lines', '100000-100001'], 'has'),
		(['mm/list_lru.c', '--lines', '9-3'], 'expected A-B'),
		(['mm/list_lru.c', '--jobs', '0'], '--jobs must be at least 1'),
		(['mm/list_lru.c', '--tests', 'test_list_lru'],
		 'not a det test'),
	]
	for args, want in cases:
		r = subprocess.run(KSHIM + args + common, stdout=subprocess.PIPE,
				   stderr=subprocess.PIPE, text=True)
		err = r.stderr.strip().splitlines()
		if r.returncode != 2 or len(err) != 1 or want not in err[0]:
			fail('%s: exit %d, stderr %r (want exit 2 and one line '
			     'with %r)' % (' '.join(args), r.returncode,
					   r.stderr, want))
		print('ok: %s -> exit 2: %s' % (' '.join(args), err[0]))


def check_run(bd, work):
	out = os.path.join(work, 'report')
	cmd = KSHIM + ['mm/list_lru.c', '--function', 'list_lru_isolate',
		       '--function', 'list_lru_count_one', '--tests',
		       'test_list_lru_det', '--seeds', '1', '--jobs', '1',
		       '--builddir', bd, '--workdir', work, '--out', out]
	print('+ ' + ' '.join(cmd), flush=True)
	r = subprocess.run(cmd, stdout=subprocess.PIPE,
			   stderr=subprocess.STDOUT, text=True)
	print(r.stdout)
	if r.returncode != 0:
		fail('exit %d' % r.returncode)
	with open(os.path.join(out, 'mutate.json')) as f:
		res = json.load(f)
	with open(os.path.join(out, 'mutate.md')) as f:
		md = f.read()
	ms = res['mutants']
	if not ms or any(m['status'] not in VERDICTS for m in ms):
		fail('a mutant without a verdict: %r' % [
			(m['id'], m['status']) for m in ms])
	down = [m for m in ms if m['function'] == 'list_lru_isolate' and
		m['description'] == '-- -> ++']
	if len(down) != 1 or down[0]['status'] != 'killed' or \
	   down[0]['test'] != 'test_list_lru_det' or down[0]['seed'] != 1:
		fail('list_lru_isolate\'s nr_items++ was not killed by '
		     'test_list_lru_det at seed 1: %r' % down)
	once = [m for m in ms if m['description'] ==
		'READ_ONCE -> plain read']
	if len(once) != 1 or once[0]['status'] != 'equivalent':
		fail('READ_ONCE(l->nr_items) made a plain read is not '
		     'equivalent by compiler: %r' % once)
	sc = res['score']['mm/list_lru.c']
	if sc['mutants'] != len(ms) or sc['killed'] < 1:
		fail('the score of the file does not add up: %r' % sc)
	if '| list_lru_isolate |' not in md or \
	   '## Surviving mutants' not in md:
		fail('mutate.md lacks the score table or the survivors')
	print('ok: %d mutants, score %r' % (len(ms), sc))


def main():
	if len(sys.argv) != 2:
		sys.exit('usage: test_mutate_run.py BUILDDIR')
	bd = os.path.abspath(sys.argv[1])
	# A sanitizer or coverage build: its det binaries skip or run
	# under other rules (the TSan build runs the parallel backend
	# only), and the mutants of the default build are what this checks.
	sys.path.insert(0, REPO)
	from scripts.prevalidate.build import build_options
	opts = build_options(bd)
	if opts.get('b_sanitize', 'none') != 'none' or opts.get('b_coverage'):
		print('skipped: %s is a sanitizer or coverage build (b_sanitize '
		      '%s, b_coverage %s); mutate is checked in the default '
		      'build' % (bd, opts.get('b_sanitize'),
				 opts.get('b_coverage')))
		return 77
	with tempfile.TemporaryDirectory(prefix='kshim-mutate-test-') as work:
		check_bad_input(bd, work)
		check_run(bd, work)
	return 0


if __name__ == '__main__':
	sys.exit(main())
