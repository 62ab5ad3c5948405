# SPDX-License-Identifier: GPL-2.0
"""./kshim prevalidate PATCH...: does a kernel patch break something?

Builds the kernel tree as is (base) and with the patches (patched) in two
build directories kept under the work dir and reused, so a second run only
recompiles what changed; runs the test suite and the scenarios on both;
compares (compare.py) and reports (report.py); build.py configures, builds
and runs meson test, for the sanitizer builds (sanitizers.py) too.

Exit status: 0 clean (tests executed the change and passed), 1 a
regression, 2 could not run (the first line on stdout says why), 3
untested (no test can have seen the change: compare.judge()). Progress goes to stderr: one updating line on a
terminal, plain lines otherwise.
"""

import argparse
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

import scripts
from scripts import REPO
from scripts.build import used_files as kuf
from scripts.build.tree import patch_targets
from scripts.plot import common as plot
from scripts.prevalidate import base_home
from scripts.prevalidate import base_results
from scripts.prevalidate import commits
from scripts.prevalidate import compare as cmp
from scripts.prevalidate import coverage as pvcov
from scripts.prevalidate import plevel
from scripts.prevalidate import report
from scripts.prevalidate import reuse
from scripts.prevalidate import same_program
from scripts.prevalidate import sanitizers as pvsan
from scripts.prevalidate.build import (CannotRun, DEFAULT_TARBALL, LOGBASE,
				       build, configure, intro_tests,
				       meson_test, share_extracted_tree,
				       test_targets)
from scripts.shared import test_jobs
from scripts.shared.gcov import remove_gcda

class Progress:
	"""One updating line on a terminal; plain lines (on change, or every
	30 s) elsewhere, so CI logs stay short."""

	def __init__(self, stream=sys.stderr):
		self.s = stream
		self.tty = stream.isatty()
		self.last_plain = ('', 0.0)
		self.t0 = time.monotonic()
		# Which part of a longer run (--per-commit: "commit 2/5: ").
		self.prefix = ''

	def __call__(self, phase, detail=''):
		el = time.monotonic() - self.t0
		phase = self.prefix + phase
		line = '[%4.0fs] %s%s' % (el, phase, ': ' + detail if detail
					  else '')
		if self.tty:
			w = shutil.get_terminal_size((100, 20)).columns - 1
			self.s.write('\r\033[K' + line[:w])
			self.s.flush()
			return
		if phase != self.last_plain[0] or el - self.last_plain[1] >= 30:
			self.s.write(line + '\n')
			self.s.flush()
			self.last_plain = (phase, el)

	def done(self):
		if self.tty:
			self.s.write('\r\033[K')
			self.s.flush()


def scenario_files(bd):
	return sorted(glob.glob(os.path.join(bd, 'tests', '*.json')))


def collect_scenarios(bd, into):
	for path in scenario_files(bd):
		try:
			with open(path) as f:
				into.setdefault(os.path.basename(path),
						[]).append(json.load(f))
		except (OSError, ValueError):
			pass


def plot_scenarios(base, pat, out_dir, progress):
	"""One PNG per scenario file in OUT_DIR, the first run of base and of
	patched overlaid; returns {file: PNG path or why not}."""
	plots = {}
	jdir = os.path.join(out_dir, 'scenarios')
	for name in sorted(set(base) & set(pat)):
		# kshim plot's: the plot of the JSON's "scenario" field.
		if base[name][0].get('scenario') not in plot.KINDS or \
		   not pat[name]:
			continue
		progress('plot', name)
		os.makedirs(jdir, exist_ok=True)
		stem = os.path.splitext(name)[0]
		args = []
		for side, runs in (('base', base[name]), ('patched', pat[name])):
			path = os.path.join(jdir, '%s-%s.json' % (stem, side))
			with open(path, 'w') as f:
				json.dump(runs[0], f)
			args.append('%s:%s' % (path, side))
		png = os.path.join(out_dir, stem + '.png')
		try:
			plot.draw(png, args)
			plots[name] = png
		except scripts.Error as e:
			plots[name] = 'not plotted: %s' % e
	return plots


