# SPDX-License-Identifier: GPL-2.0
"""kshim prevalidate: which tests ran the files a patch touches, and which
of its changed lines they executed (gcov on the patched build).

The patched build is a coverage build (-Db_coverage=true); its tests run
through this file as meson test's --wrapper, which points GCOV_PREFIX at a
directory of the test's own, so each test's .gcda files land apart
(COVDIR/<test>/<object path in the build dir>.gcda; a test that forks or
re-execs, as the det backend does per seed, merges into the same files).
gcov then reads, per test, only the objects compiled from the patch's .c
files.

Changed lines: the '+' lines of each hunk, at their line number in the
patched file. A deletion with no '+' line next to it changed no line of
the new file; it counts as the line just after the deletion point (the
code that now runs where the deleted code did), so a pure-deletion patch
still has a line a test can be seen to reach. Lines gcov has no code for
(comments, blank lines, declarations) do not count.

Headers: gcov reports a header's lines inside each object that includes
it, so one header would mean gcov over every object of every test; a
touched header is listed as "coverage not attributed" instead.
"""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from scripts import REPO
from scripts.prevalidate.compare import (BUDGET_FACTOR, BUDGET_MIN_S,
					 OVER_BUDGET)

HUNK = re.compile(r'^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@')
# The build options of both sides: base and patched are coverage builds,
# so coverage needs no third build and the real-time figures they compare
# were taken under the same instrumentation. Measured on the shared 2-core
# machine (load 5-10 from other builds), meson test of the whole suite
# with KSHIM_SEEDS=4, back to back: plain build 108 s and 118 s wall
# (57-58 s user); coverage with atomic counters 194 s (148 s user: the det
# tests 2-7 times slower, e.g. test_xfs_icache 1.0 -> 7.1 s user); with
# single counters 103 s (60 s user), 119 s through this file's per-test
# wrapper; gcov of one patched file over the 49 test directories: 1-2 s.
# A full build: 2m00 user plain, 2m05 with coverage. A one-file XFS patch,
# base results reused, back to back: 114 s with --no-coverage, 66 s with
# coverage (the load fell meanwhile: noise is larger than the cost).
# Single counters make coverage nearly free, hence on by default; the
# build stays a coverage build with --no-coverage, so that switch
# rebuilds nothing. A separate patched-cov build would cost a third full
# build and a second patched test run.
BUILD_OPTIONS = {'b_coverage': True, 'coverage_counters': 'single'}
# Uncovered changed lines listed per file; the count is always complete.
MAX_UNCOVERED = 20
# Changed lines listed with the tests that executed them, per file.
MAX_LINES = 40
COVDIR = 'patched-gcda'
MAP_ENV = 'KSHIM_COV_MAP'


# --------------------------------------------------------- the patch's lines

def parse_hunks(text):
	"""{file: [hunk]} of a unified/git patch (after -p1). A hunk is
	dict(start=its first line in the new file, block=its new-side lines
	(context and '+'), changed=[(index in block, why)]), why being 'added'
	or 'after deletion'; an index equal to len(block) is the line just
	after the hunk. Hunk bodies are read by their line counts, so a '-'
	line starting with "-- " is not taken for a file header."""
	files = {}
	cur = None
	hunk = None
	old = new = 0
	prev = ''		# kind of the previous body line: ' ', '+', '-'
	del_alone = False	# a '-' run with no '+' line before it

	def close_deletion():
		if prev == '-' and del_alone:
			hunk['changed'].append((len(hunk['block']),
						'after deletion'))

	for line in text.splitlines():
		if old > 0 or new > 0:
			c = line[:1]
			if c == '\\':
				continue
			if c in ('-', '+', ' ', ''):
				if c == '-':
					if prev != '-':
						del_alone = prev != '+'
					old -= 1
				else:
					if c == ' ' or c == '':
						close_deletion()
						old -= 1
					else:
						hunk['changed'].append(
							(len(hunk['block']), 'added'))
					hunk['block'].append(line[1:])
					new -= 1
				prev = c or ' '
				if old <= 0 and new <= 0:
					close_deletion()
				continue
			# A truncated hunk: what follows is not its body.
			close_deletion()
			old = new = 0
		m = HUNK.match(line)
		if m and cur is not None:
			old = int(m.group(1) or 1)
			new = int(m.group(3) or 1)
			hunk = dict(start=int(m.group(2)), block=[], changed=[])
			files[cur].append(hunk)
			prev = ''
			del_alone = False
			continue
		m = re.match(r'^\+\+\+ (\S+)', line)
		if m:
			parts = m.group(1).split('/', 1)
			# A deleted file (+++ /dev/null) has no new lines.
			cur = os.path.normpath(parts[1]) \
				if len(parts) == 2 and parts[1] and \
				m.group(1) != '/dev/null' else None
			if cur is not None:
				files.setdefault(cur, [])
	return files


