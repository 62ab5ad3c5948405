# SPDX-License-Identifier: GPL-2.0
"""The patched build reuses the base build's objects.

A patch changes a few files; the patched build dir would still compile
every file the base build dir just compiled (about 250 s of compiler
time, 90 s on two cores, in a fresh work dir). Before ninja runs on the
patched side, plan() finds each object whose compile is the base's one
with the paths moved: the same command once the patched tree and build
dir are replaced by the base's, and the same bytes in every file the base
compile read (its ninja deps: the source, every header, the generated
ones). It writes the list to WORKDIR/patched/kshim-reuse.json (for a
person reading the build dir: the copies read only the dir below), and
for each listed object, into WORKDIR/patched/kshim-reuse/, links to the
base's object and .gcno and the object's depfile (its deps in the
patched dirs).

The patched build's compiler is reuse-cc.sh beside this file
(CC="reuse-cc.sh cc", set when the patched dir is first configured).
Called for a listed object, it copies the base's object and .gcno and
the depfile ninja reads; anything else it hands to the real compiler.
Without KSHIM_REUSE (the build dir used on its own, meson's compiler
checks) it is the compiler.

What a reused object keeps of the base: its debug info and __FILE__
strings name the base's paths (the base's dir, and the repo's files
relative to it), and its
coverage counters are named after the base's object. The patch's own
files, and every file that includes a changed header, are compiled for
real, so the coverage of the changed lines comes from patched objects.
No kernel behaviour depends on a path: base and patched give the same
trace hashes for a patch that changes no code either way.
"""

import json
import os
import shlex
import shutil
import subprocess

MAP = 'kshim-reuse.json'
DEPDIR = 'kshim-reuse'
ENV = 'KSHIM_REUSE'
WRAPPER = os.path.join(os.path.dirname(os.path.abspath(__file__)),
		       'reuse-cc.sh')


def wrapper_cc(cc):
	"""The CC the patched build dir is configured with."""
	return '%s %s' % (WRAPPER, cc)


def environment(pat_bd):
	"""What the patched build's ninja runs with to copy plan()'s list."""
	return {ENV: os.path.join(os.path.realpath(pat_bd), DEPDIR)}


def first_command(bd):
	try:
		with open(os.path.join(bd, 'compile_commands.json')) as f:
			first = json.load(f)[:1]
	except (OSError, ValueError):
		return ''
	return first[0].get('command', '') if first else ''


def uses_wrapper(bd):
	"""True when BD's compiler is reuse-cc.sh (a patched dir configured
	before it existed compiles everything itself)."""
	return first_command(bd).startswith(WRAPPER + ' ')


def uses_old_wrapper(bd):
	"""True when BD was configured with the compiler this file was before
	reuse-cc.sh: configured anew, it copies again (main.py)."""
	return os.path.abspath(__file__) + ' ' in first_command(bd)


def ninja_deps(bd):
	"""{output: [dep as ninja stored it]} of BD's last build."""
	r = subprocess.run(['ninja', '-C', bd, '-t', 'deps'],
			   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
			   text=True)
	deps, cur = {}, None
	for line in r.stdout.splitlines():
		if line.startswith('    '):
			if cur is not None:
				deps[cur].append(line.strip())
		elif line.strip():
			cur = line.split(':', 1)[0]
			# A stale entry ("(STALE)") is not what built the object.
			deps[cur] = [] if '(VALID)' in line else None
			if deps[cur] is None:
				cur = None
	return {k: v for k, v in deps.items() if v}


def commands(bd):
	try:
		with open(os.path.join(bd, 'compile_commands.json')) as f:
			return {e['output']: e for e in json.load(f)}
	except (OSError, ValueError, KeyError):
		return {}


def own_cc(command):
	"""COMMAND without what runs in front of the compiler: reuse-cc.sh, or
	the ccache meson puts there when it finds one (the base build's, as
	the patched build's CC is set and meson then adds none)."""
	me = WRAPPER + ' '
	command = command[len(me):] if command.startswith(me) else command
	return command[len('ccache '):] if command.startswith('ccache ') \
		else command


