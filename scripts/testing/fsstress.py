# SPDX-License-Identifier: GPL-2.0
"""./kshim fsstress: the operation generator on XFS, on its own.

Runs build/tests/test_xfs_fsstress (tests/support/fsstress.h): TASKS tasks
each do OPS operations from the mix (namespace, xattr and file data
operations) on a fresh XFS image, checking every result and every byte
read against their model, then the whole tree and every file's contents
after a remount, then xfs_repair -n. Prints progress, the summary (operations and errors per
type, returns per errno, time) and, on a failed check, the line that
replays the run. Exit 0 when every check held, 1 when one failed, 2 for
bad arguments.

The operation names and their default weights are tests/support/
fsstress.c's (read from there, so this list cannot drift from it).

usage: ./kshim fsstress [--seed N] [--tasks N] [--ops N] [--mix SPEC]
                        [--geometry G] [--backend det|parallel]
                        [--builddir DIR]
  --geometry: defaults (mkfs.xfs's), rmapbt, 1k_blocks, 4k_sectors,
              smallest_log, external_log, or all
  --mix "create=20,unlink=0"   change weights of the default mix
  --mix "only:create=1,lookup=1"   only these operations
  --mix "nodata:"                  no file data operations (write to dedupe)
  --mix "only:create=1,write=4,read=2,dwrite=1,fsync=1"   mostly data
"""
import os
import random
import re
import subprocess
import sys

from scripts import REPO, ArgumentParser, Error, user_path

SOURCE = os.path.join(REPO, 'tests', 'support', 'fsstress.c')
BINARY = os.path.join('tests', 'test_xfs_fsstress')
# test_xfs_fsstress.c's tests, one per geometry: test_fsstress_NAME.
GEOMETRIES = ['defaults', 'rmapbt', '1k_blocks', '4k_sectors',
	      'smallest_log', 'external_log']


def default_mix():
	"""The generator's operations and default weights, from its source
	(fsstress_op_names[] and default_weights[])."""
	with open(SOURCE) as f:
		text = f.read()
	m = re.search(r'fsstress_op_names\[FSS_NR_OPS\] = \{(.*?)\};', text,
		      re.S)
	d = re.search(r'default_weights\[FSS_NR_OPS\] = \{(.*?)\};', text,
		      re.S)
	if not m or not d:
		raise Error('cannot find the operations in %s' % SOURCE, 1)
	names = re.findall(r'"([a-z]+)"', m.group(1))
	weights = {n.lower(): int(w) for n, w in
		   re.findall(r'\[FSS_([A-Z]+)\] = (\d+)', d.group(1))}
	return {n: weights.get(n, 0) for n in names}


def check_mix(spec, mix):
	"""The one-line errors fsstress_parse_mix() gives, before a build."""
	names = list(mix)
	body = spec[5:] if spec.startswith('only:') else spec
	weights = {} if spec.startswith('only:') else dict(mix)
	for item in body.split(','):
		name, eq, w = item.partition('=')
		if not eq or not w.isdigit():
			raise Error('--mix: "%s" is not NAME=WEIGHT' % item)
		if name not in names:
			raise Error('--mix: unknown operation "%s" (known: %s)'
				    % (name, ' '.join(names)))
		weights[name] = int(w)
	if not sum(weights.values()):
		raise Error('--mix: the weights sum to zero')


def positive(what):
	def parse(s):
		if not s.isdigit() or int(s) == 0:
			raise Error('%s must be a positive number, not "%s"'
				    % (what, s))
		return int(s)
	return parse


def main(argv=None):
	ap = ArgumentParser(prog='kshim fsstress',
			    description='The operation generator on XFS.')
	ap.add_argument('--seed', type=positive('--seed'),
			help='the run (default: a random one, printed)')
	ap.add_argument('--tasks', type=positive('--tasks'), default=4)
	ap.add_argument('--ops', type=positive('--ops'), default=400,
			help='operations per task')
	ap.add_argument('--mix', default='')
	ap.add_argument('--backend', choices=['det', 'parallel'],
			default='det')
	ap.add_argument('--geometry', choices=GEOMETRIES + ['all'],
			default='defaults',
			help='the filesystem made (test_fsstress_G)')
	ap.add_argument('--builddir', default='build')
	args = ap.parse_args(argv)

	if args.tasks > 1024:
		raise Error('--tasks: at most 1024')
	if args.mix:
		check_mix(args.mix, default_mix())
	builddir = user_path(args.builddir)
	if not os.path.isfile(os.path.join(builddir, 'build.ninja')):
		raise Error('%s is not a kshim build directory (./kshim build)'
			    % args.builddir)
	r = subprocess.run(['ninja', '-C', builddir, BINARY],
			   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
			   text=True)
	if r.returncode:
		raise Error('building %s failed:\n%s' % (BINARY, r.stderr[-2000:]),
			    1)
	seed = args.seed or random.randrange(1, 1 << 31)
	env = dict(os.environ, KSHIM_SEED=str(seed),
		   KSHIM_FSSTRESS_TASKS=str(args.tasks),
		   KSHIM_FSSTRESS_OPS=str(args.ops),
		   KSHIM_FSSTRESS_MIX=args.mix,
		   KSHIM_FSSTRESS_PROGRESS=str(max(args.ops // 10, 1)))
	if args.backend == 'det':
		env['KSHIM_BACKEND'] = 'det'
	else:
		env.pop('KSHIM_BACKEND', None)
	replay = ('./kshim fsstress --seed %d --tasks %d --ops %d%s '
		  '--geometry %s --backend %s' % (
			  seed, args.tasks, args.ops,
			  " --mix '%s'" % args.mix if args.mix else '',
			  args.geometry, args.backend))
	print('kshim fsstress: seed %d, %d task(s) x %d operations, %s, %s '
	      'backend' % (seed, args.tasks, args.ops, args.geometry,
			   args.backend), flush=True)
	cmd = [os.path.join(builddir, BINARY)]
	if args.geometry != 'all':
		cmd += ['-t', 'test_fsstress_' + args.geometry]
	proc = subprocess.Popen(cmd, env=env,
				stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
				text=True)
	keep = re.compile(r'^(fsstress|kshim: (FATAL|known|task)|.*assertion '
			  r'failed|XFS: Assertion|.*xfs_repair|WARNING|BUG)')
	for line in proc.stdout:
		if keep.match(line):
			sys.stdout.write(line)
			sys.stdout.flush()
	status = proc.wait()
	if status:
		print('kshim fsstress: FAILED (exit %d); replay: %s'
		      % (status, replay))
		return 1
	print('kshim fsstress: every check held (replay: %s)' % replay)
	return 0


if __name__ == '__main__':
	try:
		sys.exit(main())
	except Error as e:
		print('kshim fsstress: %s' % e, file=sys.stderr)
		sys.exit(e.status)
