# SPDX-License-Identifier: GPL-2.0
"""The verdicts of a seed sweep run under meson (./kshim test --seeds), per
test binary, CUnit test and seed, read from meson's testlog; and the JUnit
XML file a shard writes of them.

Each binary of the sweep prints, with KSHIM_SWEEP_TESTS=1, a line per
CUnit test and seed, then its seed line (kshim_test_main.c,
print_seed_line()):
	kshim: seed 6 test xfs_log/test_x: pass|fail|stopped
	kshim: seed 6 (det): 12 test(s) run, 1 failed: ...; exit 1; trace hash ...
A test that was "stopped" is the one the run died in (a BUG, a hang
report, a signal): it failed, unless the run exited 77 (skipped).

The JUnit file: a <testsuite> per meson test (the binary and its
backend), a <testcase> per CUnit test and seed, named "SUITE/TEST seed=S",
whose <failure> carries the seed line and the command that replays it.
Every <testsuite> has the properties kshim.shard (K/N) and kshim.seeds
(1..S), which ./kshim junit-merge checks. A meson test that printed no
seed line at all (a timeout, a crash before its sweep began) is one
<testcase> "(sweep)" with an <error>.
"""

import os
import re
import shlex
import xml.etree.ElementTree as ET

import scripts

TEST_LINE = re.compile(r'^kshim: seed (\d+) test (\S+): (pass|fail|stopped)$',
		       re.M)
SEED_LINE = re.compile(r'^kshim: seed (\d+) \(\w+\): .*$', re.M)
EXIT_RE = re.compile(r'; exit (\d+)')
HASH_RE = re.compile(r'; trace hash ([0-9a-f]+)')
# kshim_host.c's not_replayed: what says where a run writes or which
# seeds a sweep takes, not what the run does.
NOT_REPLAYED = ('KSHIM_SEED', 'KSHIM_SEEDS', 'KSHIM_VERBOSE',
		'KSHIM_SCENARIO_OUT', 'KSHIM_SCHEDULE_FILE', 'KSHIM_RESULTS_FD',
		'KSHIM_COV_MAP', 'KSHIM_SHARD', 'KSHIM_SHARD_TOTAL',
		'KSHIM_SWEEP_TESTS')
SWEEP_OPTIONS = ('--seeds', '--shard', '--jobs')


def test_name(entry):
	"""meson's "project:suite1+suite2 / name" -> name."""
	name = entry.get('name', '?')
	return name.split(' / ', 1)[1] if ' / ' in name else name


def entry_env(entry):
	"""meson logs the environment as a dict, or as its repr."""
	env = entry.get('env') or {}
	if isinstance(env, str):
		try:
			import ast
			env = ast.literal_eval(env)
		except (ValueError, SyntaxError):
			env = {}
	return env


def replay_command(entry, seed):
	"""The line that replays SEED of this binary alone, from the
	repository root: its KSHIM_* settings and its arguments, without the
	sweep's."""
	env = entry_env(entry)
	words = sorted('%s=%s' % (k, v) for k, v in env.items()
		       if k.startswith('KSHIM_') and k not in NOT_REPLAYED)
	cmd, skip = [], False
	for i, w in enumerate(entry.get('command') or []):
		if skip:
			skip = False
			continue
		if i and w in SWEEP_OPTIONS:
			skip = True
			continue
		if i and w.split('=', 1)[0] in SWEEP_OPTIONS:
			continue
		if i == 0 and os.path.isabs(w):
			r = os.path.relpath(w, scripts.REPO)
			w = w if r.startswith('..') else r
		cmd.append(w)
	return ' '.join(words + ['KSHIM_SEED=%d' % seed] +
			[shlex.quote(w) for w in cmd])


