# SPDX-License-Identifier: GPL-2.0
"""kshim mutate: the mutation operators, as the bugs of real patches look.

Each operator looks at the tokens of one function body (source.py) and
yields edits (start, end, replacement) on the file's text. Every edit
keeps the file's newlines where they were, so the mutated file has the
same line numbers as the original: __LINE__ in the kernel's WARN/ASSERT
messages does not move, and a mutant the compiler folds away gives the
very same object code (see build.py's equivalence check).

  negate      if/while condition negated: if (c) -> if (!(c))
  relax       a comparison relaxed or flipped: < <=, > >=, == !=
  andor       && -> ||, || -> &&
  not         !x -> x
  trylock     a trylock made blocking, or its result ignored
  drop-call   a call that unlocks, wakes, puts, frees, waits, forces or
              completes, dropped (its ';' kept)
  drop-jump   an early goto/return/continue/break removed
  redirect    a goto sent to the function's next label instead (the
              wrong error path: a cleanup skipped or done twice)
  update      += <-> -=, ++ <-> --
  const       an integer constant changed: 0 -> 1, N -> N+1 (a bound off
              by one)
  once        READ_ONCE/WRITE_ONCE/smp_load_acquire/smp_store_release
              made plain accesses, smp_*mb() barriers dropped
"""

import re

from scripts.mutate.source import match_paren

# Every operator's name, as mutants and --operator give them.
NAMES = ('negate', 'relax', 'andor', 'not', 'trylock', 'drop-call',
	 'drop-jump', 'redirect', 'update', 'const', 'once')

RELAX = {'<': '<=', '<=': '<', '>': '>=', '>=': '>', '==': '!=',
	 '!=': '=='}
# Calls whose loss is a classic concurrency or resource bug.
DROP_CALL = re.compile(r'(^|_)(unlock|wake|wakeup|put|free|rele|relse|'
		       r'release|wait|force|complete|up|unpin|clear_bit)'
		       r'(_|$)|^(up|kfree|iput|complete\w*|wake_up\w*)$')
# A tracepoint (trace_xfs_log_force()) only reports: dropping it is no
# bug a patch could make, though its name says "force".
TRACEPOINT = re.compile(r'trace_\w+$')
# Never a "call" to drop: statements and annotations.
KEYWORDS = {'if', 'while', 'for', 'switch', 'return', 'sizeof', 'do',
	    'else', 'case', 'goto', 'typeof', '__typeof__'}
# name -> (blocking replacement, value the trylock returns on success)
TRYLOCK = {
	'spin_trylock': ('spin_lock', '1'),
	'raw_spin_trylock': ('raw_spin_lock', '1'),
	'read_trylock': ('read_lock', '1'),
	'write_trylock': ('write_lock', '1'),
	'mutex_trylock': ('mutex_lock', '1'),
	'down_read_trylock': ('down_read', '1'),
	'down_write_trylock': ('down_write', '1'),
	'down_trylock': ('down', '0'),
	'xfs_ilock_nowait': ('xfs_ilock', 'true'),
	'xfs_buf_trylock': ('xfs_buf_lock', 'true'),
	'spin_trylock_irqsave': ('spin_lock_irqsave', '1'),
}
BARRIERS = {'smp_mb', 'smp_rmb', 'smp_wmb', 'smp_mb__before_atomic',
	    'smp_mb__after_atomic', 'smp_mb__after_spinlock'}
STMT_START = {';', '{', '}', ':', 'else'}


def keep_newlines(text):
	"""TEXT removed, its newlines kept (the line numbers stay)."""
	return '\n' * text.count('\n')


