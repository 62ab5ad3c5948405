# SPDX-License-Identifier: GPL-2.0
"""kshim mutate: build a mutant fast, from the base build dir, without
touching it.

Only the mutated object is compiled: the exact command that compiled the
file in the base build (compile_commands.json), pointed at the mutated
copy in a scratch dir of the job. The copy is not in the kernel overlay,
so two flags keep it compiled as the original was: -iquote the overlay
directory of the file (its quoted includes find the overlay's stand-ins
first, as from the file's own directory), and -fmacro-prefix-map (its
__FILE__ is the original path, so WARN and ASSERT strings are the same).

Only the binaries that run are relinked: their link command (ninja -t
commands -s), with the static library holding the object replaced by a
thin archive of the same members but the mutated object, and the output
in the scratch dir. The base build's files are only read.

Equivalent by compiler: the mutated object, debug info stripped, is byte
for byte the unmutated copy compiled the same way (the mutants keep line
numbers, so nothing but the code can differ).
"""

import json
import os
import re
import shlex
import subprocess

import scripts
from scripts.prevalidate.build import KERNEL_PATH

DROP_FLAGS = {'-fdiagnostics-color=always'}
# Mutants (and the unmutated copy they are compared with) are compiled as
# Debian's 6.12 kernel is, with CONFIG_INIT_STACK_ALL_ZERO=y: a mutant
# that reads a stack variable it never set (a cursor released on a path
# that never took it) reads zero, as in the kernel users run, not what
# the previous call happened to leave in that slot. Only here: the base
# build leaves stack variables uninitialised, so that valgrind still sees
# such reads in the tests.
STACK_INIT = ['-ftrivial-auto-var-init=zero']
LINEMARKER = re.compile(r'^# (\d+) "([^"]*)"')


def run(cmd, cwd, timeout=600):
	return subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE,
			      stderr=subprocess.STDOUT, text=True,
			      errors='replace', timeout=timeout)


class Base:
	"""What the base build dir BD tells about one kernel file."""

	def __init__(self, bd):
		self.bd = os.path.realpath(bd)
		try:
			with open(os.path.join(self.bd,
					       'compile_commands.json')) as f:
				self.cc = json.load(f)
		except (OSError, ValueError):
			raise scripts.Error('%s is not a built build dir (no '
					    'compile_commands.json); run '
					    './kshim build' % bd)
		self.archives = self._archives()
		self._links = {}

	def entry(self, path):
		"""The compile_commands.json entry compiling kernel file PATH
		(fs/xfs/xfs_icache.c), or None."""
		for e in self.cc:
			m = KERNEL_PATH.search(e['file'])
			if m and m.group(1) == path and \
			   e['file'].endswith('.c') and \
			   '/kernel-overlay/' in e['file']:
				return e
		return None

	def _archives(self):
		"""{archive: [member objects]} from build.ninja's
		STATIC_LINKER rules (build-dir relative paths)."""
		out = {}
		with open(os.path.join(self.bd, 'build.ninja')) as f:
			for line in f:
				m = re.match(r'build (\S+\.a): STATIC_LINKER (.*)$',
					     line.rstrip('\n'))
				if m:
					out[m.group(1)] = m.group(2).split(' | ')[0]\
						.split()
		return out

	def archive_of(self, obj):
		for a, members in sorted(self.archives.items()):
			if obj in members:
				return a
		return None

	def link_command(self, binary):
		"""The command that links BINARY (build-dir relative)."""
		if binary not in self._links:
			r = run(['ninja', '-t', 'commands', '-s', binary], self.bd)
			lines = [l for l in r.stdout.splitlines() if l.strip()]
			self._links[binary] = shlex.split(lines[-1]) \
				if r.returncode == 0 and lines else None
		return self._links[binary]