def locate(block, lines, start):
	"""The 1-based line where BLOCK sits in LINES, nearest to START (patch
	applies a hunk with an offset when the file moved); None if it is not
	there (a later patch changed those lines)."""
	if not block:
		return start if 0 <= start <= len(lines) + 1 else None
	n = len(block)
	base = max(start - 1, 0)
	for d in range(len(lines) + 1):
		for i in ((base + d, base - d) if d else (base,)):
			if 0 <= i <= len(lines) - n and lines[i:i + n] == block:
				return i + 1
		if base - d < 0 and base + d > len(lines) - n:
			break
	return None


def changed_lines(hunks, lines):
	"""({line number: (text, why)}, lines not found) for one file's HUNKS
	(parse_hunks) in its patched text LINES."""
	out = {}
	lost = 0
	for h in hunks:
		at = locate(h['block'], lines, h['start'])
		if at is None:
			lost += len(h['changed'])
			continue
		for i, why in h['changed']:
			n = at + i
			if n > len(lines):
				continue	# a deletion at the end of the file
			if n not in out or why == 'added':
				out[n] = (lines[n - 1], why)
	return out, lost


def summarise(changed, executable, executed, cap=MAX_UNCOVERED):
	"""The figures of one file: CHANGED {line: (text, why)}, EXECUTABLE
	and EXECUTED sets of line numbers (any test)."""
	exe = sorted(n for n in changed if n in executable)
	unc = [n for n in exe if n not in executed]
	return dict(changed=len(changed), executable=len(exe),
		    covered=len(exe) - len(unc), uncovered_total=len(unc),
		    after_deletion=len([n for n in exe if changed[n][1] ==
					'after deletion']),
		    uncovered=[dict(line=n, why=changed[n][1],
				    text=' '.join(changed[n][0].split()))
			       for n in unc[:cap]])


def line_rows(changed, per_line, cap=MAX_LINES):
	"""Per changed executable line (at most CAP, in order): its text and
	the tests that executed it with their counts, most first. PER_LINE
	{line: {test: count}}. With single counters a count is a lower
	bound under threads (see BUILD_OPTIONS), never 0 for a line that
	ran."""
	return [dict(line=n, why=changed[n][1],
		     text=' '.join(changed[n][0].split()),
		     tests=dict(sorted(per_line[n].items(),
				       key=lambda kv: (-kv[1], kv[0]))))
		for n in sorted(per_line)[:cap]]


# ------------------------------------------------- running the tests apart

def test_dir(name):
	"""A test's directory name under COVDIR (meson names may hold '/')."""
	return re.sub(r'[^A-Za-z0-9_.+-]', '_', name)


def prepare(bd, workdir, tests, coverage=True, budgets=None, name=COVDIR,
	    clear=None):
	"""Empty WORKDIR/NAME (or only the directories of the tests CLEAR,
	when given: the others' coverage is kept), write the map the wrapper
	picks a test's directory and time budget from (TESTS: meson
	introspect --tests; BUDGETS: {test: seconds}, see wrap()), and
	return the extra meson test arguments and environment. Without
	COVERAGE the wrapper only keeps the budgets. kshim mutate uses it
	too, with a NAME of its own."""
	covdir = os.path.join(workdir, name)
	for d in [covdir] if clear is None else \
		 [os.path.join(covdir, test_dir(n)) for n in clear]:
		shutil.rmtree(d, ignore_errors=True)
	os.makedirs(covdir, exist_ok=True)
	path = os.path.join(covdir, 'tests.json')
	with open(path, 'w') as f:
		json.dump(dict(covdir=covdir, coverage=coverage,
			       budgets=budgets or {},
			       strip=len(os.path.realpath(bd).strip('/')
					 .split('/')),
			       tests=[dict(name=t['name'], cmd=t['cmd'],
					   env=t.get('env') or {})
				      for t in tests]), f)
	# Run as a module, like every module of scripts/: the repository
	# root goes on the path of the wrapper (and of the tests it runs).
	wrapper = '%s -m scripts.prevalidate.coverage wrap' % sys.executable
	pythonpath = [REPO] + [p for p in os.environ.get(
		'PYTHONPATH', '').split(os.pathsep) if p]
	return ['--wrapper', wrapper], {MAP_ENV: path,
					'PYTHONPATH': os.pathsep.join(pythonpath)}


