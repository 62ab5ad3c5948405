# SPDX-License-Identifier: GPL-2.0
"""kshim mutate: the mutants of one kernel .c file, in a fixed order.

A mutant is one operator (operators.py) applied once, inside the bodies
of the functions asked for (--function, default every function) and the
lines asked for (--lines). Order: by line, column, operator; --max N
keeps a sample of N drawn with a fixed seed, in the same order, so the
same command gives the same mutants.

A mutant's hash names it across runs and line shifts (the equivalents
file uses it): sha1 of the file, function, operator, the changed lines'
old and new text, and its rank among mutants with the same of these.
"""

import bisect
import hashlib
import random

from scripts.mutate import operators, source


class Mutant:
	def __init__(self, **kw):
		self.__dict__.update(kw)

	def to_json(self):
		return {k: v for k, v in self.__dict__.items()
			if k not in ('text',)}


def apply(text, edits):
	out = []
	pos = 0
	for a, b, rep in sorted(edits, key=lambda e: (e[0], e[1])):
		out.append(text[pos:a])
		out.append(rep)
		pos = b
	out.append(text[pos:])
	return ''.join(out)


def mutants(path, text, funcs=None, lines=None, max_n=None,
	    sample_seed=1, active=None, ops=None):
	"""(mutants, {function: (first line, last line)}, how many before
	--max, how many in inactive #if branches) of TEXT, the file PATH
	(tree-relative). FUNCS: names to keep (None: all); LINES: (a, b)
	inclusive; ACTIVE: the lines the compiler sees (None: all), the
	others are not mutated; OPS: operators to keep (None: all)."""
	code = source.mask(text)
	toks = source.tokens(code)
	starts = [0] + [i + 1 for i, c in enumerate(text) if c == '\n']

	def line(off):
		return bisect.bisect_right(starts, off)
	found = {}
	raw = []
	inactive = 0
	for name, o, c in source.functions(toks):
		found[name] = (line(toks[o].start), line(toks[c].start))
		if funcs is not None and name not in funcs:
			continue
		body = operators.Body(text, toks, o + 1, c)
		for op, desc, edits, off in operators.all_mutations(
				body, toks[o].depth + 1):
			ln = line(off)
			first = min(line(e[0]) for e in edits)
			last = max(line(e[1]) for e in edits)
			if lines and not (lines[0] <= first and last <= lines[1]):
				continue
			if ops is not None and op not in ops:
				continue
			if active is not None and ln not in active:
				inactive += 1
				continue
			raw.append((ln, off, op, desc, edits, name, first, last))
	raw.sort(key=lambda r: (r[0], r[1], r[2], r[3]))
	out = []
	seen = {}
	old_lines = text.splitlines(True)
	for ln, off, op, desc, edits, name, first, last in raw:
		new = apply(text, edits)
		new_lines = new.splitlines(True)
		before = ''.join(old_lines[first - 1:last])
		after = ''.join(new_lines[first - 1:last])
		key = (path, name, op, before, after)
		rank = seen.get(key, 0)
		seen[key] = rank + 1
		h = hashlib.sha1(repr(key + (rank,)).encode()).hexdigest()[:12]
		out.append(Mutant(id=len(out) + 1, hash=h, file=path,
				  function=name, line=ln,
				  column=off - starts[ln - 1] + 1,
				  operator=op, description=desc,
				  lines=[first, last],
				  before=before.rstrip('\n'),
				  after=after.rstrip('\n'),
				  diff=unified_at(path, old_lines, new_lines,
						  first, last),
				  text=new))
	total = len(out)
	if max_n is not None and max_n < total:
		keep = sorted(random.Random(sample_seed).sample(range(total),
								max_n))
		out = [out[i] for i in keep]
	return out, found, total, inactive


def unified_at(path, old_lines, new_lines, first, last, context=3):
	"""The mutant's diff, with line numbers: both sides have the same
	lines, so one window of CONTEXT lines around FIRST..LAST."""
	a = max(first - 1 - context, 0)
	b = min(last + context, len(old_lines))
	n = b - a
	head = '--- a/%s\n+++ b/%s\n@@ -%d,%d +%d,%d @@\n' % (
		path, path, a + 1, n, a + 1, n)
	body = []
	for i in range(a, first - 1):
		body.append(' ' + old_lines[i])
	for i in range(first - 1, last):
		body.append('-' + old_lines[i])
	for i in range(first - 1, last):
		body.append('+' + new_lines[i])
	for i in range(last, b):
		body.append(' ' + old_lines[i])
	return head + ''.join(l if l.endswith('\n') else l + '\n'
			      for l in body)