def test_env(a):
	"""What every test of a run gets: the seeds of the det sweep, and
	--device's KSHIM_DEVICE (kshim_blk_profile.c)."""
	env = dict(os.environ, KSHIM_SEEDS=str(a.seeds))
	if a.device:
		env['KSHIM_DEVICE'] = a.device
	return env


def run_side(side, bd, a, progress, extra=([], {}), names=None):
	"""All tests once (NAMES, or --only's, alone if given), det ones with
	KSHIM_SEEDS=--seeds; returns dict(tests, scenarios, seconds). EXTRA:
	meson test arguments and environment (the coverage wrapper)."""
	t0 = time.monotonic()
	env = dict(test_env(a), **extra[1])
	for path in scenario_files(bd):
		os.unlink(path)
	remove_gcda(bd)
	# Not the 'prevalidate' suite: it runs this command.
	if names is not None and not names:
		return dict(tests={}, scenarios={}, seconds=0.0)
	tests = meson_test(side, bd, env, LOGBASE, progress,
			   ['--no-suite', 'prevalidate'] + test_jobs.args() +
			   extra[0] +
			   (sorted(names) if names is not None else a.only))
	scen = {}
	collect_scenarios(bd, scen)
	return dict(tests=tests, scenarios=scen,
		    seconds=time.monotonic() - t0)


def timing_repeats(bds, a, progress):
	"""--repeat N: the scenarios alone, one at a time, N times per side,
	alternating base and patched so that a change in the machine's load
	falls on both sides alike. The full-suite run does not count: other
	tests ran beside its scenarios."""
	scen = {'base': {}, 'patched': {}}
	for i in range(a.repeat):
		for side in ('base', 'patched'):
			bd = bds[side]
			for path in scenario_files(bd):
				os.unlink(path)
			progress('timing repeat %d/%d, %s' % (i + 1, a.repeat,
							      side))
			meson_test(side, bd, test_env(a), LOGBASE +
				   '-repeat', progress, ['--suite', 'scenario',
							 '--num-processes',
							 '1'] + a.only)
			collect_scenarios(bd, scen[side])
	return scen


def base_phase(rerun):
	"""The base tests' phase name: all run, some, or none."""
	if rerun is None:
		return ''
	return ' (reused)' if not rerun else \
		' (%d re-run, the rest reused)' % len(rerun)


def replay_parts(t, seed, device=None):
	"""(KSHIM_* environment, command) that replay det test T (meson
	introspect) with SEED: its KSHIM_* environment (and --device's
	KSHIM_DEVICE), its binary, no --seeds."""
	env = {k: v for k, v in (t.get('env') or {}).items()
	       if k.startswith('KSHIM_') and k != 'KSHIM_SCENARIO_OUT'}
	if device:
		env['KSHIM_DEVICE'] = device
	env['KSHIM_SEED'] = str(seed)
	cmd, skip = [], False
	for c in t['cmd']:
		if skip or c == '--seeds':
			skip = not skip
			continue
		cmd.append(c)
	return env, cmd


def replay_cmd(t, seed, device=None):
	"""The shell line that replays det test T with SEED."""
	env, cmd = replay_parts(t, seed, device)
	return ' '.join(['%s=%s' % kv for kv in sorted(env.items())] +
			[shlex.quote(c) for c in cmd])


# Det failures replayed per regression row: the first seed of each CUnit
# test that regressed, at most this many.
MAX_REPLAYS = 4


