#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""kshim mutate's mutant generation (scripts/mutate/generate.py,
operators.py, source.py) on a made-up C file: what is mutated and what is
not (comments, strings, preprocessor lines, macro definitions, other
functions, lines outside --lines), every mutant keeps the line numbers,
the order and the --max sample are the same run after run; and the
coverage per CUnit test (covmap.units()). No build needed."""

import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
# A script (meson runs it, and so can you): the repository root goes on
# the path to import the package scripts/, as ./kshim does.
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
from scripts.mutate import covmap, generate, operators, source  # noqa: E402

SRC = r'''// SPDX-License-Identifier: GPL-2.0
#include "x.h"
#define LIMIT(a) ((a) < 10 && !(a))
static const char *msg = "if (a < b) spin_unlock(&l);";

static int
count_things(
	struct thing	*t)
	__releases(&t->lock)
{
	int	n = 0;

	/* if (n < 1) return; must not be mutated */
	if (!spin_trylock(&t->lock))
		return -EAGAIN;
	while (n < t->max && t->ok) {
		n += READ_ONCE(t->step);
		if (n >= 100)
			break;
	}
	WRITE_ONCE(t->seen, n);
	smp_mb();
	spin_unlock(&t->lock);
	return n;
}

static void other(void)
{
	kfree(NULL);
}
'''


def gen(**kw):
	return generate.mutants('lib/x.c', SRC, **kw)[:3]


class Generate(unittest.TestCase):
	def test_functions_found_with_their_lines(self):
		_, found, _ = gen()
		self.assertEqual(found, {'count_things': (10, 25),
					 'other': (28, 30)})

	def test_comments_strings_preprocessor_untouched(self):
		ms, _, _ = gen()
		for m in ms:
			self.assertGreater(m.line, 9, m.description)
			self.assertNotEqual(m.line, 13, m.description)

	def test_every_operator_where_a_bug_would_be(self):
		ms, _, _ = gen(funcs={'count_things'})
		got = {(m.line, m.operator, m.description) for m in ms}
		want = {
			(14, 'negate', 'if condition negated'),
			(14, 'not', '!x -> x'),
			(14, 'trylock', 'spin_trylock made blocking'),
			(14, 'trylock', 'spin_trylock result ignored'),
			(15, 'drop-jump', 'return removed'),
			(16, 'negate', 'while condition negated'),
			(16, 'relax', '< -> <='),
			(16, 'andor', '&& -> ||'),
			(17, 'update', '+= -> -='),
			(17, 'once', 'READ_ONCE -> plain read'),
			(18, 'relax', '>= -> >'),
			(18, 'const', '100 -> 101'),
			(19, 'drop-jump', 'break removed'),
			(21, 'once', 'WRITE_ONCE -> plain write'),
			(22, 'once', 'smp_mb() dropped'),
			(23, 'drop-call', 'spin_unlock() dropped'),
			(11, 'const', '0 -> 1'),
		}
		self.assertEqual(want - got, set())
		# The last statement's return is not an early one.
		self.assertNotIn((24, 'drop-jump', 'return removed'), got)

	def test_constants_keep_their_base(self):
		# mm/vmscan.c's sysctl table has a mode, 0644: C's octal,
		# which Python's int(x, 0) refuses.
		src = ('int f(int a)\n{\n'
		       '\treturn a + 0644 + 0x1f + 9 + 0;\n}\n')
		ms = generate.mutants('lib/c.c', src)[0]
		self.assertEqual(sorted(m.description for m in ms
					if m.operator == 'const'),
				 ['0 -> 1', '0644 -> 0645', '0x1f -> 0x20',
				  '9 -> 10'])

	def test_a_tracepoint_is_not_a_call_to_drop(self):
		src = ('void f(struct log *l)\n{\n'
		       '\ttrace_xfs_log_force(l, 0);\n'
		       '\txfs_log_force(l, 0);\n}\n')
		ms = generate.mutants('lib/y.c', src)[0]
		self.assertEqual([(m.line, m.description) for m in ms
				  if m.operator == 'drop-call'],
				 [(4, 'xfs_log_force() dropped')])

	def test_a_goto_is_sent_to_the_next_label(self):
		src = ('int f(int a)\n{\n'
		       '\tif (a)\n\t\tgoto out;\n'
		       '\tif (a > 1)\n\t\tgoto out_undo;\n'
		       '\tswitch (a) {\n\tcase 2:\n\tdefault:\n\t\tbreak;\n\t}\n'
		       '\treturn 0;\nout_undo:\n\tundo(a);\nout:\n'
		       '\treturn a;\n}\n')
		ms = generate.mutants('lib/z.c', src)[0]
		self.assertEqual([(m.line, m.description, m.after) for m in ms
				  if m.operator == 'redirect'],
				 [(4, 'goto out -> goto out_undo',
				   '\t\tgoto out_undo;'),
				  (6, 'goto out_undo -> goto out',
				   '\t\tgoto out;')])
		# One label: nowhere else to go.
		ms = generate.mutants('lib/z.c', src.replace(
			'\tgoto out_undo;', '\tgoto out;').replace(
			'out_undo:\n', ''))[0]
		self.assertFalse([m for m in ms if m.operator == 'redirect'])

	def test_operator_names_and_the_operator_filter(self):
		ms, _, _ = gen(funcs={'count_things'})
		self.assertTrue({m.operator for m in ms} <=
				set(operators.NAMES))
		only, _, total, _ = generate.mutants(
			'lib/x.c', SRC, funcs={'count_things'},
			ops={'drop-jump'})
		self.assertEqual(sorted(m.description for m in only),
				 ['break removed', 'return removed'])
		self.assertEqual(total, 2)

	def test_mutants_keep_line_numbers_and_change_one_place(self):
		ms, _, _ = gen()
		for m in ms:
			self.assertEqual(m.text.count('\n'), SRC.count('\n'))
			a = SRC.splitlines()
			b = m.text.splitlines()
			diff = [i + 1 for i in range(len(a)) if a[i] != b[i]]
			self.assertEqual(diff, list(range(m.lines[0],
							  m.lines[1] + 1)))
			self.assertIn('@@ -', m.diff)

	def test_the_mutated_text(self):
		ms, _, _ = gen(funcs={'count_things'})
		by = {(m.line, m.description): m.after for m in ms}
		self.assertEqual(by[(14, 'spin_trylock made blocking')],
				 '\tif (!(spin_lock(&t->lock), 1))')
		self.assertEqual(by[(21, 'WRITE_ONCE -> plain write')],
				 '\t((t->seen) = ( n));')
		self.assertEqual(by[(23, 'spin_unlock() dropped')], '\t;')

	def test_lines_and_function_restrict(self):
		ms, _, _ = gen(funcs={'count_things'}, lines=(16, 17))
		self.assertTrue(ms)
		self.assertTrue(all(16 <= m.lines[0] and m.lines[1] <= 17
				    for m in ms))
		ms, _, _ = gen(funcs={'other'})
		self.assertEqual([m.description for m in ms],
				 ['kfree() dropped'])

	def test_order_and_sample_are_fixed(self):
		a, _, total = gen()
		b, _, _ = gen()
		self.assertEqual([m.hash for m in a], [m.hash for m in b])
		self.assertEqual(len({m.hash for m in a}), total)
		s1, _, _ = gen(max_n=5)
		s2, _, _ = gen(max_n=5)
		self.assertEqual([m.hash for m in s1], [m.hash for m in s2])
		self.assertEqual(len(s1), 5)
		self.assertEqual([m.line for m in s1],
				 sorted(m.line for m in s1))

	def test_inactive_lines_are_not_mutated(self):
		# As if lines 16-20 were in an #if 0 branch.
		active = set(range(1, 40)) - set(range(16, 21))
		ms, _, total, inactive = generate.mutants(
			'lib/x.c', SRC, funcs={'count_things'}, active=active)
		self.assertTrue(all(not 16 <= m.line <= 20 for m in ms))
		self.assertEqual(inactive, 9)
		self.assertEqual(total, len(ms))

	def test_mask_keeps_offsets(self):
		code = source.mask(SRC)
		self.assertEqual(len(code), len(SRC))
		self.assertNotIn('LIMIT', code)
		self.assertNotIn('must not', code)

	def test_a_line_gcov_does_not_count_takes_the_line_before(self):
		# SRC's count_things(): lines 14-15 are the trylock's if and
		# return, 18-19 the inner if and its `break;`. Say gcov counts
		# 14, 15, 16, 17, 18 and 21 (a break has no code of its own).
		executable = [14, 15, 16, 17, 18, 21]
		func = (7, 23)
		self.assertEqual(covmap.probe_lines(15, 15, executable, func),
				 [15])
		# The break: the if before it stands in.
		self.assertEqual(covmap.probe_lines(19, 19, executable, func),
				 [18])
		# A mutant over several lines keeps those gcov counts.
		self.assertEqual(covmap.probe_lines(16, 19, executable, func),
				 [16, 17, 18])
		# Nothing before it in the function: the function's lines.
		self.assertEqual(covmap.probe_lines(8, 9, executable, (8, 16)),
				 [14, 15, 16])


class Units(unittest.TestCase):
	"""Coverage per CUnit test: each binary's directory, and each CUnit
	test it kept apart (the runner's KSHIM_GCOV_PER_TEST)."""

	def test_a_test_and_each_cunit_test_it_kept_apart(self):
		with tempfile.TemporaryDirectory() as d:
			for rel in ('test_x_det/kernel-shim', 'test_x_det/cunit/'
				    'sx/test_a/mm', 'test_x_det/cunit/sx/test_b',
				    'scenario_y/xfs'):
				os.makedirs(os.path.join(d, rel))
			open(os.path.join(d, 'tests.json'), 'w').close()
			got = list(covmap.units(d, {'test_x_det': 'test_x_det',
						    'scenario_y': 'scenario y'}))
		self.assertEqual([u for u, _ in got], [
			'scenario y', 'test_x_det', 'test_x_det::sx/test_a',
			'test_x_det::sx/test_b'])
		self.assertTrue(got[2][1].endswith('test_x_det/cunit/sx/test_a'))


if __name__ == '__main__':
	unittest.main()
