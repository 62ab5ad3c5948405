# SPDX-License-Identifier: GPL-2.0
"""kshim prevalidate: configure, build and test one build dir, for the
normal run (main.py) and the sanitizer builds (sanitizers.py) alike.

Every failure that stops the run is CannotRun (exit 2), its message the
one-line reason.
"""

import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import time

from scripts import REPO
from scripts.prevalidate import compare as cmp

CC_ERROR = re.compile(r'^(\S+?):(\d+):(?:\d+:)? (?:fatal )?error: (.*)$')
KERNEL_PATH = re.compile(r'(?:^|/)(?:linux-patched|kernel-overlay|linux)/(.+)$')
NINJA_STEP = re.compile(r'^\[(\d+)/(\d+)\] ')
MESON_STEP = re.compile(r'^\s*(\d+)/(\d+) (\S+ / )?(\S+)\s+(\S+)')
LOGBASE = 'prevalidate'
# meson.options' kernel_tarball default: passed explicitly, so a work dir
# configured once with --kernel-tarball goes back to it when it is not given.
DEFAULT_TARBALL = '/usr/src/linux-source-6.12.tar.xz'


class CannotRun(Exception):
	"""Exit 2: the message is the one-line reason."""


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


def introspect(bd, kind):
	"""meson introspect --KIND of BD: the file meson writes on every
	(re)configure, meson-info/intro-KIND.json (the same JSON; meson
	introspect's own start-up is 0.3 s a call on the 2-core machine);
	meson introspect when the file is not there. None when neither
	gives JSON."""
	try:
		with open(os.path.join(bd, 'meson-info',
				       'intro-%s.json' % kind)) as f:
			return json.load(f)
	except (OSError, ValueError):
		pass
	r = subprocess.run(['meson', 'introspect', '--' + kind, bd],
			   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
			   text=True)
	try:
		return json.loads(r.stdout)
	except ValueError:
		return None


def build_options(bd):
	return {o['name']: o['value'] for o in introspect(bd, 'buildoptions')
		or []}


# What the last successful configure of a build dir was given (configure()).
CONFIGURED = 'kshim-configured.json'
# The overlay headers scripts/build/tree.py links at configure time.
OVERLAY = os.path.join(REPO, 'kernel-shim', 'overlay')


def configure_stamp(cmd_opts, patches):
	"""What a configure depends on beyond the build dir's options, which
	ninja's own regeneration of build.ninja (on a changed meson.build)
	does not see: the patches' bytes (a patch file edited in place keeps
	its name), and what meson runs scripts/build/tree.py for at
	configure time only, the tree.py it runs and the overlay's files."""
	def digest(path):
		try:
			with open(path, 'rb') as f:
				return hashlib.sha256(f.read()).hexdigest()
		except OSError:
			return None
	overlay = sorted(os.path.relpath(os.path.join(d, f), OVERLAY)
			 for d, _, fs in os.walk(OVERLAY) for f in fs)
	return dict(opts=cmd_opts, patches=[digest(p) for p in patches],
		    tree_py=digest(os.path.join(REPO, 'scripts', 'build',
						'tree.py')),
		    overlay=overlay)


def read_json(path):
	try:
		with open(path) as f:
			return json.load(f)
	except (OSError, ValueError):
		return None


def share_extracted_tree(frm, to):
	"""Before the first configure of build dir TO: the kernel dirs FROM's
	configure extracted from the tarball, as hard links, with its stamp,
	so that TO's configure does not extract them again (6 s on the 2-core
	machine). scripts/build/tree.py extracts anyway when the stamp is not
	that of TO's tarball and dirs; nothing writes into the tree in place
	(a patched copy's changed files get inodes of their own)."""
	src = os.path.join(frm, 'kernel')
	dst = os.path.join(to, 'kernel')
	if os.path.exists(os.path.join(dst, 'linux.stamp')) or \
	   os.path.exists(os.path.join(dst, 'linux')) or \
	   not os.path.isfile(os.path.join(src, 'linux.stamp')) or \
	   not os.path.isdir(os.path.join(src, 'linux')):
		return
	os.makedirs(dst, exist_ok=True)
	tmp = os.path.join(dst, 'linux.tmp.%d' % os.getpid())
	r = subprocess.run(['cp', '-al', '--', os.path.join(src, 'linux'),
			    tmp], stderr=subprocess.DEVNULL)
	if r.returncode != 0:
		# Another filesystem: tree.py extracts as before.
		shutil.rmtree(tmp, ignore_errors=True)
		return
	os.rename(tmp, os.path.join(dst, 'linux'))
	shutil.copy2(os.path.join(src, 'linux.stamp'),
		     os.path.join(dst, 'linux.stamp'))