def replay(bd, t, case, sweep_hash, limit, device=None):
	"""Run the line that replays CASE (dict(test, key)) of det test T as
	a user pastes it: its KSHIM_* words alone, nothing else of ours in
	the environment. Returns dict(test, key, line, status, reproduced,
	output); the per-test records (KSHIM_RESULTS_FD) say whether the
	same CUnit test failed again, and the trace hash whether the run
	took the same schedule as in the sweep (SWEEP_HASH, None when the
	sweep's run did not finish)."""
	seed = case['key'].split()[1]
	words, cmd = replay_parts(t, seed, device)
	env = {k: v for k, v in os.environ.items() if not k.startswith('KSHIM_')}
	env.update(words)
	res = dict(test=case['test'], key=case['key'],
		   line=replay_cmd(t, seed, device), reproduced=False,
		   output='')
	with tempfile.TemporaryFile() as rec:
		env['KSHIM_RESULTS_FD'] = str(rec.fileno())
		try:
			r = subprocess.run(cmd, env=env, cwd=bd,
					   pass_fds=(rec.fileno(),),
					   stdout=subprocess.PIPE,
					   stderr=subprocess.STDOUT, text=True,
					   errors='replace', timeout=limit)
		except subprocess.TimeoutExpired as e:
			res['status'] = 'the replay did not finish within %.0f s' \
				% limit
			res['output'] = (e.output or b'').decode(
				errors='replace') if isinstance(
					e.output, bytes) else (e.output or '')
			return res
		except OSError as e:
			res['status'] = 'could not replay: %s' % e
			return res
		rec.seek(0)
		got = cmp.parse_records(rec.read().decode(errors='replace'))
	res['output'] = r.stdout
	res['reproduced'] = case['test'] in got['failed'] or (
		case['test'].startswith('(') and r.returncode not in (0, 77))
	same = sweep_hash and got['hash'] and sweep_hash == got['hash']
	if res['reproduced']:
		res['status'] = 'reproduced by its replay line' + (
			' (same trace hash)' if same else
			'; trace hash %s, the sweep\'s %s: another schedule, so '
			'something outside the seed changed the run' % (
				got['hash'], sweep_hash)
			if sweep_hash and got['hash'] else '')
	else:
		res['status'] = 'DID NOT REPRODUCE: %s failed at %s in the ' \
			'sweep, and its replay line %s%s: something outside the ' \
			'seed changes the run' % (
				case['test'], case['key'],
				'passed' if r.returncode == 0 else
				'failed elsewhere (%s)' % (', '.join(
					got['failed']) or 'exit %d' % r.returncode),
				' (trace hash %s, the sweep\'s %s)' % (
					got['hash'], sweep_hash)
				if sweep_hash and got['hash'] and not same else '')
	return res


# A parallel-backend failure that passed on its re-run is run this many
# times more on base: one failure there makes it a flaky test, not the
# patch's (a 1-in-50 flake still passes 3 base runs most of the time, so
# this catches the frequent ones only; the rest stay regressions, said to
# be intermittent).
BASE_RERUNS = 3


def base_failures(base_bd, home, name, env, progress):
	"""(runs, failed: whether the last failed): NAME run on the base side
	up to BASE_RERUNS times, stopping at its first failure. Its .gcda go
	to a directory of their own in the base's HOME, not the base's
	per-test coverage."""
	extra = pvcov.prepare(base_bd, home, intro_tests(base_bd),
			      name='base-rerun-gcda')
	for i in range(1, BASE_RERUNS + 1):
		progress('base: re-running', '%s (%d of %d)' % (
			name, i, BASE_RERUNS))
		e = meson_test('base', base_bd, dict(env, **extra[1]),
			       LOGBASE + '-base-rerun', progress,
			       [name] + extra[0]).get(name)
		if e is None or e['result'] not in cmp.OK_RESULTS:
			return i, True
	return BASE_RERUNS, False