class Body:
	"""One function body: TOKS[lo:hi] (the tokens between its braces)
	of TEXT."""

	def __init__(self, text, toks, lo, hi):
		self.text, self.toks, self.lo, self.hi = text, toks, lo, hi

	def span(self, a, b):
		"""Original text from token a to token b inclusive."""
		return self.text[self.toks[a].start:self.toks[b].end]

	def stmt_start(self, i):
		"""Whether token i begins a statement."""
		p = i - 1
		if p < self.lo:
			return True
		t = self.toks[p].text
		if t in STMT_START:
			return True
		if t == ')':
			o = match_paren(self.toks, p)
			return o is not None and o > 0 and \
				self.toks[o - 1].text in ('if', 'while', 'for')
		return False


def negate(b):
	for i in range(b.lo, b.hi):
		t = b.toks[i]
		if t.text not in ('if', 'while') or b.toks[i + 1].text != '(':
			continue
		c = match_paren(b.toks, i + 1)
		if c is None or c == i + 2:
			continue
		# do { } while (c); is negated like any loop condition.
		o, e = b.toks[i + 2].start, b.toks[c - 1].end
		yield ('negate', '%s condition negated' % t.text,
		       [(o, o, '!('), (e, e, ')')], b.toks[i + 2].start)


def relax(b):
	for i in range(b.lo, b.hi):
		t = b.toks[i]
		if t.text in RELAX:
			yield ('relax', '%s -> %s' % (t.text, RELAX[t.text]),
			       [(t.start, t.end, RELAX[t.text])], t.start)
		elif t.text in ('&&', '||'):
			r = '||' if t.text == '&&' else '&&'
			yield ('andor', '%s -> %s' % (t.text, r),
			       [(t.start, t.end, r)], t.start)
		elif t.text == '!':
			yield ('not', '!x -> x', [(t.start, t.end, '')],
			       t.start)
		elif t.text in ('+=', '-='):
			r = '-=' if t.text == '+=' else '+='
			yield ('update', '%s -> %s' % (t.text, r),
			       [(t.start, t.end, r)], t.start)
		elif t.text in ('++', '--'):
			r = '--' if t.text == '++' else '++'
			yield ('update', '%s -> %s' % (t.text, r),
			       [(t.start, t.end, r)], t.start)


def call_end(b, i):
	"""For NAME( at token i: the index of its ')' and whether a ';'
	follows it, ending the statement."""
	if i + 1 >= b.hi or b.toks[i + 1].text != '(':
		return None, False
	c = match_paren(b.toks, i + 1)
	if c is None or c >= b.hi:
		return None, False
	return c, c + 1 < b.hi and b.toks[c + 1].text == ';'


def calls(b):
	for i in range(b.lo, b.hi):
		t = b.toks[i]
		name = t.text
		if not re.match(r'[A-Za-z_]\w*$', name) or name in KEYWORDS:
			continue
		c, is_stmt = call_end(b, i)
		if c is None:
			continue
		if name in TRYLOCK:
			blk, ok = TRYLOCK[name]
			args = b.span(i + 2, c - 1) if c > i + 2 else ''
			yield ('trylock', '%s made blocking' % name,
			       [(t.start, b.toks[c].end, '(%s(%s), %s)' % (
				       blk, args, ok))], t.start)
			if not is_stmt:
				yield ('trylock', '%s result ignored' % name,
				       [(t.start, t.start, '('),
					(b.toks[c].end, b.toks[c].end,
					 ', %s)' % ok)], t.start)
		if name in ('READ_ONCE', 'smp_load_acquire'):
			args = b.span(i + 2, c - 1)
			rep = '(%s)' % args if name == 'READ_ONCE' else \
				'(*(%s))' % args
			yield ('once', '%s -> plain read' % name,
			       [(t.start, b.toks[c].end, rep)], t.start)
		if name in ('WRITE_ONCE', 'smp_store_release'):
			comma = [k for k in range(i + 2, c) if
				 b.toks[k].text == ',' and
				 b.toks[k].depth == t.depth and
				 paren_depth(b, i + 2, k) == 0]
			if comma:
				k = comma[0]
				lhs = b.span(i + 2, k - 1)
				if name == 'smp_store_release':
					lhs = '*(%s)' % lhs
				yield ('once', '%s -> plain write' % name,
				       [(t.start, b.toks[k].end, '((%s) = ('
					 % lhs),
					(b.toks[c].start, b.toks[c].end,
					 '))')], t.start)
		if not is_stmt or not b.stmt_start(i):
			continue
		if name in BARRIERS:
			yield ('once', '%s() dropped' % name,
			       [(t.start, b.toks[c].end, '')], t.start)
		elif DROP_CALL.search(name) and not TRACEPOINT.match(name):
			whole = b.text[t.start:b.toks[c].end]
			yield ('drop-call', '%s() dropped' % name,
			       [(t.start, b.toks[c].end, keep_newlines(whole))],
			       t.start)


