#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Where kshim prevalidate keeps the base side (scripts/prevalidate/
base_home.py): one directory per kernel source, whatever the work dir, so
that a new work dir reuses a base built before; another source, another
directory; --base-dir as given; and a run that finds the directory in use
waits for it and says so."""

import os
import subprocess
import sys
import tempfile
import time
import types
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
from scripts import REPO  # noqa: E402
from scripts.prevalidate import base_home  # noqa: E402

TARBALL = '/usr/src/linux-source-6.12.tar.xz'


def args(workdir='w1', kernel_src=None, kernel_tarball=None, base_dir=None):
	return types.SimpleNamespace(workdir=workdir, kernel_src=kernel_src,
				     kernel_tarball=kernel_tarball,
				     base_dir=base_dir)


class Where(unittest.TestCase):
	def test_work_dirs_share_the_base_of_one_source(self):
		self.assertEqual(base_home.resolve(args('w1'), TARBALL),
				 base_home.resolve(args('/tmp/w2'), TARBALL))

	def test_the_default_tarball_is_the_default(self):
		self.assertEqual(base_home.resolve(args(), TARBALL),
				 base_home.resolve(args(kernel_tarball=TARBALL),
						   TARBALL))

	def test_another_source_has_its_own_base(self):
		seen = {base_home.resolve(a, TARBALL) for a in (
			args(), args(kernel_tarball='/srv/linux-6.12.107.tar.xz'),
			args(kernel_src='/home/me/linux'),
			args(kernel_src='/home/you/linux'))}
		self.assertEqual(len(seen), 4)

	def test_the_name_says_which_source(self):
		d = os.path.basename(base_home.resolve(args(), TARBALL))
		self.assertTrue(d.startswith('linux-source-6.12-'), d)
		d = os.path.basename(base_home.resolve(
			args(kernel_src='/home/me/linux-git'), TARBALL))
		self.assertTrue(d.startswith('linux-git-'), d)
		self.assertEqual(os.path.dirname(base_home.resolve(
			args(), TARBALL)), base_home.BASES)

	def test_base_dir_as_given(self):
		self.assertEqual(base_home.resolve(args(base_dir='/x/b'),
						   TARBALL), '/x/b')
		self.assertEqual(base_home.resolve(args(base_dir='b'), TARBALL),
				 os.path.join(REPO, 'b'))


class Lock(unittest.TestCase):
	def test_a_second_run_waits_and_says_so(self):
		with tempfile.TemporaryDirectory() as home:
			said = []
			with base_home.held(home, lambda *a: said.append(a)):
				self.assertEqual(said, [])
				# Another process: flock is per open file.
				other = subprocess.run([
					sys.executable, '-c',
					'import fcntl, os, sys\n'
					'fd = os.open(sys.argv[1], os.O_RDWR)\n'
					'try:\n'
					'    fcntl.flock(fd, fcntl.LOCK_EX | '
					'fcntl.LOCK_NB)\n'
					'except BlockingIOError:\n'
					'    sys.exit(7)\n',
					os.path.join(home, base_home.LOCK)])
				self.assertEqual(other.returncode, 7)
			# Released at the end of the run; a run that finds it
			# held waits, and says so.
			holder = subprocess.Popen([
				sys.executable, '-c',
				'import fcntl, os, sys, time\n'
				'fd = os.open(sys.argv[1], os.O_RDWR)\n'
				'fcntl.flock(fd, fcntl.LOCK_EX)\n'
				'print("held", flush=True)\n'
				'time.sleep(0.5)\n',
				os.path.join(home, base_home.LOCK)],
				stdout=subprocess.PIPE, text=True)
			self.addCleanup(holder.stdout.close)
			self.assertEqual(holder.stdout.readline(), 'held\n')
			t0 = time.monotonic()
			with base_home.held(home, lambda *a: said.append(a)):
				waited = time.monotonic() - t0
			holder.wait()
			self.assertGreater(waited, 0.3)
			self.assertEqual(len(said), 1)
			self.assertEqual(said[0][0], 'waiting')
			self.assertIn(home, said[0][1])

if __name__ == '__main__':
	unittest.main()