def confirm(bd, cls, pat, env, progress, budgets, extra=([], {}),
	    device=None, base=None):
	"""Each det regression is replayed with the line the report prints
	(replay()), and the report says whether it reproduced. A
	parallel-backend regression cannot be replayed by seed: it is run
	once more, to say whether it failed again; if it passed, it is run on
	BASE (dict(bd, home), when given) up to BASE_RERUNS times, and a
	failure there moves it to the pre-existing ones: a flaky test. A test
	stopped over its time budget is neither: running it again would cost
	the budget again."""
	intro = {t['name']: t for t in intro_tests(bd)}
	for r in cls['regressions']:
		if r.get('hang'):
			continue
		t = intro.get(r['name'])
		runnable = t and not os.path.basename(t['cmd'][0]).startswith(
			'python')
		if r.get('det'):
			cases = (r.get('cases') or {}).get('regressions', [])
			firsts = []
			for c in cases:
				if c['key'].startswith('seed ') and \
				   c['test'] not in [f['test'] for f in firsts]:
					firsts.append(c)
			if not runnable:
				continue
			if not firsts:
				m = re.search(r'KSHIM_SEED=(\d+)',
					      r.get('replay') or '')
				if m:
					r['replay'] = replay_cmd(t, m.group(1),
								 device)
				continue
			r['replays'] = []
			for c in firsts[:MAX_REPLAYS]:
				progress('patched: replaying', '%s %s at %s' % (
					r['name'], c['test'], c['key']))
				run = pat[r['name']]['runs'].get(c['key']) or {}
				res = replay(bd, t, c, run.get('hash'),
					     budgets.get(r['name'],
							 cmp.budget(0)), device)
				if res['reproduced']:
					r['tail'] = cmp.excerpt(res['output'])
				del res['output']
				r['replays'].append(res)
			r['replay'] = r['replays'][0]['line']
			continue
		r['replay'] = None
		r['replay_note'] = 'parallel backend: threads run as the ' \
			'host schedules them, so this failure cannot be ' \
			'replayed by seed'
		progress('patched: re-running', r['name'])
		e = meson_test('patched', bd, dict(env, **extra[1]),
			       LOGBASE + '-rerun', progress,
			       [r['name']] + extra[0]).get(r['name'])
		again = e is not None and e['result'] not in cmp.OK_RESULTS
		r['rerun'] = 'failed again' if again else \
			'passed on a re-run: intermittent'
		if again or not base:
			continue
		runs, failed = base_failures(base['bd'], base['home'],
					     r['name'], env, progress)
		if failed:
			r['base_flaky'] = 'failed on base too, in re-run %d ' \
				'of %d: a flaky test, not blamed on the ' \
				'patch' % (runs, BASE_RERUNS)
		else:
			r['rerun'] += '; passed %d re-runs on base' % runs
	flaky = [r for r in cls['regressions'] if r.get('base_flaky')]
	for r in flaky:
		cls['regressions'].remove(r)
		cls['pre_existing'].append(r)


def select_tests(a, bd, patches, seen, base):
	"""--select: dict(run=[tests], skipped=[tests], why) for the patched
	side, from the base side's per-test coverage (coverage.select()); run
	is None when it picks every test. None without --select."""
	if not a.select:
		return None
	tree = a.kernel_src or os.path.join(bd, 'kernel', 'linux')
	names, why = pvcov.select(bd, tree, patches, seen, a.base_home)
	if names is None:
		return dict(run=None, skipped=[], why=why)
	every = sorted(base['tests'])
	if a.only:
		every = [n for n in every if n in a.only]
	run = [n for n in every if n in names]
	return dict(run=run, skipped=[n for n in every if n not in names],
		    why=why)


def patched_tests(a, bds, intro, base, selection):
	"""(tests to run on the patched side, tests not run there because
	their programs are the base's byte for byte: same_program.py)."""
	if selection and selection['run'] is not None:
		every = selection['run']
	else:
		every = sorted(n for n in base['tests']
			       if not a.only or n in a.only)
	same = same_program.tests(bds['base'], bds['patched'], intro, every)
	return [n for n in every if n not in same], same


def reused_objects(bds):
	"""(how many, environment): the patched build's environment that has
	it copy the objects it shares with the base build (reuse.py), if it
	was configured so, and how many it may copy."""
	if not reuse.uses_wrapper(bds['patched']):
		return 0, None
	n, _ = reuse.plan(bds['base'], bds['patched'])
	return n, reuse.environment(bds['patched'])


def compiled(bd, files):
	"""{file: True if kshim compiles it or one of its headers}."""
	used = kuf.used_files(bd)
	return {f: f in used for f in files}


