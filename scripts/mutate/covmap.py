# SPDX-License-Identifier: GPL-2.0
"""kshim mutate: which tests reach which lines of a kernel file.

A coverage build of the same kernel tree and options as the base build
(WORKDIR/cov, -Db_coverage=true -Dcoverage_counters=single, as
prevalidate's), built once and kept. Its det tests run once through
prevalidate's per-test wrapper (scripts/prevalidate/coverage.py), each
test's .gcda files apart, at the seeds the mutants run at; gcov then
reads, per test, the lines of the file mutated. The result is cached in
WORKDIR/coverage.json per build stamp (the test binaries and the seeds):
a second run, or another file, reuses the test run.

Coverage is also kept per CUnit test (KSHIM_GCOV_PER_TEST, see the test
runner, kernel-shim/host/kshim_test_main.c): a CUnit test's counts land
in cunit/SUITE/TEST under its binary's directory, and what ran outside
every test (suite set-up and clean-up, the exit checks) in the directory
itself. A mutant is judged by whole binaries, which the union gives; the
CUnit tests that ran a survivor's lines are what its report names, since
one of them is where a missing check belongs.

Judging by CUnit tests alone was measured and dropped: on the 80
mutants of xfs_icache.c's reclaim functions (seeds 1..2, --jobs 2,
2026-12-02) it gave the same verdicts, and took 829 s of mutant time
against 611 s by binaries: a binary runs all its tests in one process,
so a mutant killed by its third test costs one start, not three.
"""

import argparse
import hashlib
import json
import os
import subprocess
import shutil
import tempfile

import scripts
from scripts.build import used_files
from scripts.prevalidate import build as pvbuild
from scripts.prevalidate import coverage as pvcov
from scripts.shared.gcov import remove_gcda

GCDA_DIR = 'cov-gcda'
# A CUnit test's name in coverage.json: TEST::SUITE/CUNIT.
UNIT_SEP = '::'


# Bumped when what coverage.json holds changes (2: per CUnit test).
LAYOUT = 2


def stamp(bd, tests, seeds):
	h = hashlib.sha256(json.dumps([LAYOUT, seeds]).encode())
	for t in sorted(tests, key=lambda t: t['name']):
		h.update(json.dumps([t['name'], t['cmd']]).encode())
		st = os.stat(t['cmd'][0])
		h.update(('%d %d' % (st.st_size, st.st_mtime_ns)).encode())
	return h.hexdigest()[:16]


def ensure_build(base_bd, covbd, progress):
	"""Configure (once) and build the coverage twin of BASE_BD."""
	opts = pvbuild.build_options(base_bd)
	a = argparse.Namespace(kernel_src=opts.get('kernel_src') or None,
			       kernel_tarball=opts.get('kernel_tarball') or None)
	pvbuild.configure('coverage build', covbd, a,
			  list(opts.get('kernel_patches') or []), progress,
			  options=pvcov.BUILD_OPTIONS)
	progress('coverage build', 'ninja -C %s' % os.path.relpath(
		covbd, scripts.REPO))
	r = subprocess.run(['ninja', '-C', covbd, '-j', '2'],
			   stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
			   text=True, errors='replace')
	if r.returncode != 0:
		raise scripts.Error('the coverage build %s failed: %s' % (
			covbd, r.stdout.strip().splitlines()[-1:]), status=1)
	mb = used_files.manifest(base_bd).get('combined_sha256')
	mc = used_files.manifest(covbd).get('combined_sha256')
	if mb != mc:
		raise scripts.Error('the coverage build %s compiles other kernel '
				    'sources than %s (manifest sha256 %s, %s)'
				    % (covbd, base_bd, mc, mb))


