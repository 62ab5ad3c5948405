# SPDX-License-Identifier: GPL-2.0
"""The base side's results, kept per test in base-results.json of the
base side's directory (base_home.py).

The next run in a kept work dir re-runs on the base side only the tests
whose stamp moved. A test's stamp is what its results depend on: the
options of the run (seeds, kernel, device), its command and environment,
and the size and time of every file it runs. Editing one test, or one
test's source, re-runs that test alone rather than the whole base side
(96 s, measured in session 23). A rebuilt shim or kernel file relinks every binary that has it,
so every test of those binaries re-runs.

The scenario tests re-run together or not at all: the figures they write
are files of the build dir that are not attributed to a test, so the
stored figures are those of one run of one set of scenario tests.

The base tests run through the coverage wrapper, so each test's coverage
is kept (base-gcda) for --select; a test that last ran without it
(--no-coverage) re-runs when --select needs it.
"""

import hashlib
import json
import os
import time

from scripts import REPO
from scripts.prevalidate import coverage as pvcov
from scripts.prevalidate.same_program import arg_files, is_scenario

FILE = 'base-results.json'
# Bump when what is stored changes shape.
VERSION = 5


def run_files(t, bd):
	"""The files test T runs: its arguments that are files (relative ones
	in its working directory, the build dir BD by default), and the
	module of python3 -m scripts.TOOL.MODULE."""
	out = arg_files(t, bd)
	cmd = t['cmd']
	for i, c in enumerate(cmd[:-1]):
		if c == '-m':
			out.append(os.path.join(REPO, *cmd[i + 1].split(
				'.')) + '.py')
	return out


def test_stamp(t, bd, a):
	h = hashlib.sha256()
	h.update(json.dumps([VERSION, a.seeds, a.kernel_src, a.kernel_tarball,
			     a.device, t['name'], t['cmd'],
			     sorted((t.get('env') or {}).items())]).encode())
	for c in run_files(t, bd):
		if os.path.isfile(c):
			st = os.stat(c)
			h.update(('%s %d %d' % (c, st.st_size,
						st.st_mtime_ns)).encode())
	return h.hexdigest()


def load(path):
	try:
		with open(path) as f:
			c = json.load(f)
	except (OSError, ValueError):
		return None
	return c if c.get('version') == VERSION else None


def to_rerun(c, intro, wanted, stamps, need_gcda):
	"""The tests of WANTED whose stored results cannot be used; None when
	the whole base side is to run (nothing stored, or the tests it would
	run are not known)."""
	if c is None or wanted is None and c['every'] is None:
		return None
	names = sorted(wanted if wanted is not None else c['every'])
	stale = [n for n in names
		 if n not in c['tests'] or c['stamps'].get(n) != stamps.get(n)
		 or need_gcda and n not in c['covered']]
	scen = sorted(n for n in names if is_scenario(intro[n]))
	if scen != sorted(c['scenario_tests']) or set(stale) & set(scen):
		stale = sorted(set(stale) | set(scen))
	return stale


def view(c, wanted, by_name):
	"""C's results of the tests WANTED (None: the last full run's)."""
	wanted = set(wanted or c['every'] or c['tests'])
	scen = sorted(n for n in wanted if is_scenario(by_name[n]))
	return dict(tests={n: e for n, e in c['tests'].items() if n in wanted},
		    scenarios=c['scenarios']
		    if scen == sorted(c['scenario_tests']) else {})


def cached(bd, a, intro, run):
	"""The base side's results, re-running only what is stale.
	INTRO: meson introspect --tests of BD; RUN(names or None, wrap):
	main.run_side(). Returns dict(tests, scenarios, seconds, rerun: the
	tests that ran, None for all of them)."""
	path = os.path.join(a.base_home, FILE)
	by_name = {t['name']: t for t in intro}
	stamps = {n: test_stamp(t, bd, a) for n, t in by_name.items()}
	c = load(path)
	# A test the build has that the last full run did not know: which
	# tests a full run takes is meson's to say.
	if c and c['every'] is not None and sorted(by_name) != c['intro']:
		c['every'] = None
	rerun = to_rerun(c, by_name, a.only or None, stamps, a.select)
	if rerun == []:
		return dict(view(c, a.only, by_name), rerun=[], seconds=0.0)
	t0 = time.monotonic()
	wrap = pvcov.prepare(bd, a.base_home, intro, coverage=a.coverage,
			     name=pvcov.BASE_COVDIR, clear=rerun)
	res = run(rerun if rerun is not None else a.only or None, wrap)
	if rerun is None:
		c = dict(version=VERSION, tests={}, stamps={}, covered=[],
			 scenarios={}, scenario_tests=[], every=None,
			 intro=sorted(by_name))
	ran = sorted(res['tests'])
	for n in rerun or []:
		c['tests'].pop(n, None)
		c['stamps'].pop(n, None)
	c['tests'].update(res['tests'])
	c['stamps'].update({n: stamps[n] for n in ran})
	c['covered'] = sorted((set(c['covered']) - set(rerun or [])) |
			      (set(ran) if a.coverage else set()))
	scen = [n for n in ran if is_scenario(by_name[n])]
	if scen or rerun is None:
		c['scenarios'], c['scenario_tests'] = res['scenarios'], scen
	if rerun is None and not a.only:
		c['every'], c['intro'] = ran, sorted(by_name)
	with open(path + '.tmp', 'w') as f:
		json.dump(c, f)
	os.replace(path + '.tmp', path)
	return dict(view(c, a.only, by_name), rerun=rerun,
		    seconds=time.monotonic() - t0)