def check_inputs(a):
	patches = []
	for p in a.patches:
		ap = os.path.abspath(p)
		if not os.path.isfile(ap):
			raise CannotRun('patch file missing: %s' % p)
		if not patch_targets(ap):
			raise CannotRun('%s is not a patch: no "--- a/FILE" / '
					'"+++ b/FILE" lines' % p)
		patches.append(ap)
	if a.kernel_src and a.kernel_tarball:
		raise CannotRun('--kernel-src and --kernel-tarball are '
				'alternatives: give one')
	if a.kernel_src:
		a.kernel_src = os.path.abspath(a.kernel_src)
		if not os.path.isdir(a.kernel_src):
			raise CannotRun('--kernel-src %s is not a directory'
					% a.kernel_src)
	if a.kernel_tarball:
		a.kernel_tarball = os.path.abspath(a.kernel_tarball)
		if not os.path.isfile(a.kernel_tarball):
			raise CannotRun('--kernel-tarball %s is not a file'
					% a.kernel_tarball)
	if a.seeds < 1 or a.repeat < 1:
		raise CannotRun('--seeds and --repeat must be at least 1')
	if a.select and not a.coverage:
		raise CannotRun('--select picks tests by the base side\'s '
				'coverage: it cannot go with --no-coverage')
	if a.device and not DEVICE.match(a.device):
		raise CannotRun('--device %s: not a device (%s)' % (
			a.device, DEVICE_HELP))
	return patches


def check_only(a, bd):
	"""--only's names are tests of the build (meson test --list)."""
	names = {t['name'] for t in intro_tests(bd)}
	for n in a.only:
		if n not in names:
			near = sorted(x for x in names if n in x or x in n)[:5]
			raise CannotRun('--only %s: no such test%s' % (
				n, ' (did you mean %s?)' % ', '.join(near)
				if near else ' (meson test -C %s --list)'
				% os.path.relpath(bd)))


# KSHIM_DEVICE's grammar (kernel-shim/block/kshim_blk_profile.c), checked
# here so a typo is a could-not-run, not every test failing on both sides.
DEVICE_HELP = ('fast, ssd, ssd-reordering, slow-disk, slow, or fields '
	       'base=T,jitter=T,slow=T@PPMppm,qd=N with T in ns, us, ms '
	       'or s')
_T = r'\d+(?:ns|us|ms|s)'
_FIELD = r'(?:base=%s|jitter=%s|slow=%s@\d+ppm|qd=[1-9]\d*)' % (_T, _T, _T)
DEVICE = re.compile(r'^(?:fast|ssd|ssd-reordering|slow-disk|slow|'
		    r'%s(?:,%s)*)$' % (_FIELD, _FIELD))


class Parser(argparse.ArgumentParser):
	# Bad arguments are a "could not run" too: exit 2, reason first.
	def error(self, message):
		raise CannotRun('%s (see kshim prevalidate --help)' % message)


