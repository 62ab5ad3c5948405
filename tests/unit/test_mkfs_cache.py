# SPDX-License-Identifier: GPL-2.0
"""KSHIM_MKFS_CACHE (xfs/kshim_xfs_image_cache.c), through an XFS test
that mounts, unmounts and xfs_repair -n checks its image:

- the first run keeps each image it makes, sparse (under a quarter of
  its size on disk; the 64 MiB image takes 204 KiB);
- the second run's images come from the cache and still mount and pass
  the check: the copy kept every data extent of the image, past its
  holes too (an AG header or the log left out fails the mount);
- with the cached images emptied the same run fails, so it did read them.

usage: test_mkfs_cache.py TEST_XFS_LOG_BINARY
"""

import os
import subprocess
import sys
import tempfile
import unittest

BINARY = None
TEST = ['-s', 'mount', '-t', 'test_mount_and_unmount_write_an_unmount_record']


def run(cache):
	env = dict(os.environ, KSHIM_MKFS_CACHE=cache, KSHIM_BACKEND='det',
		   KSHIM_SEED='1')
	return subprocess.run([BINARY] + TEST, env=env, stdout=subprocess.PIPE,
			      stderr=subprocess.STDOUT, text=True)


class TestMkfsCache(unittest.TestCase):
	def test_kept_sparse_reused_and_read(self):
		with tempfile.TemporaryDirectory() as cache:
			r = run(cache)
			self.assertEqual(r.returncode, 0, r.stdout[-2000:])
			images = sorted(os.listdir(cache))
			self.assertTrue(images, 'nothing cached')
			for name in images:
				st = os.stat(os.path.join(cache, name))
				self.assertLess(st.st_blocks * 512, st.st_size // 4,
						'%s is not sparse' % name)
			r = run(cache)
			self.assertEqual(r.returncode, 0, r.stdout[-2000:])
			self.assertEqual(sorted(os.listdir(cache)), images)
			for name in images:
				path = os.path.join(cache, name)
				size = os.stat(path).st_size
				with open(path, 'r+b') as f:
					f.truncate(0)
					f.truncate(size)
			r = run(cache)
			self.assertNotEqual(r.returncode, 0,
					    'emptied cached images were not read')
			self.assertIn('Invalid superblock magic number', r.stdout)


if __name__ == '__main__':
	BINARY = sys.argv.pop(1)
	unittest.main()
