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


def stamp(bd, tests, seeds):
	h = hashlib.sha256(json.dumps(seeds).encode())
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
		return c['files'][path]

	def _run_tests(self, intro, tests):
		self.progress('coverage run', '%d det tests, seeds 1..%d, in %s'
			      % (len(tests), self.seeds,
				 os.path.relpath(self.bd, scripts.REPO)))
		remove_gcda(self.bd)
		args, env = pvcov.prepare(self.bd, self.workdir, intro,
					  name=GCDA_DIR)
		env = dict(os.environ, KSHIM_SEEDS=str(self.seeds), **env)

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
			for d in sorted(os.listdir(covdir)):
				if not os.path.isdir(os.path.join(covdir, d)):
					continue
				gcdas = [pvcov.find_gcda(os.path.join(covdir, d),
							 bd_real,
							 os.path.realpath(g))
					 for g in gcnos]
				if not any(gcdas):
					continue
				counts = pvcov.gcov_lines(gcnos, gcdas, want, tmp)
				executable.update(counts)
				ran = sorted(n for n, c in counts.items() if c)
				if ran:
					out[names.get(d, d)] = ran
		finally:
			shutil.rmtree(tmp, ignore_errors=True)
		return out, sorted(executable)


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