def parser():
	p = Parser(
		prog='kshim prevalidate',
		description='Build the kernel tree as is and with PATCH... '
		'applied, run the tests and the scenarios on both and report '
		'what the patches change. Exit status: 0 clean (tests executed '
		'the change and passed), 1 a regression, 2 could not run, 3 '
		'untested (no test executed the change, or none behaved '
		'differently).')
	p.add_argument('patches', nargs='*', metavar='PATCH',
		       help='patch files (patch -p1), applied in order')
	p.add_argument('--commits', metavar='A..B',
		       help='instead of PATCH...: the commits after A up to B '
		       'of the git tree --kernel-src, as one series on the '
		       'tree at A (read with git archive; the tree is not '
		       'touched)')
	p.add_argument('--per-commit', action='store_true',
		       help='with --commits: also judge the series after '
		       'each commit, to find the first bad one')
	p.add_argument('--kernel-src', metavar='PATH',
		       help='your 6.12 tree (read only); default: Debian\'s '
		       'linux-source-6.12')
	p.add_argument('--kernel-tarball', metavar='TAR',
		       help='a 6.12 source tarball instead, e.g. an older '
		       'Debian point release\'s linux-source-6.12.tar.xz '
		       '(default %s)' % DEFAULT_TARBALL)
	p.add_argument('--seeds', type=int, default=4, metavar='N',
		       help='seeds each deterministic test sweeps on both '
		       'sides (default %(default)s)')
	p.add_argument('--repeat', type=int, default=1, metavar='N',
		       help='runs of each scenario per side; real-time '
		       'figures are judged from %d (default %%(default)s)'
		       % cmp.MIN_TIMING_REPEATS)
	p.add_argument('--workdir', default='build-prevalidate', metavar='DIR',
		       help='holds the patched/ build dir and the reports, '
		       'kept between runs (default %(default)s, in the repo)')
	p.add_argument('--base-dir', metavar='DIR',
		       help='where the base side is built, run and kept; '
		       'default: one dir per kernel source under '
		       'build-prevalidate-bases/ in the repo, shared by every '
		       'work dir')
	p.add_argument('--out', metavar='DIR',
		       help='where report.md and report.json go (default '
		       'WORKDIR/report)')
	p.add_argument('--only', nargs='+', default=[], metavar='TEST',
		       help='run only these tests (meson test names, e.g. '
		       'test_xfs_log_det) on both sides, to iterate on one '
		       'area; the verdict then speaks for them alone')
	p.add_argument('--select', action='store_true',
		       help='on the patched side, run only the tests that '
		       'executed a changed hunk on the base side (its per-test '
		       'coverage); a changed header runs every test')
	p.add_argument('--device', metavar='PROFILE',
		       help='every test\'s block device, on both sides '
		       '(KSHIM_DEVICE): %s. A fast device completes I/O at '
		       'once and hides what happens while an I/O is in '
		       'flight' % DEVICE_HELP)
	pvsan.add_arguments(p)
	p.add_argument('--no-coverage', dest='coverage', action='store_false',
		       help='skip which tests ran the patch\'s files and '
		       'changed lines (gcov per test, on by default)')
	return p


def abs_workdir(a):
	return a.workdir if os.path.isabs(a.workdir) else \
		os.path.join(REPO, a.workdir)


def out_dir_of(a, out):
	return os.path.abspath(out) if out else \
		os.path.join(abs_workdir(a), 'report')


def run(a, progress):
	t_start = time.monotonic()
	patches = check_inputs(a)
	a.workdir = abs_workdir(a)
	os.makedirs(a.workdir, exist_ok=True)
	a.base_home = base_home.resolve(a, DEFAULT_TARBALL)
	with base_home.held(a.base_home, progress):
		return run_held(a, progress, t_start, patches)


