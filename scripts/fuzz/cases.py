# SPDX-License-Identifier: GPL-2.0
"""./kshim fuzz --check-cases: the fuzz targets' demonstrations
(fuzz/cases.json) still hold. Each case names a target, a demonstration
patch, libFuzzer's seed and a number of executions: with the patch, the
run from the shipped corpus must crash with every string of "expect" in
the kernel's report; on the base tree the same run must not crash. A
patched libFuzzer build of its own per case (build-fuzz-case-N, removed
afterwards), the base one in build-fuzz.
"""
import json
import os
import shutil

from scripts import REPO, Error

CASES = os.path.join(REPO, 'fuzz', 'cases.json')
FIELDS = {'target', 'patch', 'seed', 'runs', 'expect', 'why'}


def load(targets):
	with open(CASES) as f:
		cases = json.load(f)
	for i, c in enumerate(cases):
		bad = set(c) - FIELDS
		if bad or c.get('target') not in targets:
			raise Error('%s: case %d: unknown field(s) %s or target '
				    '%r' % (CASES, i, sorted(bad),
					    c.get('target')), 1)
	return cases


def one_run(a, fuzz, targets, c, builddir, work, runs=None):
	a.builddir = builddir
	a.corpus = work
	a.seed = c['seed']
	a.runs = runs or c['runs']
	a.jobs = 1
	a.time = 3600
	if os.path.isdir(work):
		shutil.rmtree(work)
	os.makedirs(work)
	crashes = os.path.join(REPO, builddir, 'fuzz-work', c['target'],
			       'crashes')
	shutil.rmtree(crashes, ignore_errors=True)
	rc = fuzz(a, c['target'], targets[c['target']])
	return rc, a.reports


def keep_crashes(bd, target, work):
	"""The patched run's crash inputs, out of its build dir (removed
	next) into the case's work dir in build-fuzz, to replay them."""
	src = os.path.join(REPO, bd, 'fuzz-work', target, 'crashes')
	if os.path.isdir(src):
		dst = os.path.join(work, 'patched-crashes')
		shutil.rmtree(dst, ignore_errors=True)
		shutil.copytree(src, dst)
		print('kshim fuzz: the patched run\'s crashes kept in %s' %
		      os.path.relpath(dst, REPO))


def check(a, targets, fuzz):
	failed = 0
	only = a.target		# one target's cases, or all
	runs = a.runs		# --runs: every case's budget instead of its own
	for i, c in enumerate(load(targets)):
		if only and c['target'] != only:
			continue
		name = os.path.basename(c['patch'])
		work = os.path.join(REPO, 'build-fuzz', 'fuzz-work', 'case-%d' % i)
		rc, _ = one_run(a, fuzz, targets, c, 'build-fuzz', work, runs)
		base_ok = rc == 0
		bd = 'build-fuzz-case-%d' % i
		if os.path.isdir(os.path.join(REPO, bd)):
			shutil.rmtree(os.path.join(REPO, bd))
		from scripts.fuzz import main as fm
		env_patch = os.path.join(REPO, c['patch'])
		fm.EXTRA_OPTIONS = ['-Dkernel_patches=' + env_patch]
		try:
			rc, reports = one_run(a, fuzz, targets, c, bd, work, runs)
		finally:
			fm.EXTRA_OPTIONS = []
			keep_crashes(bd, c['target'], work)
			shutil.rmtree(os.path.join(REPO, bd), ignore_errors=True)
		found = rc == 1 and any(all(e in r for e in c['expect'])
					for r in reports)
		print('kshim fuzz: case %d (%s, %s): base %s, patched %s' % (
			i, c['target'], name,
			'clean' if base_ok else 'CRASHED',
			'found' if found else 'NOT FOUND'))
		failed += not (base_ok and found)
	return 1 if failed else 0