class CovMap:
	def __init__(self, workdir, base_bd, seeds, progress):
		self.workdir = workdir
		self.base_bd = base_bd
		self.bd = os.path.join(workdir, 'cov')
		self.seeds = seeds
		self.progress = progress
		self.path = os.path.join(workdir, 'coverage.json')

	def _load(self):
		try:
			with open(self.path) as f:
				return json.load(f)
		except (OSError, ValueError):
			return {}

	def _save(self, c):
		with open(self.path + '.tmp', 'w') as f:
			json.dump(c, f)
		os.replace(self.path + '.tmp', self.path)

	def lines_by_test(self, path, names):
		"""{test: sorted lines of PATH it executed} over the tests
		NAMES, from the cache or a run of the coverage build."""
		from scripts.mutate.tests import candidates
		ensure_build(self.base_bd, self.bd, self.progress)
		intro = pvbuild.intro_tests(self.bd)
		tests = [t for t in candidates(intro) if t['name'] in names]
		st = stamp(self.bd, tests, self.seeds)
		c = self._load()
		if c.get('stamp') != st:
			self._run_tests(intro, tests)
			c = dict(stamp=st, seeds=self.seeds, files={})
			self._save(c)
		c.setdefault('executable', {})
		if path not in c['files'] or path not in c['executable']:
			self.progress('coverage', 'gcov of %s per test' % path)
			c['files'][path], c['executable'][path] = \
				self._gcov(path)
			self._save(c)
		self.executable = c['executable'][path]
		by_test, self.cunits = {}, {}
		for unit, lines in c['files'][path].items():
			name, sep, _ = unit.partition(UNIT_SEP)
			if sep:
				self.cunits[unit] = lines
			by_test[name] = sorted(set(by_test.get(name, [])) |
					       set(lines))
		return by_test

	def cunits_reaching(self, probe):
		"""The CUnit tests (TEST::SUITE/CUNIT) whose coverage holds a
		line of PROBE, after lines_by_test()."""
		probe = set(probe)
		return sorted(u for u, lines in self.cunits.items()
			      if probe.intersection(lines))

	def _run_tests(self, intro, tests):
		self.progress('coverage run', '%d det tests, seeds 1..%d, in %s'
			      % (len(tests), self.seeds,
				 os.path.relpath(self.bd, scripts.REPO)))
		remove_gcda(self.bd)
		args, env = pvcov.prepare(self.bd, self.workdir, intro,
					  name=GCDA_DIR)
		env = dict(os.environ, KSHIM_SEEDS=str(self.seeds),
			   KSHIM_GCOV_PER_TEST='1', **env)

		def on_line(l):
			m = pvbuild.MESON_STEP.match(l)
			if m:
				self.progress('coverage run', '%s/%s %s' % (
					m.group(1), m.group(2), m.group(4)))
		pvbuild.stream(['meson', 'test', '-C', self.bd, '--no-rebuild',
				'--num-processes', '2', '--logbase',
				'mutate-coverage'] + args +
			       [t['name'] for t in tests], on_line, env=env)

	def _gcov(self, path):
		"""({test: lines of PATH it executed}, the lines of PATH
		gcov counts at all: those with code of their own)."""
		tree = used_files.tree_of(self.bd)
		covdir = os.path.join(self.workdir, GCDA_DIR)
		with open(os.path.join(covdir, 'tests.json')) as f:
			names = {pvcov.test_dir(t['name']): t['name']
				 for t in json.load(f)['tests']}
		gcnos = [g for g in pvcov.objects(self.bd, tree, [path])[path]
			 if os.path.isfile(g)]
		want = os.path.realpath(os.path.join(tree, path))
		bd_real = os.path.realpath(self.bd)
		out = {}
		executable = set()
		tmp = tempfile.mkdtemp(prefix='kshim-mutate-gcov-')
		try:
			for unit, udir in units(covdir, names):
				gcdas = [pvcov.find_gcda(udir, bd_real,
							 os.path.realpath(g))
					 for g in gcnos]
				if not any(gcdas):
					continue
				counts = pvcov.gcov_lines(gcnos, gcdas, want, tmp)
				executable.update(counts)
				ran = sorted(n for n, c in counts.items() if c)
				if ran:
					out[unit] = ran
		finally:
			shutil.rmtree(tmp, ignore_errors=True)
		return out, sorted(executable)


def units(covdir, names):
	"""(unit, directory of its .gcda files) of every test under COVDIR
	(NAMES: {directory name: meson name}): the test itself, for what ran
	outside its CUnit tests, and each CUnit test it kept apart
	(cunit/SUITE/TEST), as unit TEST::SUITE/TEST."""
	for d in sorted(os.listdir(covdir)):
		top = os.path.join(covdir, d)
		if not os.path.isdir(top):
			continue
		name = names.get(d, d)
		yield name, top
		cu = os.path.join(top, 'cunit')
		if not os.path.isdir(cu):
			continue
		for suite in sorted(os.listdir(cu)):
			for test in sorted(os.listdir(os.path.join(cu, suite))):
				yield '%s%s%s/%s' % (name, UNIT_SEP, suite,
						     test), \
					os.path.join(cu, suite, test)


def probe_lines(first, last, executable, func):
	"""The lines whose coverage says a test reached a mutant on lines
	FIRST..LAST of the function spanning FUNC = (a, b). gcov counts
	only lines with code of their own: a `break;`, a `goto out;` or a
	lone `}` has none (the jump is the line before's), so a mutant
	there would read "not reached" under tests that ran it. For such a
	mutant the nearest line before it in the function that gcov counts
	stands in: control reaches the mutant only through it or a jump to
	it, so its tests are the ones to run. This only chooses which tests
	run; a test that does not in fact reach the mutant passes."""
	own = [n for n in executable if first <= n <= last]
	if own:
		return own
	before = [n for n in executable if func[0] <= n < first]
	if before:
		return before[-1:]
	return [n for n in executable if func[0] <= n <= func[1]]
