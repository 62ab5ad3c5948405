# SPDX-License-Identifier: GPL-2.0
"""The patched build reuses the base build's objects.

A patch changes a few files; the patched build dir would still compile
every file the base build dir just compiled (about 250 s of compiler
time, 90 s on two cores, in a fresh work dir). Before ninja runs on the
patched side, plan() finds each object whose compile is the base's one
with the paths moved: the same command once the patched tree and build
dir are replaced by the base's, and the same bytes in every file the base
compile read (its ninja deps: the source, every header, the generated
ones). It writes the list to WORKDIR/patched/kshim-reuse.json, and the
depfile of each listed object, its deps in the patched dirs, to
WORKDIR/patched/kshim-reuse/.

The patched build's compiler is this file (CC="python3 reuse.py cc",
set when the patched dir is first configured). Called for an object in
the list, it copies the base's object and .gcno and writes the depfile
ninja reads; anything else it hands to the real compiler. Without
KSHIM_REUSE (the build dir used on its own, meson's compiler checks) it
is the compiler.

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
import sys

MAP = 'kshim-reuse.json'
DEPDIR = 'kshim-reuse'
ENV = 'KSHIM_REUSE'


def wrapper_cc(cc):
	"""The CC the patched build dir is configured with."""
	return '%s %s %s' % (sys.executable, os.path.abspath(__file__), cc)


def uses_wrapper(bd):
	"""True when BD's compiler is this file (a patched dir configured
	before it existed compiles everything itself)."""
	try:
		with open(os.path.join(bd, 'compile_commands.json')) as f:
			first = json.load(f)[:1]
	except (OSError, ValueError):
		return False
	return bool(first) and os.path.abspath(__file__) in \
		first[0].get('command', '')


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
	"""COMMAND without what runs in front of the compiler: this file, or
	the ccache meson puts there when it finds one (the base build's, as
	the patched build's CC is set and meson then adds none)."""
	me = os.path.abspath(__file__) + ' '
	i = command.find(me)
	command = command[i + len(me):] if i >= 0 else command
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
			d = os.path.join(depdir, mangle(out) + '.d')
			with open(d, 'w') as f:
				f.write('%s: %s\n' % (escape(out), ' \\\n '.join(
					escape(p) for p in mine)))
			objects[os.path.join(pat_bd, out)] = [
				os.path.join(base_bd, bout), d]
	with open(os.path.join(pat_bd, MAP), 'w') as f:
		json.dump(objects, f)
	return len(objects), len(pat_cmds)


def escape(path):
	return path.replace(' ', '\\ ')


def arg_after(argv, flag):
	for i, a in enumerate(argv[:-1]):
		if a == flag:
			return argv[i + 1]
	return None


def reuse(argv):
	"""True when ARGV's object was copied from the base build."""
	listed = os.environ.get(ENV)
	out = arg_after(argv, '-o')
	if not listed or not out or '-c' not in argv:
		return False
	try:
		with open(listed) as f:
			entry = json.load(f).get(os.path.abspath(out))
	except (OSError, ValueError):
		return False
	if not entry:
		return False
	base, prepared = entry
	shutil.copyfile(base, out)
	if os.path.isfile(base[:-2] + '.gcno'):
		shutil.copyfile(base[:-2] + '.gcno', out[:-2] + '.gcno')
	depfile = arg_after(argv, '-MF')
	if depfile:
		shutil.copyfile(prepared, depfile)
	return True


if __name__ == '__main__':
	if not reuse(sys.argv[2:]):
		os.execvp(sys.argv[1], sys.argv[1:])