def run_held(a, progress, t_start, patches):
	"""run() once it holds the base side's directory."""
	out_dir = out_dir_of(a, a.out)
	bds = dict(base=os.path.join(a.base_home, 'base'),
		   patched=os.path.join(a.workdir, 'patched'))
	phases = {}
	t = time.monotonic()
	# The base first: its kernel tree tells a patch's -p level.
	configure('base', bds['base'], a, [], progress,
		  options=pvcov.BUILD_OPTIONS)
	tree = a.kernel_src or os.path.join(bds['base'], 'kernel', 'linux')
	originals, levels = patches, []
	patches = []
	for i, p in enumerate(originals):
		try:
			q, lv = plevel.normalise(p, a.workdir, i + 1,
						 tree if os.path.isdir(tree)
						 else None)
		except ValueError as e:
			raise CannotRun(str(e))
		patches.append(q)
		levels.append(lv)
	if reuse.uses_old_wrapper(bds['patched']):
		# meson keeps the compiler of the first setup: made anew, the
		# patched dir copies the base's objects again.
		progress('patched: configured with the old compiler wrapper, '
			 'made anew', os.path.relpath(bds['patched'], REPO))
		shutil.rmtree(bds['patched'])
	share_extracted_tree(bds['base'], bds['patched'])
	configure('patched', bds['patched'], a, patches, progress,
		  options=pvcov.BUILD_OPTIONS, env=dict(
			  CC=reuse.wrapper_cc(os.environ.get('CC', 'cc'))))
	phases['configure'] = time.monotonic() - t
	check_only(a, bds['base'])
	builds = {'base': build('base', bds['base'], progress)}
	phases['build base'] = builds['base']['seconds']
	base = base_results.cached(
		bds['base'], a, intro_tests(bds['base']),
		lambda names, wrap: run_side('base', bds['base'], a, progress,
					     wrap, names))
	phases['tests base' + base_phase(base['rerun'])] = base['seconds']
	budgets = {n: cmp.budget(e['duration'])
		   for n, e in base['tests'].items()}
	touched = {p: patch_targets(p) for p in patches}
	changed = sorted({f for fs in touched.values() for f in fs})
	# The base build compiles the same files: the selection is known
	# before the patched side is built, so only its tests are.
	seen = compiled(bds['base'], changed)
	selection = select_tests(a, bds['base'], patches, seen, base)
	targets = None
	if selection and selection['run'] is not None:
		targets = test_targets(bds['patched'], selection['run'])
	copied, env = reused_objects(bds)
	builds['patched'] = build('patched', bds['patched'], progress,
				  targets, env)
	phases['build patched'] = builds['patched']['seconds']
	if targets is None:
		seen = compiled(bds['patched'], changed)
	intro = intro_tests(bds['patched'])
	wrap = pvcov.prepare(bds['patched'], a.workdir, intro,
			     coverage=a.coverage, budgets=budgets)
	names, same = patched_tests(a, bds, intro, base, selection)
	pat = run_side('patched', bds['patched'], a, progress, wrap, names)
	pat['tests'].update({n: dict(base['tests'][n], same_program=True)
			     for n in same})
	phases['tests patched'] = pat['seconds']
	cls = cmp.compare_tests(
		{n: e for n, e in base['tests'].items()
		 if not selection or selection['run'] is None or
		 n in selection['run']}, pat['tests'])
	t = time.monotonic()
	confirm(bds['patched'], cls, pat['tests'], test_env(a), progress,
		budgets, wrap, a.device,
		base=dict(bd=bds['base'], home=a.base_home))
	if any('rerun' in r or r.get('replays')
	       for r in cls['regressions'] + cls['pre_existing']):
		phases['replays and re-runs'] = time.monotonic() - t
	timing = None
	if a.repeat > 1:
		t = time.monotonic()
		timing = timing_repeats(bds, a, progress)
		phases['timing repeats'] = time.monotonic() - t
	scen = {}
	for name in sorted(set(base['scenarios']) | set(pat['scenarios'])):
		b, p = (x['scenarios'].get(name, []) for x in (base, pat))
		tb, tp = (timing[s].get(name, []) for s in ('base', 'patched')) \
			if timing else (b, p)
		scen[name] = cmp.compare_scenario(b, p, tb, tp)
		scen[name]['runs'] = (len(tb), len(tp))
		# --select left out the test that writes it.
		scen[name]['not_run_patched'] = bool(
			b and not p and selection and
			selection['run'] is not None)
	os.makedirs(out_dir, exist_ok=True)
	plots = plot_scenarios(base['scenarios'], pat['scenarios'], out_dir,
			       progress)
	coverage = None
	if a.coverage:
		t = time.monotonic()
		progress('coverage', 'gcov per test')
		coverage = pvcov.collect(bds['patched'],
					 kuf.manifest(bds['patched']).get('tree'),
					 patches, seen, a.workdir)
		phases['coverage (gcov)'] = time.monotonic() - t
	san = pvsan.run(a, patches, phases, progress) if a.sanitizers else None
	phases['total'] = time.monotonic() - t_start
	progress.done()
	man = kuf.manifest(bds['patched'])
	j = cmp.judge(cls, coverage, seen)
	return pvsan.merge(dict(
		verdict=j['verdict'], exit_status=j['exit_status'],
		verdict_reason=j['reason'], behaviour=j['behaviour'],
		patches=[dict(path=o, level=lv, applied=p,
			      files=[dict(file=f, compiled=seen[f])
				     for f in touched[p]])
			 for o, p, lv in zip(originals, patches, levels)],
		kernel=dict(version=man.get('kernel_version'),
			    source=man.get('source'),
			    combined_sha256_base=kuf.manifest(bds['base']).get(
				    'combined_sha256'),
			    combined_sha256_patched=man.get('combined_sha256')),
		seeds=a.seeds, repeat=a.repeat, base_rerun=base['rerun'],
		only=a.only, device=a.device, selection=selection,
		same_program=same,
		timing_rule=cmp.TIMING_RULE,
		tests=cls, scenarios=scen, plots=plots, phases=phases,
		coverage=coverage,
		build_steps={s: builds[s]['steps'] for s in builds},
		reusable_objects=copied, builddirs=bds, out_dir=out_dir), san)


