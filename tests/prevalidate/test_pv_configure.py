#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""kshim prevalidate's configure step (scripts/prevalidate/build.py), on a
made-up build dir with meson replaced by a recorder: a build dir is
configured again when a patch's bytes, an option or the overlay headers
change (not the compiler, which meson takes at the first setup only),
and not when the same patch comes again, unless the tree is the user's
(--kernel-src), which they may have edited; a failed configure leaves
no record that would skip the next one; the introspection files are
read as meson wrote them."""

import argparse
import json
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
from scripts.prevalidate import build  # noqa: E402


class Configure(unittest.TestCase):
	def setUp(self):
		self.tmp = tempfile.TemporaryDirectory()
		self.bd = os.path.join(self.tmp.name, 'patched')
		os.makedirs(os.path.join(self.bd, 'meson-private'))
		os.makedirs(os.path.join(self.bd, 'meson-info'))
		open(os.path.join(self.bd, 'meson-private', 'coredata.dat'),
		     'w').close()
		self.patch = os.path.join(self.tmp.name, 'a.patch')
		self.write_patch('--- a/x.c\n+++ b/x.c\n')
		self.a = argparse.Namespace(kernel_src=None, kernel_tarball=None)
		self.calls = []
		self.rc = 0
		self.saved = build.stream
		build.stream = self.fake_stream
		self.options(build.DEFAULT_TARBALL, [self.patch])

	def tearDown(self):
		build.stream = self.saved
		self.tmp.cleanup()

	def write_patch(self, text):
		with open(self.patch, 'w') as f:
			f.write(text)

	def options(self, tarball, patches, src=''):
		"""The build dir's options, as meson-info has them."""
		opts = [dict(name='kernel_src', value=src),
			dict(name='kernel_tarball', value=tarball),
			dict(name='kernel_patches', value=patches),
			dict(name='b_coverage', value=True)]
		with open(os.path.join(self.bd, 'meson-info',
				       'intro-buildoptions.json'), 'w') as f:
			json.dump(opts, f)

	def fake_stream(self, cmd, on_line, env=None, cwd=None):
		self.calls.append(cmd)
		return self.rc, ''

	def configure(self, cc='cc', patches=None):
		n = len(self.calls)
		build.configure('patched', self.bd, self.a,
				[self.patch] if patches is None else patches,
				lambda *x: None, options={'b_coverage': True},
				env={'CC': cc} if cc else None)
		return self.calls[n:]

	def test_base_side_is_configured_once(self):
		# No patches (the base): configured once for the record,
		# then not again while nothing changed.
		self.options(build.DEFAULT_TARBALL, [])
		self.assertEqual(len(self.configure(patches=[])), 1)
		self.assertEqual(self.configure(patches=[]), [])

	def test_new_overlay_header_configures_again(self):
		# tree.py links the overlay at configure time only.
		overlay = os.path.join(self.tmp.name, 'overlay')
		os.makedirs(os.path.join(overlay, 'mm'))
		saved, build.OVERLAY = build.OVERLAY, overlay
		try:
			self.configure()
			open(os.path.join(overlay, 'mm', 'internal.h'),
			     'w').close()
			self.assertEqual(len(self.configure()), 1)
			self.assertEqual(self.configure(), [])
		finally:
			build.OVERLAY = saved

	def test_same_patch_is_not_configured_again(self):
		self.assertEqual(len(self.configure()), 1)
		self.assertEqual(self.configure(), [])

	def test_changed_patch_bytes_configure_again(self):
		self.configure()
		self.write_patch('--- a/x.c\n+++ b/x.c\n@@ -1 +1 @@\n')
		calls = self.configure()
		self.assertEqual(len(calls), 1)
		self.assertIn('--reconfigure', calls[0])
		self.assertEqual(self.configure(), [])

	def test_users_tree_is_copied_again_every_time(self):
		# --kernel-src: the patched tree is a copy of a tree the
		# user may have edited since the last run.
		self.a.kernel_src = '/src/linux'
		self.options(build.DEFAULT_TARBALL, [self.patch], '/src/linux')
		self.assertEqual(len(self.configure()), 1)
		self.assertEqual(len(self.configure()), 1)

	def test_compiler_is_not_compared(self):
		# meson takes CC at the first setup only; the sanitizer
		# builds pass it then and not after.
		self.configure()
		self.assertEqual(self.configure(cc=None), [])

	def test_changed_option_configures_again(self):
		self.configure()
		self.options('/elsewhere.tar.xz', [self.patch])
		self.assertEqual(len(self.configure()), 1)

	def test_failed_configure_is_not_remembered(self):
		# A configured; B fails, leaving the dir half made; A again
		# must be configured, not skipped on A's old record.
		self.configure()
		self.write_patch('--- a/y.c\n+++ b/y.c\n')
		self.rc = 1
		with self.assertRaises(build.CannotRun):
			self.configure()
		self.rc = 0
		self.write_patch('--- a/x.c\n+++ b/x.c\n')
		self.assertEqual(len(self.configure()), 1)


class Introspect(unittest.TestCase):
	def test_reads_meson_info(self):
		with tempfile.TemporaryDirectory() as bd:
			os.makedirs(os.path.join(bd, 'meson-info'))
			tests = [dict(name='t', cmd=['x'], depends=[])]
			with open(os.path.join(bd, 'meson-info',
					       'intro-tests.json'), 'w') as f:
				json.dump(tests, f)
			self.assertEqual(build.intro_tests(bd), tests)

	def test_no_build_dir_gives_nothing(self):
		with tempfile.TemporaryDirectory() as bd:
			self.assertEqual(build.intro_tests(bd), [])
			self.assertEqual(build.build_options(bd), {})
			self.assertIsNone(build.test_targets(bd, ['t']))


if __name__ == '__main__':
	unittest.main()
