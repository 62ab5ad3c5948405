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
# A mutant's run gets the larger of FACTOR x the CPU time of the base run
# and MIN_S seconds of CPU; over it, the run is a hang (killed, and said
# so). CPU time, not wall time: on the shared 2-core machine (load 8-10)
# a 10 s wall budget called a slow run of a mutant that finishes a hang
# in one run and not in the next. The wall limit is for a run that sleeps
# instead of spinning.
BUDGET_FACTOR = 5
BUDGET_MIN_S = 10
WALL_FACTOR = 20
WALL_MIN_S = 120
CLK_TCK = os.sysconf('SC_CLK_TCK')


def budget(base):
	"""(CPU, wall) seconds of a run whose base run was BASE (dict with
	cpu and seconds)."""
	return (max(BUDGET_FACTOR * base.get('cpu', base['seconds']),
		    BUDGET_MIN_S),
		max(WALL_FACTOR * base['seconds'], WALL_MIN_S))


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


def cpu_seconds(pid):
	"""CPU time of process PID and its reaped children so far (0 once
	it is gone)."""
	try:
		with open('/proc/%d/stat' % pid) as f:
			w = f.read().rsplit(')', 1)[1].split()
	except (OSError, IndexError):
		return 0.0
	return sum(int(x) for x in w[11:15]) / CLK_TCK


def run_one(t, seed, bd, limit, binary=None, scratch=None):
	"""Run test T once at SEED; dict(status: pass|fail|hang|skip,
	seconds, cpu, failed: [CUnit tests], tail: last output lines).

	LIMIT is (cpu, wall) seconds. The hang budget is on CPU time: the
	machine may be shared, and a det run that takes longer on a loaded
	machine uses no more CPU, while a det run that loops uses CPU as fast
	as it is given. The wall limit only catches a run that sleeps."""
	cpu_limit, wall_limit = limit
	env = dict(os.environ)
	env.pop('KSHIM_SEEDS', None)
	env.update(t.get('env') or {})
	env['KSHIM_SEED'] = str(seed)
	tmp = tempfile.mkdtemp(prefix='run-', dir=scratch)
	env['TMPDIR'] = tmp
	if 'KSHIM_SCENARIO_OUT' in env:
		env['KSHIM_SCENARIO_OUT'] = tmp
	rec = tempfile.TemporaryFile(dir=tmp)
	out = tempfile.TemporaryFile(dir=tmp)
	env['KSHIM_RESULTS_FD'] = str(rec.fileno())
	t0 = time.monotonic()
	p = subprocess.Popen(argv_of(t, binary), cwd=t.get('workdir') or bd,
			     env=env, stdout=out, stderr=subprocess.STDOUT,
			     pass_fds=(rec.fileno(),), start_new_session=True)
	status, cpu = None, 0.0
	while status is None:
		pid, st, ru = os.wait4(p.pid, os.WNOHANG)
		if pid:
			p.returncode = os.waitstatus_to_exitcode(st)
			cpu = ru.ru_utime + ru.ru_stime
			status = 'pass' if p.returncode == 0 else \
				'skip' if p.returncode == 77 else 'fail'
			break
		cpu = max(cpu, cpu_seconds(p.pid))
		if cpu > cpu_limit or time.monotonic() - t0 > wall_limit:
			for sig in (signal.SIGTERM, signal.SIGKILL):
				try:
					os.killpg(p.pid, sig)
				except ProcessLookupError:
					break
				time.sleep(0.2)
			p.wait()
			status = 'hang'
			break
		time.sleep(0.1)
	seconds = time.monotonic() - t0
	rec.seek(0)
	got = parse_records(rec.read().decode(errors='replace'))
	rec.close()
	out.seek(0)
	text = out.read().decode(errors='replace')
	out.close()
	subprocess.run(['rm', '-rf', tmp])
	return dict(status=status, seconds=seconds, cpu=cpu,
		    failed=got['failed'], returncode=p.returncode,
		    tail=[l for l in text.splitlines() if l.strip()][-6:])