def verdicts(entries):
	"""[dict(test, case, seed, status, detail, replay, hash)] of the
	meson test log ENTRIES. status: PASS, FAIL, SKIP, or ERROR for a run
	that says nothing of its tests."""
	out = []
	for e in entries:
		test = test_name(e)
		text = (e.get('stdout') or '') + (e.get('stderr') or '')
		seed_lines = {}
		for m in SEED_LINE.finditer(text):
			# The first: a failing seed's replay prints another,
			# without the sweep's "exit N".
			seed_lines.setdefault(int(m.group(1)), m.group(0))
		if not seed_lines and 'has no seed in' in text:
			continue    # a shard with no seed: nothing to report
		if not seed_lines:
			out.append(dict(test=test, case='(sweep)', seed=None,
					status='ERROR', hash=None, replay=None,
					detail='meson: %s (exit %s), and no seed '
					'line: see its log' % (e.get('result'),
							       e.get('returncode'))))
			continue
		named = set()
		for m in TEST_LINE.finditer(text):
			seed, case, what = int(m.group(1)), m.group(2), m.group(3)
			if (seed, case) in named:
				continue    # the replay of a failing seed
			named.add((seed, case))
			line = seed_lines.get(seed, '')
			rc = EXIT_RE.search(line)
			status = {'pass': 'PASS', 'fail': 'FAIL'}.get(what)
			if what == 'stopped':
				status = 'SKIP' if rc and rc.group(1) == '77' \
					else 'FAIL'
			h = HASH_RE.search(line)
			out.append(dict(test=test, case=case, seed=seed,
					status=status, detail=line,
					hash=h.group(1) if h else None,
					replay=replay_command(e, seed)))
		for seed, line in sorted(seed_lines.items()):
			if any(s == seed for s, _ in named):
				continue
			out.append(dict(test=test, case='(run)', seed=seed,
					status='ERROR', detail=line, hash=None,
					replay=replay_command(e, seed)))
	return out


def case_name(v):
	return v['case'] if v['seed'] is None else \
		'%s seed=%d' % (v['case'], v['seed'])


def write_junit(vs, tests, shard, nseeds, path):
	"""The shard's JUnit XML at PATH: verdicts VS of the meson TESTS (a
	<testsuite> each, with the shard's properties, even with no seed)."""
	root = ET.Element('testsuites', name='kshim seed sweep')
	totals = dict(tests=0, failures=0, errors=0, skipped=0)
	for test in sorted(set(tests) | {v['test'] for v in vs}):
		mine = [v for v in vs if v['test'] == test]
		counts = dict(tests=len(mine),
			      failures=sum(v['status'] == 'FAIL' for v in mine),
			      errors=sum(v['status'] == 'ERROR' for v in mine),
			      skipped=sum(v['status'] == 'SKIP' for v in mine))
		ts = ET.SubElement(root, 'testsuite', name=test,
				   **{k: str(c) for k, c in counts.items()})
		props = ET.SubElement(ts, 'properties')
		ET.SubElement(props, 'property', name='kshim.shard',
			      value=str(shard))
		ET.SubElement(props, 'property', name='kshim.seeds',
			      value='1..%d' % nseeds)
		for v in sorted(mine, key=lambda v: (v['seed'] or 0,
						     v['case'])):
			tc = ET.SubElement(ts, 'testcase',
					   classname='kshim.' + test,
					   name=case_name(v))
			tag = {'FAIL': 'failure', 'ERROR': 'error',
			       'SKIP': 'skipped'}.get(v['status'])
			if tag:
				el = ET.SubElement(tc, tag, message=(
					'seed %s: %s' % (v['seed'], v['detail'])
					if v['seed'] is not None else
					v['detail']))
				if v['replay']:
					el.text = 'replay: ' + v['replay']
			if v['replay']:
				ET.SubElement(tc, 'system-out').text = \
					'replay: ' + v['replay'] + (
						'\ntrace hash ' + v['hash']
						if v['hash'] else '')
		for k in totals:
			totals[k] += counts[k]
	for k, c in totals.items():
		root.set(k, str(c))
	ET.indent(root)
	ET.ElementTree(root).write(path, encoding='utf-8',
				   xml_declaration=True)
	return totals
