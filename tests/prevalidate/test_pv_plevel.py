#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""kshim prevalidate's -p level of a patch (scripts/prevalidate/plevel.py):
found from its file names, rewritten to the -p1 form; and the times of
the patched tree's files when it is copied again for the next patch set
(scripts/build/tree.py keep_times); the patched tree as hard links that
never change the extracted tree; the base's extracted tree shared with
the patched build dir. No build needed."""

import os
import sys
import tarfile
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
from scripts.build import tree  # noqa: E402
from scripts.prevalidate import build as pvbuild  # noqa: E402
from scripts.prevalidate import plevel  # noqa: E402

P0 = '''A comment.

--- fs/xfs/xfs_log.c\t2024-01-01
+++ fs/xfs/xfs_log.c\t2024-01-02
@@ -1,2 +1,2 @@
--- a line that looks like a header
+++ another one
'''


class TestLevel(unittest.TestCase):
	def test_levels_by_name(self):
		def d(paths):
			return plevel.detect(paths, paths)
		self.assertEqual(d(['a/fs/x.c', 'b/fs/x.c']), 1)
		self.assertEqual(d(['fs/x.c']), 0)
		self.assertEqual(d(['linux/a/mm/x.c']), 2)
		# Both fit -p0 and -p1 (a dir named mm under fs/?): -p1.
		self.assertEqual(d(['fs/mm/x.c']), 1)
		self.assertIsNone(d(['drivers/x.c', 'a/b.c']))

	def test_levels_in_the_tree(self):
		with tempfile.TemporaryDirectory() as tree:
			os.makedirs(os.path.join(tree, 'fs/mm'))
			os.makedirs(os.path.join(tree, 'block'))
			open(os.path.join(tree, 'fs/mm/x.c'), 'w').close()
			open(os.path.join(tree, 'block/y.c'), 'w').close()
			self.assertEqual(plevel.detect(['fs/mm/x.c'],
						       ['fs/mm/x.c'], tree), 0)
			# block/ fits by name at -p2, but not loop.c.
			self.assertIsNone(plevel.detect(
				['x/drivers/block/loop.c'],
				['x/drivers/block/loop.c'], tree))
			# A new file need not exist.
			self.assertEqual(plevel.detect(
				['a/block/y.c'], ['a/block/y.c', 'b/block/new.c'],
				tree), 1)

	def test_p0_is_rewritten_and_hunk_bodies_are_left_alone(self):
		with tempfile.TemporaryDirectory() as d:
			src = os.path.join(d, 'x.patch')
			with open(src, 'w') as f:
				f.write(P0)
			out, level = plevel.normalise(src, d, 1)
			self.assertEqual(level, 0)
			with open(out) as f:
				text = f.read()
		self.assertIn('--- a/fs/xfs/xfs_log.c\t2024-01-01\n', text)
		self.assertIn('+++ b/fs/xfs/xfs_log.c\t2024-01-02\n', text)
		self.assertIn('\n--- a line that looks like a header\n', text)
		self.assertIn('\n+++ another one\n', text)

	def test_p1_is_used_as_it_is(self):
		with tempfile.TemporaryDirectory() as d:
			src = os.path.join(d, 'x.patch')
			with open(src, 'w') as f:
				f.write(P0.replace('--- fs', '--- a/fs').replace(
					'+++ fs', '+++ b/fs'))
			self.assertEqual(plevel.normalise(src, d, 1), (src, 1))

	def test_no_level_fits_names_the_levels(self):
		with tempfile.TemporaryDirectory() as d:
			src = os.path.join(d, 'x.patch')
			with open(src, 'w') as f:
				f.write('--- x/drivers/y.c\n+++ x/drivers/y.c\n'
					'@@ -1 +1 @@\n-a\n+b\n')
			with self.assertRaises(ValueError) as e:
				plevel.normalise(src, d, 1)
		self.assertIn('-p level from 0 to', str(e.exception))



class TestKeepTimes(unittest.TestCase):
	"""The copy for the next patch set: the source's times (cp -a), the
	last patched tree next to it."""

	def tree(self, d, name, text, t):
		p = os.path.join(d, name)
		os.makedirs(os.path.dirname(p), exist_ok=True)
		with open(p, 'w') as f:
			f.write(text)
		os.utime(p, (t, t))
		return p

	def test_reverted_file_is_newer_and_rerun_keeps_it(self):
		with tempfile.TemporaryDirectory() as d:
			old, new = os.path.join(d, 'old'), os.path.join(d, 'new')
			# The last set patched mm/a.c (time 500); b.c untouched.
			self.tree(old, 'mm/a.c', 'patched', 500)
			self.tree(old, 'mm/b.c', 'same', 100)
			a = self.tree(new, 'mm/a.c', 'original', 100)
			b = self.tree(new, 'mm/b.c', 'same', 100)
			tree.keep_times(new, old)
			# Reverted: newer than anything built from the patch.
			self.assertGreater(os.stat(a).st_mtime, 500)
			self.assertEqual(os.stat(b).st_mtime, 100)
			t = os.stat(a).st_mtime_ns
			# The same set copied again (meson's regeneration): the
			# reverted file keeps the time the first copy gave it.
			again = os.path.join(d, 'again')
			a2 = self.tree(again, 'mm/a.c', 'original', 100)
			tree.keep_times(again, new)
			self.assertEqual(os.stat(a2).st_mtime_ns, t)

	def test_same_patch_again_keeps_its_time(self):
		with tempfile.TemporaryDirectory() as d:
			old, new = os.path.join(d, 'old'), os.path.join(d, 'new')
			self.tree(old, 'fs/x.c', 'patched', 500)
			x = self.tree(new, 'fs/x.c', 'patched', 900)
			tree.keep_times(new, old)
			self.assertEqual(os.stat(x).st_mtime, 500)


class TestLinkedCopy(unittest.TestCase):
	"""apply_patches(link=True): the patched tree is hard links to the
	extracted one, and nothing done to it reaches the extracted tree."""

	PATCH = ('--- a/mm/a.c\n+++ b/mm/a.c\n@@ -1 +1 @@\n-one\n+two\n')

	def write(self, path, text, t=100):
		os.makedirs(os.path.dirname(path), exist_ok=True)
		with open(path, 'w') as f:
			f.write(text)
		os.utime(path, (t, t))

	def source(self, d):
		"""D/linux with mm/a.c and mm/b.c, and D/1.patch changing a.c:
		(tree, work dir, patch)."""
		src = os.path.join(d, 'linux')
		self.write(os.path.join(src, 'mm/a.c'), 'one\n')
		self.write(os.path.join(src, 'mm/b.c'), 'b\n')
		p1 = os.path.join(d, '1.patch')
		with open(p1, 'w') as f:
			f.write(self.PATCH)
		return src, os.path.join(d, 'w'), p1

	def test_source_untouched_across_two_patch_sets(self):
		with tempfile.TemporaryDirectory() as d:
			src, work, p1 = self.source(d)
			p2 = os.path.join(d, '2.patch')
			with open(p2, 'w') as f:
				f.write(self.PATCH.replace('a.c', 'b.c').replace(
					'-one\n+two', '-b\n+c'))
			out, _, _ = tree.apply_patches(src, work, ['mm'], [p1],
						       link=True)
			sa, sb = (os.path.join(src, 'mm', n + '.c') for n in 'ab')
			pa, pb = (os.path.join(out, 'mm', n + '.c') for n in 'ab')
			self.assertEqual(os.stat(pb).st_ino, os.stat(sb).st_ino)
			self.assertNotEqual(os.stat(pa).st_ino,
					    os.stat(sa).st_ino)
			# The next set reverts a.c: a newer time in the patched
			# tree, the extracted tree's file as it was.
			out, _, _ = tree.apply_patches(src, work, ['mm'], [p2],
						       link=True)
			self.assertGreater(os.stat(pa).st_mtime, 100)
			self.assertEqual(os.stat(sa).st_mtime, 100)
			self.assertEqual(os.stat(sb).st_mtime, 100)
			for path, text in ((sa, 'one\n'), (sb, 'b\n'),
					   (pa, 'one\n'), (pb, 'c\n')):
				with open(path) as f:
					self.assertEqual(f.read(), text, path)

	def test_no_links_into_a_users_tree(self):
		with tempfile.TemporaryDirectory() as d:
			src, work, p1 = self.source(d)
			out, _, _ = tree.apply_patches(src, work, ['mm'], [p1])
			self.assertNotEqual(
				os.stat(os.path.join(out, 'mm/b.c')).st_ino,
				os.stat(os.path.join(src, 'mm/b.c')).st_ino)


class TestSharedExtraction(unittest.TestCase):
	"""prevalidate's patched build dir starts from the base's extracted
	tree (build.share_extracted_tree()), and tree.py keeps it only when
	its stamp is that of the same tarball."""

	def tarball(self, d, name, text):
		top = os.path.join(d, name + '-src', 'linux-x')
		os.makedirs(os.path.join(top, 'mm'))
		with open(os.path.join(top, 'Makefile'), 'w') as f:
			f.write('VERSION = 6\nPATCHLEVEL = 12\n')
		with open(os.path.join(top, 'mm', 'a.c'), 'w') as f:
			f.write(text)
		path = os.path.join(d, name + '.tar.gz')
		with tarfile.open(path, 'w:gz') as t:
			t.add(top, arcname='linux-x')
		return path

	def test_same_tarball_shared_other_extracted(self):
		with tempfile.TemporaryDirectory() as d:
			one = self.tarball(d, 'one', 'one\n')
			base, pat = os.path.join(d, 'base'), os.path.join(d, 'pat')
			tree.extract(one, os.path.join(base, 'kernel'),
				     ['Makefile', 'mm'])
			pvbuild.share_extracted_tree(base, pat)
			tree.extract(one, os.path.join(pat, 'kernel'),
				     ['Makefile', 'mm'])
			a = 'kernel/linux/mm/a.c'
			self.assertEqual(os.stat(os.path.join(pat, a)).st_ino,
					 os.stat(os.path.join(base, a)).st_ino)
			# Another tarball: extracted, not the shared files.
			other = os.path.join(d, 'other')
			pvbuild.share_extracted_tree(base, other)
			two = self.tarball(d, 'two', 'two\n')
			tree.extract(two, os.path.join(other, 'kernel'),
				     ['Makefile', 'mm'])
			with open(os.path.join(other, a)) as f:
				self.assertEqual(f.read(), 'two\n')
			with open(os.path.join(base, a)) as f:
				self.assertEqual(f.read(), 'one\n')


if __name__ == '__main__':
	unittest.main()
