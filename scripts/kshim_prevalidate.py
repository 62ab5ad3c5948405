# SPDX-License-Identifier: GPL-2.0
"""kshim prevalidate PATCH...: does a kernel patch break something?

Builds the kernel tree as is (base) and with the patches (patched) in two
build directories kept under the work dir and reused, so a second run only
recompiles what changed; runs the test suite and the scenarios on both;
compares (kshim_pv_compare.py) and reports (kshim_pv_report.py).

Exit status: 0 no regression, 1 a regression, 2 could not run (the first
line on stdout says why). Progress goes to stderr: one updating line on a
terminal, plain lines otherwise.
"""

import argparse
import glob
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kshim_pv_compare as cmp  # noqa: E402
import kshim_pv_coverage as pvcov  # noqa: E402
import kshim_pv_report as report  # noqa: E402
from kshim_gcov import remove_gcda  # noqa: E402
from kshim_tree import patch_targets  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CC_ERROR = re.compile(r'^(\S+?):(\d+):(?:\d+:)? (?:fatal )?error: (.*)$')
KERNEL_PATH = re.compile(r'(?:^|/)(?:linux-patched|kernel-overlay|linux)/(.+)$')
KERNEL_DEP = re.compile(r'/(?:linux-patched|kernel-overlay)/(\S+)\s*$')
NINJA_STEP = re.compile(r'^\[(\d+)/(\d+)\] ')
MESON_STEP = re.compile(r'^\s*(\d+)/(\d+) (\S+ / )?(\S+)\s+(\S+)')
LOGBASE = 'prevalidate'
# Bump when what is stored in base-results.json changes shape.
CACHE_VERSION = 2


class CannotRun(Exception):
	"""Exit 2: the message is the one-line reason."""


class Progress:
	"""One updating line on a terminal; plain lines (on change, or every
	30 s) elsewhere, so CI logs stay short."""

	def __init__(self, stream=sys.stderr):
		self.s = stream
		self.tty = stream.isatty()
		self.last_plain = ('', 0.0)
		self.t0 = time.monotonic()

	def __call__(self, phase, detail=''):
		el = time.monotonic() - self.t0
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


def stream(cmd, on_line, env=None, cwd=REPO):
	"""Run CMD, feed each output line to on_line; (rc, output)."""
	try:
		p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE,
				     stderr=subprocess.STDOUT, env=env,
				     text=True, errors='replace')
	except FileNotFoundError:
		raise CannotRun('%s not found; run ./kshim setup' % cmd[0])
	out = []
	for line in p.stdout:
		out.append(line)
		on_line(line.rstrip('\n'))
	return p.wait(), ''.join(out)


def is_configured(bd):
	return os.path.isfile(os.path.join(bd, 'meson-private',
					   'coredata.dat'))


def build_options(bd):
	r = subprocess.run(['meson', 'introspect', '--buildoptions', bd],
			   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
			   text=True)
	try:
		return {o['name']: o['value'] for o in json.loads(r.stdout)}
	except ValueError:
		return {}


def configure(side, bd, kernel_src, patches, progress):
	"""meson setup BD; a reconfigure when an option differs (always on
	the patched side: the patches' text may have changed, not their
	names)."""
	opts = ['-Dkernel_src=' + (kernel_src or ''),
		'-Dkernel_patches=' + ','.join(patches)] + \
		['-D%s=%s' % (k, str(v).lower())
		 for k, v in pvcov.BUILD_OPTIONS.items()]
	if is_configured(bd):
		cur = build_options(bd)
		same = cur.get('kernel_src', '') == (kernel_src or '') and \
			list(cur.get('kernel_patches') or []) == patches and \
			all(cur.get(k) == v
			    for k, v in pvcov.BUILD_OPTIONS.items())
		if same and not patches:
			return
		cmd = ['meson', 'setup', '--reconfigure', bd] + opts
	else:
		cmd = ['meson', 'setup', bd] + opts
	progress('%s: configuring' % side, os.path.relpath(bd, REPO))
	rc, out = stream(cmd, lambda l: None)
	if rc == 0:
		return
	for line in out.splitlines():
		m = re.search(r'\bkshim: (.*)$', line)
		if m:
			raise CannotRun(m.group(1).strip())
	errs = [l.strip() for l in out.splitlines() if 'ERROR:' in l]
	raise CannotRun('meson setup of the %s build failed: %s (log: %s)' % (
		side, errs[-1] if errs else 'see ' + bd,
		os.path.join(bd, 'meson-logs', 'meson-log.txt')))