def configure(side, bd, a, patches, progress, extra=(), env=None,
	      options=None):
	"""meson setup BD, or a reconfigure when an option or what
	configure_stamp() records differs from the last successful
	configure's, and always on the patched side with --kernel-src.
	EXTRA: more -D options (a sanitizer build's, which never change for
	a build dir); OPTIONS: {name: value} options compared with the build
	dir's (coverage's); ENV: added to the environment (CC: meson takes
	the compiler at the first setup only, so it is not compared)."""
	want = dict(kernel_src=a.kernel_src or '',
		    kernel_tarball=a.kernel_tarball or DEFAULT_TARBALL)
	opts = ['-D%s=%s' % kv for kv in sorted(want.items())] + \
		['-Dkernel_patches=' + ','.join(patches)] + list(extra) + \
		['-D%s=%s' % (k, str(v).lower())
		 for k, v in sorted((options or {}).items())]
	stamp_path = os.path.join(bd, CONFIGURED)
	stamp = configure_stamp(opts, patches)
	if is_configured(bd):
		cur = build_options(bd)
		same = all(cur.get(k, '') == v for k, v in want.items()) and \
			list(cur.get('kernel_patches') or []) == patches and \
			all(cur.get(k) == v for k, v in (options or {}).items())
		# The patched tree is a copy made at configure time: of the
		# extracted tarball, which only a changed option changes, or
		# of the user's --kernel-src tree, which the user may have
		# edited since (the base side reads it in place).
		copies_users_tree = bool(patches and a.kernel_src)
		if same and not copies_users_tree and \
		   read_json(stamp_path) == stamp:
			return
		moved = ['-D%s=%s' % (k, str(v).lower())
			 for k, v in sorted((options or {}).items())
			 if cur.get(k) != v]
		if moved:
			# meson 1.0's setup --reconfigure ignores a changed
			# base option (b_coverage); meson configure sets it.
			rc, out = stream(['meson', 'configure', bd] + moved,
					 lambda l: None)
			if rc != 0:
				raise CannotRun('meson configure %s %s failed: %s'
						% (bd, ' '.join(moved),
						   out.strip()[-200:]))
		cmd = ['meson', 'setup', '--reconfigure', bd] + opts
	else:
		cmd = ['meson', 'setup', bd] + opts
	progress('%s: configuring' % side, os.path.relpath(bd, REPO))
	if os.path.exists(stamp_path):
		os.unlink(stamp_path)
	rc, out = stream(cmd, lambda l: None,
			 env=dict(os.environ, **env) if env else None)
	if rc == 0:
		with open(stamp_path, 'w') as f:
			json.dump(stamp, f)
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


def build(side, bd, progress, targets=None, env=None):
	"""ninja in BD: everything, or only TARGETS (output paths). ENV:
	added to the environment (reuse.py's list)."""
	t0 = time.monotonic()
	steps = [0]

	def on_line(l):
		m = NINJA_STEP.match(l)
		if m:
			steps[0] = int(m.group(1))
			progress('%s: building' % side, '%s/%s' % m.groups())
	rc, out = stream(['ninja', '-C', bd] + list(targets or []), on_line,
			 env=dict(os.environ, **env) if env else None)
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
	return introspect(bd, 'tests') or []


def test_targets(bd, names):
	"""What ninja must build for the tests NAMES to run: the targets
	they depend on and the build outputs on their command lines, and
	the manifest. None
	when a test runs something meson does not know it needs (a script
	with no depends may run any binary): then build everything."""
	try:
		files = {t['id']: t['filename']
			 for t in introspect(bd, 'targets')}
	except (TypeError, KeyError):
		return None
	root = os.path.realpath(bd) + os.sep
	out = set()
	for t in intro_tests(bd):
		if t['name'] not in names:
			continue
		deps = t.get('depends') or []
		if not deps:
			return None
		for d in deps:
			if d not in files:
				return None
			out.update(files[d])
		out.update(c for c in t['cmd']
			   if os.path.realpath(c).startswith(root))
	# The report reads the build's manifest (the tree, the patches).
	return sorted({os.path.relpath(os.path.realpath(f), root[:-1])
		       for f in out} | {'manifest.json'})


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


