# SPDX-License-Identifier: GPL-2.0
"""A seed sweep's verdicts as KCIDB JSON (KernelCI's common report
schema, v5.3: kcidb-io's kcidb_io/schema/v05_03.py), for
./kshim test --seeds N --kcidb FILE, so that a kernel CI can submit them
with kcidb-submit.

- checkout: the kernel code compiled, the tree and the patches applied
  (BUILDDIR/manifest.json). Its id is the manifest's combined sha256,
  which covers every kernel file compiled and every patch.
- build: kshim's configuration, its commit and the build's meson
  options, on that checkout.
- tests: one per CUnit test and seed, at path
  kshim.MESONTEST.SUITE.TEST (KCIDB paths are dot-separated), status
  PASS, FAIL, SKIP or ERROR (a run that says nothing of its tests); misc
  has the seed, the shard, the trace hash and the command that replays
  it. A det verdict depends on the build and the seed alone, so a test's
  id is made of them: the same run submitted twice is one test.

Every shard writes its own file with the same checkout and build ids;
KCIDB merges objects by id, so the shards' files are submitted as they
are, with no merge step.
"""

import hashlib
import json
import os
import platform
import subprocess

import scripts

SCHEMA = {'major': 5, 'minor': 3}


def _read_json(path):
	try:
		with open(path) as f:
			return json.load(f)
	except (OSError, ValueError):
		return None


def kshim_commit():
	r = subprocess.run(['git', '-C', scripts.REPO, 'rev-parse', 'HEAD'],
			   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
			   text=True)
	return r.stdout.strip() if r.returncode == 0 else 'unknown'


def build_options(bd):
	"""The meson options that change what a test does: kshim's own and
	the sanitizers."""
	opts = _read_json(os.path.join(bd, 'meson-info',
				       'intro-buildoptions.json')) or []
	keep = {o['name']: o['value'] for o in opts
		if o.get('section') == 'user' or o['name'] in
		('b_sanitize', 'b_coverage', 'buildtype')}
	return dict(sorted(keep.items()))


def compiler():
	"""The C compiler's first --version line, as meson found it (cc);
	None if it does not answer."""
	try:
		r = subprocess.run(['cc', '--version'], stdout=subprocess.PIPE,
				   stderr=subprocess.DEVNULL, text=True)
	except OSError:
		return None
	lines = r.stdout.splitlines()
	return lines[0].strip() if r.returncode == 0 and lines else None


def path_of(v):
	parts = ['kshim', v['test']]
	if not v['case'].startswith('('):
		parts += v['case'].split('/')
	return '.'.join(parts)


def report(vs, bd, shard, nseeds, origin='kshim'):
	"""The KCIDB object for verdicts VS of build dir BD."""
	man = _read_json(os.path.join(bd, 'manifest.json'))
	if not man:
		raise scripts.Error('%s/manifest.json is missing or unreadable: '
				    'the KCIDB checkout is made of it' % bd,
				    status=1)
	patches = man.get('patches') or []
	patchset = hashlib.sha256(''.join(
		p['sha256'] + '\n' for p in patches).encode()).hexdigest() \
		if patches else ''
	checkout_id = '%s:%s' % (origin, man['combined_sha256'][:24])
	commit, options = kshim_commit(), build_options(bd)
	build_hash = hashlib.sha256(json.dumps(
		[man['combined_sha256'], commit, options]).encode()).hexdigest()
	build_id = '%s:%s' % (origin, build_hash[:24])
	checkout = {
		'id': checkout_id, 'origin': origin,
		'tree_name': 'linux-%s' % man.get('kernel_version'),
		'patchset_hash': patchset, 'valid': True,
		'comment': 'Linux %s from %s, %d patch(es)' % (
			man.get('kernel_version'), man.get('source') or
			man.get('tree'), len(patches)),
		'misc': {'kernel_version': man.get('kernel_version'),
			 'source': man.get('source'), 'tree': man.get('tree'),
			 'patches': patches,
			 'files_compiled': len(man.get('files') or {}),
			 'combined_sha256': man['combined_sha256']},
	}
	build = {
		'id': build_id, 'checkout_id': checkout_id, 'origin': origin,
		'architecture': platform.machine().lower().replace('-', '_'),
		'config_name': 'kshim',
		'status': 'PASS',
		'comment': 'kshim %s: the kernel files compiled in userspace, '
		'deterministic backend' % commit[:12],
		'misc': {'kshim_commit': commit, 'meson_options': options},
	}
	if compiler():
		build['compiler'] = compiler()   # KCIDB allows no null
	tests = []
	for v in vs:
		path = path_of(v)
		t = {'id': '%s:%s.%s.%s' % (origin, build_hash[:12], path,
					    's%d' % v['seed'] if v['seed']
					    is not None else 'sweep'),
		     'build_id': build_id, 'origin': origin, 'path': path,
		     'status': v['status'],
		     'misc': {'seed': v['seed'], 'shard': str(shard),
			      'seeds': '1..%d' % nseeds,
			      'meson_test': v['test']}}
		if v['replay']:
			t['misc']['replay'] = v['replay']
		if v['hash']:
			t['misc']['trace_hash'] = v['hash']
		if v['status'] != 'PASS':
			t['log_excerpt'] = v['detail'][:16384]
		if v['seed'] is None:
			del t['misc']['seed']
		tests.append(t)
	return {'version': SCHEMA, 'checkouts': [checkout], 'builds': [build],
		'tests': tests}


def write(vs, bd, shard, nseeds, path, origin='kshim'):
	with open(path, 'w') as f:
		json.dump(report(vs, bd, shard, nseeds, origin), f, indent=1)
		f.write('\n')
