#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""kshim prevalidate's reuse of the base build's objects
(scripts/prevalidate/reuse.py), on two small ninja build dirs laid out as
prevalidate's are (a build dir, its kernel tree, compile_commands.json):
an object whose source and headers are the same bytes on both sides is
copied, with a depfile in the patched dirs; one that reads a changed
header, or is compiled with another command, is compiled; a patched dir
at another depth than the base (the shared base, base_home.py), whose
compiles spell the repo's files by other relative paths and whose object
meson names otherwise, still copies; without the list the wrapper is the
compiler."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
from scripts.prevalidate import reuse  # noqa: E402

NINJA = '''rule cc
  command = $cc -g -MD -MQ $out -MF $out.d -o $out -c $in $flags
  depfile = $out.d
  deps = gcc
build a.o: cc {tree}/a.c
  flags = -I{tree}
build b.o: cc {tree}/b.c
  flags = -I{tree}{extra}
build {c_obj}: cc {c_src}
  flags = -I{c_inc}
'''


def repo_file(root):
	"""ROOT/repo/c.c, a file of the repo both sides compile by a path
	relative to their build dirs."""
	path = os.path.join(root, 'repo', 'c.c')
	if not os.path.exists(path):
		os.makedirs(os.path.dirname(path))
		with open(path, 'w') as f:
			f.write('int c(void) { return 3; }\n')
	return path


def side(root, name, header, extra='', cc='cc', c_obj='c.o'):
	"""A build dir ROOT/NAME whose tree has a.c (including h.h, HEADER's
	text) and b.c (including nothing); b.o gets EXTRA flags; the repo's
	c.c is compiled by a relative path into C_OBJ."""
	bd = os.path.join(root, name)
	c_src = os.path.relpath(repo_file(root), bd)
	c_inc = os.path.dirname(c_src)
	tree = os.path.join(bd, 'kernel', 'linux')
	os.makedirs(tree)
	files = {'a.c': '#include "h.h"\nint a(void) { return H; }\n',
		 'b.c': 'int b(void) { return 2; }\n', 'h.h': header}
	for f, text in files.items():
		with open(os.path.join(tree, f), 'w') as fh:
			fh.write(text)
	with open(os.path.join(bd, 'kernel', 'tree.json'), 'w') as f:
		json.dump({'tree': tree}, f)
	with open(os.path.join(bd, 'build.ninja'), 'w') as f:
		f.write('cc = %s\n' % cc + NINJA.format(
			tree=tree, extra=extra, c_obj=c_obj, c_src=c_src,
			c_inc=c_inc))
	cmds = [dict(directory=bd, output=o, file=os.path.join(tree, c),
		     command='%s -g -MD -MQ %s -MF %s.d -o %s -c %s -I%s%s' % (
			     cc, o, o, o, os.path.join(tree, c), tree,
			     extra if o == 'b.o' else ''))
		for o, c in (('a.o', 'a.c'), ('b.o', 'b.c'))]
	cmds.append(dict(directory=bd, output=c_obj, file=c_src,
			 command='%s -g -MD -MQ %s -MF %s.d -o %s -c %s -I%s' % (
				 cc, c_obj, c_obj, c_obj, c_src, c_inc)))
	with open(os.path.join(bd, 'compile_commands.json'), 'w') as f:
		json.dump(cmds, f)
	return bd


def ninja(bd, env=None):
	r = subprocess.run(['ninja', '-C', bd], stdout=subprocess.PIPE,
			   stderr=subprocess.STDOUT, text=True,
			   env=dict(os.environ, **(env or {})))
	assert r.returncode == 0, r.stdout
	return r.stdout


class TestReuse(unittest.TestCase):
	def setUp(self):
		self.root = tempfile.mkdtemp(prefix='kshim-pv-reuse-')
		self.base = side(self.root, 'base', '#define H 1\n')
		ninja(self.base)
		self.addCleanup(shutil.rmtree, self.root)

	def patched(self, header, extra='', name='patched', c_obj='c.o'):
		bd = side(self.root, name, header, extra,
			  cc=reuse.wrapper_cc('cc'), c_obj=c_obj)
		self.assertTrue(reuse.uses_wrapper(bd))
		n, of = reuse.plan(self.base, bd)
		out = ninja(bd, reuse.environment(bd))
		return bd, n, of, out

	def same(self, bd, obj):
		with open(os.path.join(self.base, obj), 'rb') as f, \
		     open(os.path.join(bd, obj), 'rb') as g:
			return f.read() == g.read()

	def test_unchanged_objects_are_copied(self):
		bd, n, of, _ = self.patched('#define H 1\n')
		self.assertEqual((n, of), (3, 3))
		self.assertTrue(self.same(bd, 'a.o'))
		# ninja took the patched side's deps from the written depfile.
		deps = subprocess.run(['ninja', '-C', bd, '-t', 'deps', 'a.o'],
				      stdout=subprocess.PIPE, text=True).stdout
		self.assertIn(os.path.join(bd, 'kernel/linux/h.h'), deps)
		self.assertNotIn(self.base, deps)

	def test_an_object_reading_a_changed_header_is_compiled(self):
		bd, n, _, _ = self.patched('#define H 7\n')
		self.assertEqual(n, 2)
		self.assertFalse(self.same(bd, 'a.o'))
		self.assertTrue(self.same(bd, 'b.o'))

	def test_another_command_is_compiled(self):
		bd, n, _, _ = self.patched('#define H 1\n', ' -DX=1')
		self.assertEqual(n, 2)
		self.assertTrue(self.same(bd, 'a.o'))
		self.assertFalse(self.same(bd, 'b.o'))

	def test_a_patched_dir_at_another_depth_copies(self):
		bd, n, of, _ = self.patched('#define H 1\n',
					    name='work/dir/patched',
					    c_obj='c.p/0a1b2c_c.o')
		self.assertEqual((n, of), (3, 3))
		with open(os.path.join(self.base, 'c.o'), 'rb') as f, \
		     open(os.path.join(bd, 'c.p/0a1b2c_c.o'), 'rb') as g:
			self.assertEqual(f.read(), g.read())

	def test_a_launcher_in_front_is_not_part_of_the_command(self):
		# meson puts a ccache it finds in front of the base's cc.
		for cmd in ('ccache cc -c x.c', reuse.wrapper_cc('cc') +
			    ' -c x.c', 'cc -c x.c'):
			self.assertEqual(reuse.own_cc(cmd), 'cc -c x.c')

	def test_without_the_list_it_is_the_compiler(self):
		bd = side(self.root, 'patched', '#define H 1\n',
			  cc=reuse.wrapper_cc('cc'))
		ninja(bd)
		self.assertTrue(os.path.isfile(os.path.join(bd, 'a.o')))
		self.assertFalse(os.path.exists(os.path.join(bd, reuse.MAP)))

	def test_an_old_wrapper_is_told_apart(self):
		# A dir configured with reuse.py as CC (before reuse-cc.sh) is
		# made anew by main.py; it does not count as using the wrapper.
		old = 'python3 %s cc' % os.path.join(
			os.path.dirname(reuse.WRAPPER), 'reuse.py')
		bd = side(self.root, 'patched', '#define H 1\n', cc=old)
		self.assertTrue(reuse.uses_old_wrapper(bd))
		self.assertFalse(reuse.uses_wrapper(bd))
		self.assertFalse(reuse.uses_old_wrapper(self.base))


if __name__ == '__main__':
	unittest.main()