def pick(tests, argv, environ):
	"""The test meson is running as ARGV with ENVIRON: its command, and
	its environment (the one declaring the most matching variables, so a
	det variant of a binary is told from the plain one)."""
	best = None
	for t in tests:
		if t['cmd'] != argv:
			continue
		if any(environ.get(k) != v for k, v in t['env'].items()):
			continue
		if best is None or len(t['env']) > len(best['env']):
			best = t
	return best['name'] if best else '_unattributed'


def wrap(argv):
	"""meson test --wrapper: run ARGV with its .gcda files going to the
	test's own directory, and within the test's time budget.

	Over budget, the test's whole process group (a det sweep forks a
	child per seed) gets SIGTERM, then SIGKILL, and this prints
	compare.OVER_BUDGET: the test is judged a hang with the output it
	has, rather than left to meson's timeout (10 minutes for the XFS
	tests) and re-run at full length. The test runs in a session of its
	own for that; so that meson's own timeout still reaches it, a
	SIGTERM here is passed on."""
	with open(os.environ[MAP_ENV]) as f:
		m = json.load(f)
	name = pick(m['tests'], argv, os.environ)
	if m.get('coverage', True):
		os.environ['GCOV_PREFIX'] = os.path.join(m['covdir'],
							 test_dir(name))
		os.environ['GCOV_PREFIX_STRIP'] = str(m['strip'])
	limit = m.get('budgets', {}).get(name)
	if not limit:
		os.execvp(argv[0], argv)
	p = subprocess.Popen(argv, start_new_session=True)

	def stop():
		# The whole group, whose leader may be gone already: a
		# sweep's seed child outlives its parent.
		for sig in (signal.SIGTERM, signal.SIGKILL):
			try:
				os.killpg(p.pid, sig)
			except ProcessLookupError:
				break
			try:
				p.wait(timeout=2)
			except subprocess.TimeoutExpired:
				pass
			if sig == signal.SIGTERM:
				time.sleep(0.2)

	def on_term(signum, frame):
		stop()
		sys.exit(128 + signum)
	signal.signal(signal.SIGTERM, on_term)
	t0 = time.monotonic()
	try:
		rc = p.wait(timeout=limit)
	except subprocess.TimeoutExpired:
		print('\n%s %s ran %.0f s, its budget (the larger of %dx its '
		      'base duration and %d s), and was stopped; the output '
		      'above is what it printed' % (
			      OVER_BUDGET, name, time.monotonic() - t0,
			      BUDGET_FACTOR, BUDGET_MIN_S), flush=True)
		stop()
		sys.exit(124)
	sys.exit(rc if rc >= 0 else 128 - rc)


# ------------------------------------------------------------ reading gcov

def objects(bd, tree, files):
	"""{file: [.gcno path]} of the objects compiled from each of FILES
	(tree-relative .c files), from compile_commands.json; the compiler
	may have seen a file through the overlay, so real paths compare."""
	want = {os.path.realpath(os.path.join(tree, f)): f for f in files}
	out = {f: [] for f in files}
	try:
		with open(os.path.join(bd, 'compile_commands.json')) as f:
			cc = json.load(f)
	except (OSError, ValueError):
		return out
	for e in cc:
		src = os.path.realpath(os.path.join(e['directory'], e['file']))
		if src in want and e.get('output', '').endswith('.o'):
			out[want[src]].append(os.path.join(
				e['directory'], e['output'][:-2] + '.gcno'))
	return out