def absolute(e, bd):
	"""Compile command E's arguments, each path relative to BD (a source,
	an -I dir) made absolute and its own object named OUT: the shared base
	dir (base_home.py) and a work dir's patched dir lie at different
	depths, so the same compile spells the repo's paths apart
	(../../../kernel-shim against ../../../work/main/kernel-shim), and
	meson names an object of a long path by a hash of its dir."""
	out = []
	for arg in shlex.split(own_cc(e['command'])):
		flag = '-I' if arg.startswith('-I') else ''
		path = arg[len(flag):]
		if arg in (e['output'], e['output'] + '.d'):
			arg = arg.replace(e['output'], 'OUT')
		elif (flag or not arg.startswith('-')) and '/' in path and \
		     not os.path.isabs(path):
			arg = flag + os.path.normpath(os.path.join(bd, path))
		out.append(arg)
	return out


def source(e, bd):
	return os.path.normpath(os.path.join(bd, e['file']))


def tree_of(bd):
	with open(os.path.join(bd, 'kernel', 'tree.json')) as f:
		return os.path.realpath(json.load(f)['tree'])


def mangle(path):
	# meson's name for an object of a source outside the project.
	return path.replace('/', '_')


def plan(base_bd, pat_bd):
	"""Write PAT_BD's reuse list; returns (reusable, compiles)."""
	base_bd, pat_bd = os.path.realpath(base_bd), os.path.realpath(pat_bd)
	# The tree first: it may lie inside the build dir.
	moves = [(tree_of(pat_bd), tree_of(base_bd)), (pat_bd, base_bd)]

	def to_base(s):
		for p, b in moves:
			s = s.replace(p, b)
		return s

	def to_patched(path):
		for p, b in moves:
			if path == b or path.startswith(b + os.sep):
				return p + path[len(b):]
		return path

	same = {}

	def identical(base_path, pat_path):
		if base_path not in same:
			try:
				with open(base_path, 'rb') as f, \
				     open(pat_path, 'rb') as g:
					same[base_path] = f.read() == g.read()
			except OSError:
				same[base_path] = False
		return same[base_path]

	def patched_dep(d):
		"""Base dep D (as ninja stored it) as the patched build's, or
		None when the file differs between the two."""
		bpath = os.path.normpath(os.path.join(base_bd, d))
		ppath = to_patched(bpath)
		if ppath != bpath and not identical(bpath, ppath):
			return None
		return ppath if os.path.isabs(d) else \
			os.path.relpath(ppath, pat_bd)

	# Objects share most of their deps (the kernel headers): each is
	# looked at once, not once per object (1.3 s of 1.6 s before).
	dep_in_patched = {}
	base_cmds, pat_cmds = commands(base_bd), commands(pat_bd)
	deps = ninja_deps(base_bd)
	depdir = os.path.join(pat_bd, DEPDIR)
	shutil.rmtree(depdir, ignore_errors=True)
	os.makedirs(depdir)
	# The base's compiles by source and command, as the patched side
	# would spell them (the object's own name aside).
	base_of = {(source(b, base_bd), tuple(absolute(b, base_bd))): bout
		   for bout, b in base_cmds.items()}
	objects = {}
	for out, e in pat_cmds.items():
		bout = base_of.get((to_base(source(e, pat_bd)), tuple(
			to_base(x) for x in absolute(e, pat_bd))))
		if bout not in deps or \
		   not os.path.isfile(os.path.join(base_bd, bout)):
			continue
		mine = []
		for d in deps[bout]:
			if d not in dep_in_patched:
				dep_in_patched[d] = patched_dep(d)
			if dep_in_patched[d] is None:
				break
			mine.append(dep_in_patched[d])
		else:
			listed = os.path.join(depdir, mangle(out))
			with open(listed + '.d', 'w') as f:
				f.write('%s: %s\n' % (escape(out), ' \\\n '.join(
					escape(p) for p in mine)))
			base_obj = os.path.join(base_bd, bout)
			os.symlink(base_obj, listed + '.o')
			if os.path.isfile(base_obj[:-2] + '.gcno'):
				os.symlink(base_obj[:-2] + '.gcno',
					   listed + '.gcno')
			objects[os.path.join(pat_bd, out)] = base_obj
	with open(os.path.join(pat_bd, MAP), 'w') as f:
		json.dump(objects, f)
	return len(objects), len(pat_cmds)


def escape(path):
	return path.replace(' ', '\\ ')