def paren_depth(b, a, k):
	d = 0
	for j in range(a, k):
		if b.toks[j].text in '([':
			d += 1
		elif b.toks[j].text in ')]':
			d -= 1
	return d


def jumps(b, body_depth):
	for i in range(b.lo, b.hi):
		t = b.toks[i]
		if t.text not in ('goto', 'return', 'continue', 'break'):
			continue
		if not b.stmt_start(i):
			continue
		j = i
		while j < b.hi and b.toks[j].text != ';':
			j += 1
		if j >= b.hi:
			continue
		# Early: inside a nested block or under an if, not the last
		# statement of the function.
		nested = t.depth > body_depth or b.toks[i - 1].text in (
			')', 'else')
		if not nested or j == b.hi - 1:
			continue
		whole = b.text[t.start:b.toks[j].start]
		yield ('drop-jump', '%s removed' % t.text,
		       [(t.start, b.toks[j].start, keep_newlines(whole))],
		       t.start)


def labels(b):
	"""The labels of body B, in source order: 'name:' beginning a
	statement ('default:' and a case's value are not labels)."""
	out = []
	for i in range(b.lo, b.hi - 1):
		t = b.toks[i]
		if b.toks[i + 1].text == ':' and b.stmt_start(i) and \
		   re.match(r'[A-Za-z_]\w*$', t.text) and \
		   t.text not in ('default', 'case'):
			out.append(t.text)
	return out


def redirects(b):
	"""Each 'goto L' sent to the label after L (the one before, for
	the last): error paths unwind in label order, so the neighbour is
	the cleanup one step more or less."""
	names = labels(b)
	if len(names) < 2:
		return
	for i in range(b.lo, b.hi - 1):
		t, target = b.toks[i], b.toks[i + 1]
		if t.text != 'goto' or target.text not in names:
			continue
		k = names.index(target.text)
		other = names[k + 1] if k + 1 < len(names) else names[k - 1]
		yield ('redirect', 'goto %s -> goto %s' % (target.text, other),
		       [(target.start, target.end, other)], t.start)


def constants(b):
	for i in range(b.lo, b.hi):
		t = b.toks[i]
		m = re.match(r'(0[xX][0-9a-fA-F]+|\d+)([uUlL]*)$', t.text)
		if not m:
			continue
		digits = m.group(1)
		if digits.lower().startswith('0x'):
			v, fmt = int(digits, 16), hex
		elif len(digits) > 1 and digits[0] == '0':
			# C's octal (a mode, 0644), which Python's int(, 0)
			# refuses; written back in octal.
			v, fmt = int(digits, 8), lambda n: '0%o' % n
		else:
			v, fmt = int(digits), str
		nv = 1 if v == 0 else v + 1
		rep = fmt(nv) + m.group(2)
		yield ('const', '%s -> %s' % (t.text, rep),
		       [(t.start, t.end, rep)], t.start)


def all_mutations(b, body_depth):
	"""Every mutation of body B: (operator, description, edits,
	offset), in no particular order (the caller sorts)."""
	for gen in (negate(b), relax(b), calls(b), jumps(b, body_depth),
		    redirects(b), constants(b)):
		yield from gen