def gcov_lines(gcnos, gcdas, want, tmp):
	"""{line: count} of the file whose real path is WANT, summed over
	GCNOS (with their GCDAS; None: no data, every count 0)."""
	counts = {}
	args = []
	for i, (gcno, gcda) in enumerate(zip(gcnos, gcdas)):
		d = os.path.join(tmp, str(i))
		os.makedirs(d, exist_ok=True)
		stem = os.path.basename(gcno)[:-len('.gcno')]
		for src, ext in ((gcno, '.gcno'), (gcda, '.gcda')):
			dst = os.path.join(d, stem + ext)
			if os.path.lexists(dst):
				os.unlink(dst)
			if src:
				os.symlink(os.path.abspath(src), dst)
		args.append(os.path.join(d, stem + '.gcno'))
	if not args:
		return counts
	r = subprocess.run(['gcov', '--json-format', '--stdout'] + args,
			   cwd=tmp, stdout=subprocess.PIPE,
			   stderr=subprocess.DEVNULL, text=True,
			   errors='replace')
	for doc in r.stdout.splitlines():
		try:
			d = json.loads(doc)
		except ValueError:
			continue
		cwd = d.get('current_working_directory', tmp)
		for fe in d.get('files', []):
			if os.path.realpath(os.path.join(cwd, fe['file'])) != want:
				continue
			for ln in fe.get('lines', []):
				n = ln['line_number']
				counts[n] = counts.get(n, 0) + ln.get('count', 0)
	return counts


def find_gcda(testdir, bd_real, gcno):
	"""The .gcda of GCNO (an object in the build dir) under TESTDIR."""
	rel = os.path.relpath(gcno[:-len('.gcno')] + '.gcda', bd_real)
	p = os.path.join(testdir, rel)
	return p if os.path.isfile(p) else None


def collect(bd, tree, patches, compiled, workdir):
	"""The coverage section of the result: per file the patches touch,
	the tests that executed any of its lines and its changed lines
	covered, from the .gcda files the wrapper sorted by test. PATCHES are
	patch paths in order, COMPILED {file: kshim compiles it}, TREE the
	patched kernel tree."""
	covdir = os.path.join(workdir, COVDIR)
	with open(os.path.join(covdir, 'tests.json')) as f:
		names = {test_dir(t['name']): t['name']
			 for t in json.load(f)['tests']}
	tdirs = sorted(d for d in os.listdir(covdir)
		       if os.path.isdir(os.path.join(covdir, d)))
	hunks = {}
	for p in patches:
		with open(p, errors='replace') as f:
			for fn, hs in parse_hunks(f.read()).items():
				hunks.setdefault(fn, []).extend(hs)
	cfiles = [fn for fn in hunks if fn.endswith('.c') and compiled.get(fn)]
	objs = objects(bd, tree, cfiles)
	bd_real = os.path.realpath(bd)
	tmp = tempfile.mkdtemp(prefix='kshim-gcov-')
	files = []
	try:
		for fn in sorted(hunks):
			e = dict(file=fn)
			files.append(e)
			if not compiled.get(fn):
				e['status'] = 'not compiled'
				continue
			if not fn.endswith('.c'):
				e['status'] = 'header: coverage not attributed'
				continue
			if not objs[fn]:
				e['status'] = 'no object in compile_commands.json'
				continue
			path = os.path.join(tree, fn)
			with open(path, errors='replace') as f:
				text = f.read().splitlines()
			changed, lost = changed_lines(hunks[fn], text)
			want = os.path.realpath(path)
			gcnos = [g for g in objs[fn] if os.path.isfile(g)]
			if not gcnos:
				e['status'] = 'no .gcno: not a coverage build'
				continue
			executable = set(gcov_lines(gcnos, [None] * len(gcnos),
						    want, tmp))
			executed = set()
			by_test = {}
			per_line = {n: {} for n in changed if n in executable}
			for d in tdirs:
				gcdas = [find_gcda(os.path.join(covdir, d),
						   bd_real, os.path.realpath(g))
					 for g in gcnos]
				if not any(gcdas):
					continue
				counts = gcov_lines(gcnos, gcdas, want, tmp)
				ran = {n for n, c in counts.items() if c}
				if ran:
					name = names.get(d, d)
					by_test[name] = len(
						[n for n in changed if n in ran
						 and n in executable])
					executed |= ran
					for n in per_line:
						if counts.get(n):
							per_line[n][name] = counts[n]
			e['status'] = 'measured'
			e.update(summarise(changed, executable, executed))
			e['exercised_by'] = sorted(by_test)
			e['changed_lines_run_by_test'] = by_test
			e['lines'] = line_rows(changed, per_line)
			e['not_located'] = lost
	finally:
		shutil.rmtree(tmp, ignore_errors=True)
	return dict(files=files, tests_with_data=len(tdirs))