def short_path(path):
	"""A kernel file as the patch names it (fs/xfs/xfs_log.c), whether the
	compiler saw it through the overlay or in the tree."""
	m = KERNEL_PATH.search(path)
	if m:
		return m.group(1)
	return os.path.relpath(os.path.normpath(path), REPO) \
		if os.path.isabs(path) else path


def build(side, bd, progress):
	t0 = time.monotonic()
	steps = [0]

	def on_line(l):
		m = NINJA_STEP.match(l)
		if m:
			steps[0] = int(m.group(1))
			progress('%s: building' % side, '%s/%s' % m.groups())
	rc, out = stream(['ninja', '-C', bd], on_line)
	if rc != 0:
		for line in out.splitlines():
			m = CC_ERROR.match(line.strip())
			if m:
				raise CannotRun('build failed (%s): %s:%s: error: '
						'%s' % (side,
							short_path(m.group(1)),
							m.group(2), m.group(3)))
		last = [l for l in out.splitlines() if l.strip()]
		raise CannotRun('build failed (%s): %s' % (
			side, last[-1] if last else 'ninja exit %d' % rc))
	return dict(seconds=time.monotonic() - t0, steps=steps[0])


def intro_tests(bd):
	r = subprocess.run(['meson', 'introspect', '--tests', bd],
			   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
			   text=True)
	try:
		return json.loads(r.stdout or '[]')
	except ValueError:
		return []


def build_stamp(bd, a):
	"""What base results depend on: the options of the run and every file
	a test runs (size and time), so unchanged binaries mean unchanged
	results for the deterministic tests."""
	h = hashlib.sha256()
	h.update(json.dumps([CACHE_VERSION, a.seeds,
			     a.kernel_src]).encode())
	for t in sorted(intro_tests(bd), key=lambda t: t['name']):
		h.update(json.dumps([t['name'], t['cmd'],
				     sorted(t.get('env', {}).items())]).encode())
		for c in t['cmd']:
			if os.path.isfile(c):
				st = os.stat(c)
				h.update(('%s %d %d' % (c, st.st_size,
							st.st_mtime_ns)).encode())
	return h.hexdigest()


def read_testlog(bd, logbase):
	entries = {}
	path = os.path.join(bd, 'meson-logs', logbase + '.json')
	try:
		with open(path, errors='replace') as f:
			for line in f:
				if line.strip():
					e = cmp.parse_entry(json.loads(line))
					entries[e['name']] = e
	except (OSError, ValueError):
		pass
	return entries


def meson_test(side, bd, env, logbase, progress, args=()):
	def on_line(l):
		m = MESON_STEP.match(l)
		if m:
			progress('%s: testing' % side, '%s/%s %s %s' % (
				m.group(1), m.group(2), m.group(4),
				m.group(5)))
	written = logbase
	if '--wrapper' in args:
		# meson adds the wrapper's name to the log's.
		written += '-' + os.path.basename(shlex.split(
			args[list(args).index('--wrapper') + 1])[0])
	log = os.path.join(bd, 'meson-logs', written + '.json')
	if os.path.exists(log):
		os.unlink(log)
	rc, out = stream(['meson', 'test', '-C', bd, '--no-rebuild',
			  '--logbase', logbase] + list(args), on_line,
			 env=env)
	entries = read_testlog(bd, written)
	if not entries:
		raise CannotRun('meson test wrote no results in the %s build '
				'(exit %d): %s' % (side, rc,
						   out.strip().splitlines()[-1:]))
	return entries


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


# The plot script of each scenario (the JSON's "scenario" field); each
# takes -o PNG and JSON:label arguments and overlays them.
PLOTTERS = {
	'log_concurrency': 'kshim_plot_log.py',
	'wb_starvation': 'kshim_plot_wb.py',
	'reclaim_stalls': 'kshim_plot_reclaim.py',
}


def plot_scenarios(base, pat, out_dir, progress):
	"""One PNG per scenario file in OUT_DIR, the first run of base and of
	patched overlaid; returns {file: PNG path or why not}."""
	plots = {}
	jdir = os.path.join(out_dir, 'scenarios')
	for name in sorted(set(base) & set(pat)):
		script = PLOTTERS.get(base[name][0].get('scenario'))
		if not script or not pat[name]:
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
		r = subprocess.run([sys.executable,
				    os.path.join(REPO, 'scripts', script),
				    '-o', png] + args,
				   capture_output=True, text=True)
		why = (r.stderr.strip().splitlines() or ['failed'])[-1]
		plots[name] = png if r.returncode == 0 else 'not plotted: ' + why
	return plots


