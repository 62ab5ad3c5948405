# SPDX-License-Identifier: GPL-2.0
"""kshim mutate: the tests a mutant is judged by, and running one.

The tests are the base build's deterministic-backend tests that run a
compiled binary (meson introspect: KSHIM_BACKEND=det, not a python
wrapper), outside the suites that expect failures (finding, detect) or run
kshim itself (prevalidate). Their parallel-backend twins run the same
test code on host threads, which no seed replays, so a mutant's verdict
would change from run to run.

A test with a seed of its own in its environment (the scenarios, the
256-task fsstress run) runs at that seed; the others sweep KSHIM_SEED
1..--seeds, one process per seed, the same seeds for every mutant, and
stop at the first failure (the mutant is killed).
"""

import os
import signal
import subprocess
import tempfile
import time

from scripts.prevalidate.compare import parse_records
from scripts.prevalidate.main import replay_parts

SKIP_SUITES = {'finding', 'detect', 'prevalidate'}
# A mutant's run gets the larger of FACTOR x the base run and MIN_S
# seconds; over it, the run is a hang (killed, and said so).
BUDGET_FACTOR = 5
BUDGET_MIN_S = 10


def budget(base_seconds):
	return max(BUDGET_FACTOR * base_seconds, BUDGET_MIN_S)


def suites(t):
	return {s.split(':')[-1] for s in t.get('suite') or []}


def candidates(intro):
	"""The det tests of meson introspect INTRO that mutate may run."""
	out = []
	for t in intro:
		env = t.get('env') or {}
		if env.get('KSHIM_BACKEND') != 'det' or \
		   suites(t) & SKIP_SUITES:
			continue
		if os.path.basename(t['cmd'][0]).startswith('python'):
			continue
		out.append(t)
	return out


def seeds_of(t, n):
	"""The seeds test T runs at: its own, or 1..N."""
	own = (t.get('env') or {}).get('KSHIM_SEED')
	return [int(own)] if own else list(range(1, n + 1))


def argv_of(t, binary=None):
	"""T's command without its --seeds N (a seed is given per run, as
	prevalidate's replay line does), its binary replaced by BINARY."""
	cmd = replay_parts(t, 0)[1]
	if binary:
		cmd[0] = binary
	return cmd


def run_one(t, seed, bd, limit, binary=None, scratch=None):
	"""Run test T once at SEED; dict(status: pass|fail|hang|skip,
	seconds, failed: [CUnit tests], tail: last output lines)."""
	env = dict(os.environ)
	env.pop('KSHIM_SEEDS', None)
	env.update(t.get('env') or {})
	env['KSHIM_SEED'] = str(seed)
	tmp = tempfile.mkdtemp(prefix='run-', dir=scratch)
	env['TMPDIR'] = tmp
	if 'KSHIM_SCENARIO_OUT' in env:
		env['KSHIM_SCENARIO_OUT'] = tmp
	rec = tempfile.TemporaryFile(dir=tmp)
	env['KSHIM_RESULTS_FD'] = str(rec.fileno())
	t0 = time.monotonic()
	p = subprocess.Popen(argv_of(t, binary), cwd=t.get('workdir') or bd,
			     env=env, stdout=subprocess.PIPE,
			     stderr=subprocess.STDOUT, pass_fds=(rec.fileno(),),
			     start_new_session=True)
	try:
		out, _ = p.communicate(timeout=limit)
		status = 'pass' if p.returncode == 0 else \
			'skip' if p.returncode == 77 else 'fail'
	except subprocess.TimeoutExpired:
		for sig in (signal.SIGTERM, signal.SIGKILL):
			try:
				os.killpg(p.pid, sig)
			except ProcessLookupError:
				break
			time.sleep(0.2)
		out, _ = p.communicate()
		status = 'hang'
	seconds = time.monotonic() - t0
	rec.seek(0)
	got = parse_records(rec.read().decode(errors='replace'))
	rec.close()
	subprocess.run(['rm', '-rf', tmp])
	text = out.decode(errors='replace')
	return dict(status=status, seconds=seconds, failed=got['failed'],
		    returncode=p.returncode,
		    tail=[l for l in text.splitlines() if l.strip()][-6:])