class Builder:
	"""Compiles and links mutants of one file in the scratch dir JOBDIR."""

	def __init__(self, base, path, jobdir):
		self.base, self.path, self.jobdir = base, path, jobdir
		e = base.entry(path)
		self.entry = e
		self.obj = e['output']
		self.archive = base.archive_of(self.obj)
		self.src = os.path.join(jobdir, 'src', path)
		os.makedirs(os.path.dirname(self.src), exist_ok=True)
		overlay = os.path.dirname(e['file'])
		argv = shlex.split(e['command'])
		# meson puts a ccache it finds in front of the compiler; the
		# flags below go to the compiler, and a mutant is never cached.
		if os.path.basename(argv[0]) == 'ccache':
			argv = argv[1:]
		cmd = [argv[0], '-iquote', overlay,
		       '-fmacro-prefix-map=%s=%s' % (
			       os.path.join(jobdir, 'src'),
			       e['file'][:-len(path) - 1])]
		skip = 0
		for a in argv[1:]:
			if skip:
				skip -= 1
				continue
			if a in ('-MQ', '-MF', '-o'):
				skip = 1
				continue
			if a == '-MD' or a in DROP_FLAGS:
				continue
			if a == '-c':
				skip = 1
				continue
			cmd.append(a)
		self.cc = cmd + STACK_INIT

	def compile(self, text, out):
		"""Compile TEXT as the file into OUT; (ok, first error)."""
		with open(self.src, 'w') as f:
			f.write(text)
		r = run(self.cc + ['-o', out, '-c', self.src],
			self.entry['directory'])
		if r.returncode != 0:
			errs = [l for l in r.stdout.splitlines()
				if ' error: ' in l]
			return False, (errs[0] if errs else
				       r.stdout.strip()[-200:])
		return True, ''

	def active_lines(self, text):
		"""The lines of TEXT the compiler sees: gcc -E
		-fdirectives-only evaluates every #if with the build's flags
		but expands no macro, so each line of an active branch comes out
		as it is (those of an inactive one as blank lines or a jump).
		None when the preprocessor fails."""
		with open(self.src, 'w') as f:
			f.write(text)
		r = run(self.cc + ['-E', '-fdirectives-only', self.src],
			self.entry['directory'])
		if r.returncode != 0:
			return None
		active, cur, n = set(), None, 0
		for line in r.stdout.splitlines():
			m = LINEMARKER.match(line)
			if m:
				n, cur = int(m.group(1)), m.group(2)
				continue
			if cur == self.src and line.strip():
				active.add(n)
			n += 1
		return active

	def stripped(self, obj):
		"""OBJ's bytes without debug info (what the code is)."""
		out = obj + '.nodebug'
		r = run(['objcopy', '--strip-debug', '-R', '.comment', obj, out],
			self.jobdir)
		if r.returncode != 0:
			return None
		with open(out, 'rb') as f:
			data = f.read()
		os.unlink(out)
		return data

	def archive_with(self, obj):
		"""A thin archive: the base's archive of the file, its object
		replaced by OBJ. Returns its path."""
		members = [os.path.join(self.base.bd, m) if m != self.obj else
			   obj for m in self.base.archives[self.archive]]
		out = os.path.join(self.jobdir, 'lib', self.archive)
		os.makedirs(os.path.dirname(out), exist_ok=True)
		if os.path.exists(out):
			os.unlink(out)
		r = run(['gcc-ar', 'csrDT', out] + members, self.jobdir)
		if r.returncode != 0:
			raise scripts.Error('gcc-ar failed: %s' % r.stdout.strip(),
					    status=1)
		return out

	def link(self, binary, obj, archive):
		"""Relink BINARY (build-dir relative) with OBJ in place of the
		file's object; returns the new binary's path, or (None,
		why)."""
		cmd = self.base.link_command(binary)
		if cmd is None:
			return None, 'no link command for %s' % binary
		out = os.path.join(self.jobdir, 'bin', binary)
		os.makedirs(os.path.dirname(out), exist_ok=True)
		new = []
		it = iter(range(len(cmd)))
		for i in it:
			a = cmd[i]
			if a == '-o':
				new += ['-o', out]
				next(it, None)
			elif a == self.obj:
				new.append(obj)
			elif self.archive and a == self.archive:
				new.append(archive)
			else:
				new.append(a)
		r = run(new, self.base.bd)
		if r.returncode != 0:
			return None, r.stdout.strip().splitlines()[-1:]
		return out, ''