def run_side(side, bd, a, progress, extra=([], {})):
	"""All tests once, det ones with KSHIM_SEEDS=--seeds; returns
	dict(tests, scenarios, seconds). EXTRA: meson test arguments and
	environment (the coverage wrapper)."""
	t0 = time.monotonic()
	env = dict(os.environ, KSHIM_SEEDS=str(a.seeds), **extra[1])
	for path in scenario_files(bd):
		os.unlink(path)
	remove_gcda(bd)
	# Not the 'prevalidate' suite: it runs this command.
	tests = meson_test(side, bd, env, LOGBASE, progress,
			   ['--no-suite', 'prevalidate'] + extra[0])
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
			meson_test(side, bd, dict(os.environ), LOGBASE +
				   '-repeat', progress, ['--suite', 'scenario',
							 '--num-processes',
							 '1'])
			collect_scenarios(bd, scen[side])
	return scen


def cached_base(bd, a, progress):
	"""The base side's results, reused when nothing they depend on changed
	since the last run."""
	path = os.path.join(a.workdir, 'base-results.json')
	stamp = build_stamp(bd, a)
	try:
		with open(path) as f:
			c = json.load(f)
		if c.get('stamp') == stamp:
			c['reused'] = True
			return c
	except (OSError, ValueError):
		pass
	res = run_side('base', bd, a, progress)
	res['stamp'] = stamp
	res['reused'] = False
	with open(path + '.tmp', 'w') as f:
		json.dump(res, f)
	os.replace(path + '.tmp', path)
	return res


def replay_cmd(t, seed):
	"""The shell line that replays det test T (meson introspect) with
	SEED: its KSHIM_* environment, its binary, no --seeds."""
	env = {k: v for k, v in (t.get('env') or {}).items()
	       if k.startswith('KSHIM_') and k != 'KSHIM_SCENARIO_OUT'}
	env['KSHIM_SEED'] = seed
	cmd, skip = [], False
	for c in t['cmd']:
		if skip or c == '--seeds':
			skip = not skip
			continue
		cmd.append(c)
	return ' '.join(['%s=%s' % kv for kv in sorted(env.items())] +
			[shlex.quote(c) for c in cmd])


def confirm(bd, cls, env, progress):
	"""Re-run each parallel-backend regression once: those schedules do
	not repeat, so say whether it failed again. A det one gets the line
	that replays it."""
	intro = {t['name']: t for t in intro_tests(bd)}
	for r in cls['regressions']:
		if r['det']:
			m = re.search(r'KSHIM_SEED=(\d+)', r.get('replay') or '')
			t = intro.get(r['name'])
			if m and t and not os.path.basename(
					t['cmd'][0]).startswith('python'):
				r['replay'] = replay_cmd(t, m.group(1))
			continue
		progress('patched: re-running', r['name'])
		e = meson_test('patched', bd, env, LOGBASE + '-rerun', progress,
			       [r['name']]).get(r['name'])
		again = e is not None and e['result'] not in cmp.OK_RESULTS
		r['rerun'] = 'failed again' if again else \
			'passed on a re-run: intermittent'


def manifest(bd):
	try:
		with open(os.path.join(bd, 'manifest.json')) as f:
			return json.load(f)
	except (OSError, ValueError):
		return {}


def compiled(bd, files):
	"""{file: True if kshim compiles it}: a .c file from the manifest, a
	header from the dependencies the compiler recorded (ninja -t deps),
	seen through the patched tree or the overlay, not a same-named shim
	header."""
	man = set(manifest(bd).get('files', {}))
	out = {f: f in man for f in files}
	rest = [f for f in files if not f.endswith('.c')]
	if rest:
		r = subprocess.run(['ninja', '-C', bd, '-t', 'deps'],
				   stdout=subprocess.PIPE,
				   stderr=subprocess.DEVNULL, text=True,
				   errors='replace')
		seen = set()
		for line in r.stdout.splitlines():
			m = KERNEL_DEP.search(line)
			if m:
				seen.add(m.group(1))
		for f in rest:
			out[f] = f in seen
	return out


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
	if a.kernel_src:
		a.kernel_src = os.path.abspath(a.kernel_src)
		if not os.path.isdir(a.kernel_src):
			raise CannotRun('--kernel-src %s is not a directory'
					% a.kernel_src)
	if a.seeds < 1 or a.repeat < 1:
		raise CannotRun('--seeds and --repeat must be at least 1')
	return patches


class Parser(argparse.ArgumentParser):
	# Bad arguments are a "could not run" too: exit 2, reason first.
	def error(self, message):
		raise CannotRun('%s (see kshim prevalidate --help)' % message)


