#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The pure parts of kshim prevalidate's patch coverage
(scripts/prevalidate/coverage.py): which lines of the new file a patch
changed, found where patch really put them, and the test a wrapped
command belongs to. No build needed."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
# A script (meson runs it, and so can you): the repository root goes on
# the path to import the package scripts/, as ./kshim does.
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
from scripts.prevalidate import coverage as cov  # noqa: E402

# One file, three hunks: a replacement, a pure deletion, an addition at
# the end of a hunk; a removed line that looks like a file header.
PATCH = '''Subject: example

--- a/fs/x.c
+++ b/fs/x.c
@@ -2,4 +2,4 @@
 two
-three
+THREE
 four
 five
@@ -10,5 +10,3 @@
 ten
--- eleven
-twelve
 thirteen
 fourteen
@@ -20,2 +18,3 @@
 twenty
 twentyone
+new
--- a/fs/gone.c
+++ /dev/null
@@ -1 +0,0 @@
-x
'''


def new_file():
	"""fs/x.c after PATCH, with the third hunk 2 lines lower than its
	header says (patch applied it with an offset)."""
	lines = ['one', 'two', 'THREE', 'four', 'five', 'six', 'seven',
		 'eight', 'nine', 'ten', 'thirteen', 'fourteen', 'a', 'b', 'c',
		 'd', 'e', 'f', 'g', 'twenty', 'twentyone', 'new', 'end']
	return lines


class TestChangedLines(unittest.TestCase):
	def test_hunks_are_read_by_their_counts(self):
		h = cov.parse_hunks(PATCH)
		self.assertEqual(sorted(h), ['fs/x.c'])
		self.assertEqual([x['start'] for x in h['fs/x.c']],
				 [2, 10, 18])
		self.assertEqual(h['fs/x.c'][0]['changed'], [(1, 'added')])
		# The line after the deletion point: "thirteen".
		self.assertEqual(h['fs/x.c'][1]['changed'],
				 [(1, 'after deletion')])
		self.assertEqual(h['fs/x.c'][1]['block'],
				 ['ten', 'thirteen', 'fourteen'])
		self.assertEqual(h['fs/x.c'][2]['changed'], [(2, 'added')])

	def test_lines_are_found_where_patch_put_them(self):
		h = cov.parse_hunks(PATCH)['fs/x.c']
		got, lost = cov.changed_lines(h, new_file())
		self.assertEqual(lost, 0)
		self.assertEqual(got, {3: ('THREE', 'added'),
				       11: ('thirteen', 'after deletion'),
				       22: ('new', 'added')})

	def test_a_hunk_changed_by_a_later_patch_is_not_located(self):
		h = cov.parse_hunks(PATCH)['fs/x.c']
		lines = new_file()
		lines[2] = 'changed again'
		got, lost = cov.changed_lines(h, lines)
		self.assertEqual(lost, 1)
		self.assertNotIn(3, got)

	def test_deletion_at_the_end_of_the_file_has_no_line(self):
		p = '--- a/y.c\n+++ b/y.c\n@@ -1,2 +1,1 @@\n a\n-b\n'
		h = cov.parse_hunks(p)['y.c']
		self.assertEqual(h[0]['changed'], [(1, 'after deletion')])
		self.assertEqual(cov.changed_lines(h, ['a']), ({}, 0))

	def test_replacement_counts_only_the_added_lines(self):
		p = '--- a/y.c\n+++ b/y.c\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n'
		h = cov.parse_hunks(p)['y.c']
		self.assertEqual(h[0]['changed'], [(1, 'added')])

	def test_summary_counts_executable_lines_only(self):
		changed = {3: ('x = 1;', 'added'), 4: ('/* c */', 'added'),
			   5: ('y();', 'added')}
		s = cov.summarise(changed, executable={3, 5, 9},
				  executed={3, 9})
		self.assertEqual((s['changed'], s['executable'], s['covered']),
				 (3, 2, 1))
		self.assertEqual(s['uncovered'], [dict(line=5, text='y();',
						       why='added')])


class TestOldRanges(unittest.TestCase):
	"""--select's hunks: the unpatched file's lines each one covers."""

	def test_every_hunk_with_its_context(self):
		self.assertEqual(cov.old_ranges(PATCH)['fs/x.c'],
				 [(2, 5), (10, 14), (20, 21)])

	def test_a_removed_line_like_a_header_is_no_file(self):
		self.assertNotIn('- eleven', ' '.join(cov.old_ranges(PATCH)))


class TestPick(unittest.TestCase):
	TESTS = [dict(name='t', cmd=['/b/t'], env={}),
		 dict(name='t_det', cmd=['/b/t'], env={'KSHIM_BACKEND': 'det'}),
		 dict(name='u', cmd=['/b/u', '-x'], env={})]

	def test_det_variant_is_told_from_the_plain_one(self):
		self.assertEqual(cov.pick(self.TESTS, ['/b/t'],
					  {'KSHIM_BACKEND': 'det'}), 't_det')
		self.assertEqual(cov.pick(self.TESTS, ['/b/t'], {}), 't')
		self.assertEqual(cov.pick(self.TESTS, ['/b/u', '-x'], {}), 'u')
		self.assertEqual(cov.pick(self.TESTS, ['/b/v'], {}),
				 '_unattributed')


if __name__ == '__main__':
	unittest.main()