# ------------------------------------------------- --select: base coverage

BASE_COVDIR = 'base-gcda'
OLD_HUNK_COUNTS = re.compile(r'^@@ -(\d+)(?:,(\d+))? \+\d+(?:,(\d+))? @@')


def old_ranges(text):
	"""{file: [(first, last)]}: the lines of the unpatched file each hunk
	of a patch covers, context included (a pure insertion has only its
	context there: the code around the insertion point). Hunk bodies are
	read by their line counts, as parse_hunks() does."""
	out, cur, old, new = {}, None, 0, 0
	for line in text.splitlines():
		if old > 0 or new > 0:
			c = line[:1]
			if c in ('-', '+', ' ', ''):
				old -= c != '+'
				new -= c != '-'
				continue
			if c == '\\':
				continue
			old = new = 0
		m = re.match(r'^--- (\S+)', line)
		if m:
			parts = m.group(1).split('/', 1)
			cur = os.path.normpath(parts[1]) if len(parts) == 2 and \
				m.group(1) != '/dev/null' else None
			continue
		m = OLD_HUNK_COUNTS.match(line)
		if m and cur:
			first, old = int(m.group(1)), int(m.group(2) or 1)
			new = int(m.group(3) or 1)
			out.setdefault(cur, []).append((first, first + old - 1))
	return out


def select(bd, tree, patches, compiled, workdir):
	"""--select: which tests the patch can reach, from the base side's
	per-test coverage (WORKDIR/BASE_COVDIR, the base tests run through
	the wrapper). Returns (names or None for every test, why): a test is
	picked when on base it executed a line of a changed hunk (context
	included); a hunk with no executable line (a data or declaration
	change) picks every test that ran any code of that file; a changed
	header or other compiled non-.c file picks every test (its objects
	are not attributed); a patch of files kshim does not compile picks
	none."""
	covdir = os.path.join(workdir, BASE_COVDIR)
	ranges = {}
	for p in patches:
		with open(p, errors='replace') as f:
			for fn, rs in old_ranges(f.read()).items():
				ranges.setdefault(fn, []).extend(rs)
	files = sorted(f for f in ranges if compiled.get(f))
	if not files:
		return set(), 'the patch changes no file kshim compiles'
	headers = [f for f in files if not f.endswith('.c')]
	if headers:
		return None, 'the patch changes %s, which is not a .c file: ' \
			'every test' % ', '.join(headers)
	with open(os.path.join(covdir, 'tests.json')) as f:
		names = {test_dir(t['name']): t['name']
			 for t in json.load(f)['tests']}
	tdirs = sorted(d for d in os.listdir(covdir)
		       if os.path.isdir(os.path.join(covdir, d)))
	objs = objects(bd, tree, files)
	bd_real = os.path.realpath(bd)
	picked = set()
	tmp = tempfile.mkdtemp(prefix='kshim-gcov-')
	try:
		for fn in files:
			gcnos = [g for g in objs[fn] if os.path.isfile(g)]
			if not gcnos:
				return None, 'no base coverage of %s: every ' \
					'test' % fn
			want = os.path.realpath(os.path.join(tree, fn))
			executable = set(gcov_lines(gcnos, [None] * len(gcnos),
						    want, tmp))
			spans = [set(range(a, b + 1)) for a, b in ranges[fn]]
			data_only = any(not (s & executable) for s in spans)
			lines = set().union(*spans)
			for d in tdirs:
				gcdas = [find_gcda(os.path.join(covdir, d), bd_real,
						   os.path.realpath(g))
					 for g in gcnos]
				if not any(gcdas):
					continue
				counts = gcov_lines(gcnos, gcdas, want, tmp)
				if data_only and any(counts.values()) or \
				   any(counts.get(n) for n in lines):
					picked.add(names.get(d, d))
	finally:
		shutil.rmtree(tmp, ignore_errors=True)
	return picked, 'the tests that executed a changed hunk of %s on ' \
		'base' % ', '.join(files)


if __name__ == '__main__':
	if sys.argv[1:2] == ['wrap'] and len(sys.argv) > 2:
		wrap(sys.argv[2:])
	sys.exit('usage: python3 -m scripts.prevalidate.coverage wrap '
		 'COMMAND... (meson test --wrapper)')