def parser():
	p = Parser(
		prog='kshim prevalidate',
		description='Build the kernel tree as is and with PATCH... '
		'applied, run the tests and the scenarios on both and report '
		'what the patches change. Exit status: 0 no regression, 1 a '
		'regression, 2 could not run.')
	p.add_argument('patches', nargs='+', metavar='PATCH',
		       help='patch files (patch -p1), applied in order')
	p.add_argument('--kernel-src', metavar='PATH',
		       help='your 6.12 tree (read only); default: Debian\'s '
		       'linux-source-6.12')
	p.add_argument('--seeds', type=int, default=4, metavar='N',
		       help='seeds each deterministic test sweeps on both '
		       'sides (default %(default)s)')
	p.add_argument('--repeat', type=int, default=1, metavar='N',
		       help='runs of each scenario per side; real-time '
		       'figures are judged from %d (default %%(default)s)'
		       % cmp.MIN_TIMING_REPEATS)
	p.add_argument('--workdir', default='build-prevalidate', metavar='DIR',
		       help='holds the base/ and patched/ build dirs, kept '
		       'between runs (default %(default)s, in the repo)')
	p.add_argument('--out', metavar='DIR',
		       help='where report.md and report.json go (default '
		       'WORKDIR/report)')
	p.add_argument('--no-coverage', dest='coverage', action='store_false',
		       help='skip which tests ran the patch\'s files and '
		       'changed lines (gcov per test, on by default)')
	return p


def run(a, progress):
	t_start = time.monotonic()
	patches = check_inputs(a)
	a.workdir = os.path.join(REPO, a.workdir) \
		if not os.path.isabs(a.workdir) else a.workdir
	out_dir = os.path.abspath(a.out) if a.out else \
		os.path.join(a.workdir, 'report')
	bds = {s: os.path.join(a.workdir, s) for s in ('base', 'patched')}
	os.makedirs(a.workdir, exist_ok=True)
	phases = {}
	t = time.monotonic()
	configure('patched', bds['patched'], a.kernel_src, patches, progress)
	configure('base', bds['base'], a.kernel_src, [], progress)
	phases['configure'] = time.monotonic() - t
	builds = {s: build(s, bds[s], progress) for s in ('base', 'patched')}
	for s in builds:
		phases['build ' + s] = builds[s]['seconds']
	base = cached_base(bds['base'], a, progress)
	phases['tests base' + (' (reused)' if base['reused'] else '')] = \
		0.0 if base['reused'] else base['seconds']
	cov = pvcov.prepare(bds['patched'], a.workdir,
			    intro_tests(bds['patched'])) if a.coverage else None
	pat = run_side('patched', bds['patched'], a, progress,
		       cov or ([], {}))
	phases['tests patched'] = pat['seconds']
	cls = cmp.compare_tests(base['tests'], pat['tests'])
	t = time.monotonic()
	confirm(bds['patched'], cls, dict(os.environ, KSHIM_SEEDS=str(a.seeds)),
		progress)
	if any('rerun' in r for r in cls['regressions']):
		phases['re-runs'] = time.monotonic() - t
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
	os.makedirs(out_dir, exist_ok=True)
	plots = plot_scenarios(base['scenarios'], pat['scenarios'], out_dir,
			       progress)
	touched = {p: patch_targets(p) for p in patches}
	seen = compiled(bds['patched'], sorted({f for fs in touched.values()
						 for f in fs}))
	coverage = None
	if cov:
		t = time.monotonic()
		progress('coverage', 'gcov per test')
		coverage = pvcov.collect(bds['patched'],
					 manifest(bds['patched']).get('tree'),
					 patches, seen, a.workdir)
		phases['coverage (gcov)'] = time.monotonic() - t
	phases['total'] = time.monotonic() - t_start
	progress.done()
	man = manifest(bds['patched'])
	return dict(
		verdict='regression' if cls['regressions'] else 'clean',
		exit_status=1 if cls['regressions'] else 0,
		patches=[dict(path=p, files=[dict(file=f, compiled=seen[f])
					     for f in touched[p]])
			 for p in patches],
		kernel=dict(version=man.get('kernel_version'),
			    source=man.get('source'),
			    combined_sha256_base=manifest(bds['base']).get(
				    'combined_sha256'),
			    combined_sha256_patched=man.get('combined_sha256')),
		seeds=a.seeds, repeat=a.repeat, base_reused=base['reused'],
		timing_rule=cmp.TIMING_RULE,
		tests=cls, scenarios=scen, plots=plots, phases=phases,
		coverage=coverage,
		build_steps={s: builds[s]['steps'] for s in builds},
		builddirs=bds, out_dir=out_dir)


def main(argv):
	progress = Progress()
	try:
		a = parser().parse_args(argv)
		res = run(a, progress)
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


if __name__ == '__main__':
	sys.exit(main(sys.argv[1:]))