def run_series(a, progress):
	"""--commits: the whole series, and with --per-commit each prefix of
	it first (the last prefix is the series). Returns the series'
	result, with the rows of --per-commit."""
	t0 = time.monotonic()
	try:
		ser = commits.series(a.kernel_src, a.commits, abs_workdir(a),
				     progress)
	except commits.GitError as e:
		raise CannotRun(str(e))
	a.kernel_src = ser['tree']
	# The tree at A lives in the work dir; its base side beside it, not
	# with the bases of the sources a user names (base_home.py).
	a.base_dir = a.base_dir or ser['tree'] + '.base'
	patches = [c['patch'] for c in ser['commits']]
	out = a.out
	rows = None
	if a.per_commit:
		rows = []
		for k in range(1, len(patches) + 1):
			a.patches = patches[:k]
			a.out = os.path.join(out_dir_of(a, out), 'commit-%02d' % k)
			progress.prefix = 'commit %d/%d: ' % (k, len(patches))
			try:
				res = run(a, progress)
			except CannotRun as e:
				if k == len(patches):
					raise
				rows.append(dict(could_not_run=str(e),
						 regressions=[]))
				continue
			res['series'] = ser
			report.write(res, terminal=False)
			rows.append(dict(verdict=res['verdict'], regressions=[
				r['name'] for r in res['tests']['regressions']] +
				['%s (%s)' % (r['name'], kind) for kind, r in
				 pvsan.new_reports(res)],
				report=os.path.join(res['out_dir'],
						    'report.md')))
		progress.prefix = ''
		res['out_dir'] = out_dir_of(a, out)
	else:
		a.patches = patches
		res = run(a, progress)
	res['series'] = ser
	if rows:
		res['per_commit'] = rows
		res['phases']['all %d commits' % len(rows)] = \
			time.monotonic() - t0
		if any(r.get('could_not_run') or r['regressions']
		       for r in rows):
			res['exit_status'] = 1
			res['verdict'] = 'regression'
	return res


def main(argv):
	progress = Progress()
	try:
		a = parser().parse_args(argv)
		if a.commits and a.patches:
			raise CannotRun('give PATCH... or --commits, not both')
		if not a.patches and any(os.path.isfile(x) for x in a.only):
			raise CannotRun('--only takes the rest of the line as '
					'test names: give the patches first '
					'(PATCH... --only TEST...)')
		if not a.commits and not a.patches:
			raise CannotRun('no patch given (PATCH... or --commits '
					'A..B)')
		if a.per_commit and not a.commits:
			raise CannotRun('--per-commit needs --commits')
		res = run_series(a, progress) if a.commits else \
			run(a, progress)
	except CannotRun as e:
		progress.done()
		print('kshim prevalidate: could not run: %s' % e, flush=True)
		return 2
	except KeyboardInterrupt:
		progress.done()
		print('kshim prevalidate: could not run: interrupted')
		return 2
	os.makedirs(res['out_dir'], exist_ok=True)
	report.write(res)
	return res['exit_status']
