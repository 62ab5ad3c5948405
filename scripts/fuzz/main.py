# SPDX-License-Identifier: GPL-2.0
"""./kshim fuzz: run a fuzz target of fuzz/ with libFuzzer.

Sets up build-fuzz (clang, -Dfuzzing=libfuzzer, ASan and UBSan) if it is
not, builds the target, and runs libFuzzer on a working corpus (--corpus,
default build-fuzz/fuzz-work/TARGET/corpus) with the target's shipped
seed corpus (fuzz/TARGET/corpus, read only) and dictionary. Prints
libFuzzer's progress (executions per second, coverage, corpus size) and
the crashes so far; for each crash, the input (libFuzzer's artifact), a
minimised input (-minimize_crash=1) beside it, the one-line replay
command (the replay runner of the default build, no clang needed) and
the kernel's report. Exit 0 when nothing crashed, 1 when something did,
2 for bad input.

With --seed N and --runs N (one job) libFuzzer's run repeats exactly:
what fuzz/cases.json's demonstrations use, re-checked by --check-cases
(a libFuzzer build per demonstration patch, and the base tree's).

usage: ./kshim fuzz TARGET [--time S] [--jobs N] [--corpus DIR]
                           [--seed N] [--runs N]
       ./kshim fuzz --list
       ./kshim fuzz TARGET --replay FILE
       ./kshim fuzz --check-cases
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import time

from scripts import REPO, ArgumentParser, Error, user_path
from scripts.shared import sanitizers

FUZZ_DIR = os.path.join(REPO, 'fuzz')
# Lines of libFuzzer's that say how the run goes: "#4096 pulse cov: ...",
# "#123 NEW cov: ...", fork mode's "#9999: cov: ... crash: 1 ...".
STAT_RE = re.compile(r'^#\d+:?\s+(\w+\s+)?cov: ')
# Meson options added to a new build dir's set-up (cases.py's patches).
EXTRA_OPTIONS = []
ARTIFACT_RE = re.compile(r'^(crash|leak|timeout|oom|slow-unit)-[0-9a-f]+$')


def exe_name(target):
	"""The binary of TARGET: fuzz_NAME, a dash in NAME an underscore
	(fuzz/meson.build's underscorify())."""
	return 'fuzz_' + re.sub(r'[^A-Za-z0-9_]', '_', target)


def targets():
	"""Target name -> its folder: every fuzz/NAME/ with fuzz_NAME.c
	(log-recovery/fuzz_log_recovery.c)."""
	out = {}
	for d in sorted(os.listdir(FUZZ_DIR)):
		if os.path.isfile(os.path.join(FUZZ_DIR, d,
					       exe_name(d) + '.c')):
			out[d] = os.path.join(FUZZ_DIR, d)
	return out


def clang():
	for cc in ('clang-14', 'clang'):
		if shutil.which(cc):
			return cc
	raise Error('clang not found; run ./kshim setup', 1)


def configured(bd):
	return os.path.isfile(os.path.join(bd, 'meson-private',
					   'coredata.dat'))


def run(cmd, env=None):
	print('+ ' + ' '.join(cmd), flush=True)
	return subprocess.run(cmd, cwd=REPO, env=env).returncode


def build(bd, target):
	"""Set up BD as the libFuzzer build if it is not; build TARGET."""
	if not configured(bd):
		env = dict(os.environ)
		env.setdefault('CC', clang())
		cmd = ['meson', 'setup', bd, '-Dfuzzing=libfuzzer'] + \
			sanitizers.OPTIONS['asan'] + EXTRA_OPTIONS
		if run(cmd, env) != 0:
			raise Error('meson setup of %s failed (see above)' % bd, 1)
	if run(['meson', 'compile', '-C', bd, '-j', '2',
		'fuzz/' + exe_name(target)]) != 0:
		raise Error('building %s failed (see above)' % exe_name(target),
			    1)
	return os.path.join(bd, 'fuzz', exe_name(target))


def replay_cmd(target, path):
	exe = os.path.join('build', 'fuzz', exe_name(target) + '_replay')
	return '%s %s' % (exe, os.path.relpath(path, os.getcwd())
			  if not os.path.isabs(path) else path)


def fuzz_env():
	env = dict(os.environ, **sanitizers.test_env('asan'))
	env['ASAN_OPTIONS'] = ':'.join(filter(None, [
		env.get('ASAN_OPTIONS', ''), 'detect_leaks=0']))
	return env


def report(exe, path, opts=()):
	"""The kernel's report for input PATH: the target's output, from
	its first kernel line of interest on."""
	# libFuzzer writes a crashing input it runs as an artifact: to /tmp.
	r = subprocess.run([exe, '-artifact_prefix=/tmp/kshim-fuzz-report-',
			    path] + list(opts), cwd=REPO, stdout=subprocess.PIPE,
			   stderr=subprocess.STDOUT, text=True,
			   errors='replace', env=fuzz_env())
	lines = [l for l in r.stdout.splitlines()
		 if not l.startswith(('INFO:', 'Running:', 'Executed '))]
	keys = ('Assertion failed', 'WARNING:', 'BUG', 'kshim: FATAL',
		'ERROR: AddressSanitizer', 'runtime error', 'HANG',
		'ERROR: LeakSanitizer', 'Metadata corruption')
	start = next((i for i, l in enumerate(lines)
		      if any(k in l for k in keys)), max(0, len(lines) - 40))
	# The kernel's own lines just before (an alert before its ASSERT).
	while start > 0 and lines[start - 1].startswith('XFS'):
		start -= 1
	return '\n'.join(lines[start:start + 60])


def handle_crash(exe, target, path):
	minimised = path + '.min'
	print()
	print('kshim fuzz: crash: %s' % os.path.relpath(path))
	# The minimiser's runs write crashing inputs as artifacts: beside
	# the crash, not in the repository.
	# The target's options (its timeout): a hang's input runs into it
	# each time, or the minimiser would wait on it for ever.
	opts = options(os.path.join(FUZZ_DIR, target))
	subprocess.run([exe, '-minimize_crash=1', '-max_total_time=30'] + opts + [
			'-artifact_prefix=' + path + '.minimising-',
			'-exact_artifact_path=' + minimised, path], cwd=REPO,
		       env=fuzz_env(),
		       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
	if os.path.isfile(minimised):
		print('kshim fuzz: minimised (%d bytes, from %d): %s' % (
			os.path.getsize(minimised), os.path.getsize(path),
			os.path.relpath(minimised)))
	else:
		minimised = path
	print('kshim fuzz: replay (no clang): %s' % replay_cmd(target,
							       minimised))
	print('kshim fuzz: the kernel\'s report:')
	text = report(exe, minimised, opts)
	print(text)
	return text


def options(folder):
	"""libFuzzer flags from the target's NAME.options, OSS-Fuzz's
	file: 'key = value' lines of its [libfuzzer] section."""
	out = []
	for path in glob.glob(os.path.join(folder, '*.options')):
		section = None
		with open(path) as f:
			for line in f:
				line = line.split('#')[0].strip()
				if line.startswith('['):
					section = line.strip('[]').strip()
				elif '=' in line and section == 'libfuzzer':
					k, v = (x.strip() for x in line.split('=', 1))
					out.append('-%s=%s' % (k, v))
	return out


def fuzz(a, target, folder):
	"""Fuzz; 0 when nothing crashed, 1 when something did. The crash
	reports are also in a.reports."""
	bd = os.path.join(REPO, a.builddir)
	work = os.path.join(bd, 'fuzz-work', target)
	corpus = user_path(a.corpus) if a.corpus else \
		os.path.join(work, 'corpus')
	if a.corpus and not os.path.isdir(corpus):
		raise Error('--corpus %s: no such directory' % a.corpus)
	crashes = os.path.join(work, 'crashes')
	os.makedirs(corpus, exist_ok=True)
	os.makedirs(crashes, exist_ok=True)
	exe = build(bd, target)
	before = set(os.listdir(crashes))
	cmd = [exe, corpus, os.path.join(folder, 'corpus'),
	       '-max_total_time=%d' % a.time, '-print_final_stats=1',
	       '-artifact_prefix=' + crashes + '/']
	if a.seed is not None:
		cmd.append('-seed=%d' % a.seed)
	if a.runs is not None:
		cmd.append('-runs=%d' % a.runs)
	for d in glob.glob(os.path.join(folder, '*.dict')):
		cmd.append('-dict=' + d)
	cmd += options(folder)
	if a.jobs > 1:
		# Fork mode: N processes, the run goes on after a crash.
		cmd += ['-fork=%d' % a.jobs, '-ignore_crashes=1']
	# Leaks are the target's own check, between inputs, on kshim's
	# allocation counts; LeakSanitizer's at exit would only see the
	# filesystem libFuzzer never lets the target unmount.
	cmd.append('-detect_leaks=0')
	env = fuzz_env()
	print('+ ' + ' '.join(cmd), flush=True)
	t0 = time.monotonic()
	p = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=subprocess.PIPE,
			     stderr=subprocess.STDOUT, text=True,
			     errors='replace')
	last = ''
	for line in p.stdout:
		line = line.rstrip('\n')
		if STAT_RE.match(line):
			last = line
			found = len(set(os.listdir(crashes)) - before)
			print('[%4.0fs] %s | crashes: %d' % (
				time.monotonic() - t0, line, found), flush=True)
		elif line.startswith(('stat::', '==', 'kshim: FATAL')) or \
		     'ERROR' in line or 'Assertion failed' in line:
			print(line, flush=True)
	rc = p.wait()
	new = sorted(f for f in set(os.listdir(crashes)) - before
		     if ARTIFACT_RE.match(f))
	print()
	print('kshim fuzz: %s: %.0f s, last stats: %s' % (
		target, time.monotonic() - t0, last or '(none)'))
	a.reports = []
	for f in new:
		a.reports.append(handle_crash(exe, target,
					      os.path.join(crashes, f)))
	if new:
		print('\nkshim fuzz: %d crash(es) in %s' % (
			len(new), os.path.relpath(crashes)))
		return 1
	if rc not in (0, 1):
		raise Error('libFuzzer exited with %d and left no artifact'
			    % rc, 1)
	print('kshim fuzz: no crash')
	return 0


def replay(target, path):
	if not os.access(path, os.R_OK) or not os.path.isfile(path):
		raise Error('--replay %s: not a readable file' % path)
	exe = os.path.join(REPO, 'build', 'fuzz', exe_name(target) + '_replay')
	if not os.access(exe, os.X_OK):
		raise Error('%s is not built (./kshim build)' %
			    os.path.relpath(exe), 1)
	print('+ ' + replay_cmd(target, path), flush=True)
	return subprocess.run([exe, path], cwd=REPO).returncode and 1


def main(argv):
	ap = ArgumentParser(prog='kshim fuzz', description=__doc__.split(
		'\n')[0], epilog='Targets: ' + ', '.join(targets()))
	ap.add_argument('target', nargs='?', metavar='TARGET')
	ap.add_argument('--list', action='store_true',
			help='list the targets and what each feeds')
	ap.add_argument('--time', type=int, default=60, metavar='S',
			help='seconds to fuzz (default %(default)s)')
	ap.add_argument('--jobs', type=int, default=1, metavar='N',
			help='libFuzzer processes (fork mode when > 1)')
	ap.add_argument('--corpus', metavar='DIR',
			help='working corpus, which libFuzzer adds to '
			'(default build-fuzz/fuzz-work/TARGET/corpus)')
	ap.add_argument('--seed', type=int, metavar='N',
			help='libFuzzer\'s -seed (a run repeats with one job)')
	ap.add_argument('--runs', type=int, metavar='N',
			help='stop after N executions (libFuzzer\'s -runs); '
			'with --check-cases, every case\'s budget instead of '
			'its own')
	ap.add_argument('--check-cases', action='store_true',
			help='re-check fuzz/cases.json: each demonstration '
			'patch is found, the base tree gives nothing (with '
			'TARGET: only that target\'s cases)')
	ap.add_argument('--replay', metavar='FILE',
			help='replay one input with the default build\'s '
			'replay runner instead of fuzzing')
	ap.add_argument('--builddir', default='build-fuzz', metavar='DIR',
			help='the libFuzzer build (default %(default)s)')
	a = ap.parse_args(argv)
	ts = targets()
	if a.list:
		for name, folder in ts.items():
			with open(os.path.join(folder, 'README.md')) as f:
				first = f.readline().lstrip('# ').strip()
			print('%-14s %s' % (name, first))
		return 0
	if a.check_cases:
		from scripts.fuzz import cases
		if a.target and a.target not in ts:
			raise Error('unknown target %r; targets: %s' % (
				a.target, ', '.join(ts)))
		return cases.check(a, ts, fuzz)
	if not a.target:
		raise Error('a TARGET is needed (./kshim fuzz --list)')
	if a.target not in ts:
		raise Error('unknown target %r; targets: %s' % (
			a.target, ', '.join(ts)))
	if a.time <= 0 or a.jobs <= 0:
		raise Error('--time and --jobs must be positive')
	if a.replay:
		return replay(a.target, user_path(a.replay))
	return fuzz(a, a.target, ts[a.target])
