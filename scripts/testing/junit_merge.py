# SPDX-License-Identifier: GPL-2.0
"""./kshim junit-merge: one report of a sharded seed sweep.

  ./kshim junit-merge -o ALL.xml SHARD.xml...   the shards' JUnit files
                                                 (./kshim test --seeds N
                                                 --shard K/N) as one
  ./kshim junit-merge --verdicts SHARD.xml...   one line per test and seed,
                                                 sorted: "TEST CASE STATUS
                                                 [TRACE_HASH]"

Refused (exit 2, one line): a file that is not a shard's report, shards
of different sweeps (N or the seeds differ), a shard given twice, a shard
missing (its seeds would go unchecked while the report looks whole), or
a test and seed reported by two shards. Exit 1 when the merged sweep has
a failure or an error, 0 otherwise.
"""

import argparse
import re
import sys
import xml.etree.ElementTree as ET

import scripts


class Parser(argparse.ArgumentParser):
	def error(self, message):
		raise scripts.Error('%s (see ./kshim junit-merge --help)'
				    % message)


def read_shard(path):
	"""(K, N, seeds, [testsuite elements]) of one shard's file."""
	try:
		root = ET.parse(path).getroot()
	except (OSError, ET.ParseError) as e:
		raise scripts.Error('%s: not a readable JUnit file: %s'
				    % (path, e))
	suites = root.findall('testsuite') if root.tag == 'testsuites' \
		else [root]
	shards = set()
	for ts in suites:
		props = {p.get('name'): p.get('value')
			 for p in ts.findall('properties/property')}
		shards.add((props.get('kshim.shard'), props.get('kshim.seeds')))
	if len(shards) != 1 or None in next(iter(shards)):
		raise scripts.Error('%s: not one shard of a kshim seed sweep '
				    '(no kshim.shard and kshim.seeds properties, '
				    'or several)' % path)
	shard, seeds = shards.pop()
	k, n = (int(x) for x in shard.split('/'))
	return k, n, seeds, suites


def status(tc):
	for tag, st in (('failure', 'FAIL'), ('error', 'ERROR'),
			('skipped', 'SKIP')):
		if tc.find(tag) is not None:
			return st
	return 'PASS'


def merge(paths):
	"""The merged <testsuites> of the shard files PATHS."""
	shards, sweep, tests = {}, None, {}
	for path in paths:
		k, n, seeds, suites = read_shard(path)
		if sweep is None:
			sweep = (n, seeds)
		elif sweep != (n, seeds):
			raise scripts.Error(
				'%s: shard %d/%d of seeds %s, but %s is of %d '
				'shards of seeds %s: not the same sweep'
				% (path, k, n, seeds, paths[0], sweep[0],
				   sweep[1]))
		if k in shards:
			raise scripts.Error('shard %d/%d is given twice: %s and %s'
					    % (k, n, shards[k], path))
		shards[k] = path
		for ts in suites:
			mine = tests.setdefault(ts.get('name'), {})
			for tc in ts.findall('testcase'):
				name = tc.get('name')
				if name in mine:
					raise scripts.Error(
						'%s %s is in two shards\' reports '
						'(%s): a shard ran a seed of '
						'another' % (ts.get('name'), name,
							    path))
				mine[name] = tc
	missing = [k for k in range(1, sweep[0] + 1) if k not in shards]
	if missing:
		raise scripts.Error('shard(s) %s of %d missing: their seeds '
				    'would go unchecked' % (
					    ', '.join('%d/%d' % (k, sweep[0])
						      for k in missing),
					    sweep[0]))
	root = ET.Element('testsuites', name='kshim seed sweep')
	totals = dict(tests=0, failures=0, errors=0, skipped=0)
	for name in sorted(tests):
		cases = tests[name]
		ts = ET.SubElement(root, 'testsuite', name=name)
		props = ET.SubElement(ts, 'properties')
		ET.SubElement(props, 'property', name='kshim.shards',
			      value=str(sweep[0]))
		ET.SubElement(props, 'property', name='kshim.seeds',
			      value=sweep[1])
		counts = dict(tests=0, failures=0, errors=0, skipped=0)
		for cname in sorted(cases, key=sort_key):
			tc = cases[cname]
			ts.append(tc)
			st = status(tc)
			counts['tests'] += 1
			counts['failures'] += st == 'FAIL'
			counts['errors'] += st == 'ERROR'
			counts['skipped'] += st == 'SKIP'
		for k, c in counts.items():
			ts.set(k, str(c))
			totals[k] += c
	for k, c in totals.items():
		root.set(k, str(c))
	return root


def sort_key(name):
	"""By seed, then test: "SUITE/TEST seed=12"."""
	case, _, seed = name.rpartition(' seed=')
	return (int(seed), case) if seed.isdigit() else (0, name)


def main(argv):
	ap = Parser(prog='kshim junit-merge', description=__doc__.split(
		'\n\n')[0], formatter_class=argparse.RawDescriptionHelpFormatter,
		epilog=__doc__.split('\n\n', 1)[1])
	ap.add_argument('files', nargs='+', metavar='SHARD.xml')
	g = ap.add_mutually_exclusive_group(required=True)
	g.add_argument('-o', dest='out', metavar='ALL.xml',
		       help='write the merged JUnit file here')
	g.add_argument('--verdicts', action='store_true',
		       help='print one line per test and seed instead')
	a = ap.parse_args(argv)
	root = merge(a.files)
	if a.verdicts:
		for ts in root.findall('testsuite'):
			for tc in ts.findall('testcase'):
				out = tc.findtext('system-out') or ''
				h = re.search(r'trace hash (\w+)', out)
				print('%s %s %s%s' % (ts.get('name'),
						      tc.get('name').replace(' ', '_'),
						      status(tc), ' ' + h.group(1)
						      if h else ''))
	else:
		ET.indent(root)
		ET.ElementTree(root).write(a.out, encoding='utf-8',
					   xml_declaration=True)
		print('kshim junit-merge: %s: %s test(s) and seeds, %s '
		      'failure(s), %s error(s), %s skipped, from %d shard(s)'
		      % (a.out, root.get('tests'), root.get('failures'),
			 root.get('errors'), root.get('skipped'),
			 len(a.files)))
	sys.stdout.flush()
	return 1 if int(root.get('failures')) or int(root.get('errors')) \
		else 0
