# SPDX-License-Identifier: GPL-2.0
"""kshim mutate: reading a kernel .c file as tokens, without a parser.

The mutants are made on tokens of real code only: comments, string and
character literals and preprocessor lines (with their continuation lines,
so every macro definition) are blanked out first, keeping every offset and
newline, so a token's position is its position in the file. Functions are
found as the kernel writes them: at brace depth 0, a '{' right after the
')' of "NAME(...)" (annotations such as __releases(x) between the two are
skipped).
"""

import re

# Longest first: "<<=" before "<<" before "<".
OPERATORS = sorted('''<<= >>= -> ++ -- << >> <= >= == != && || += -= *= /=
%= &= |= ^= ... < > = ! ~ + - * / % & | ^ ? : ; , . ( ) [ ] { }'''.split(),
		   key=len, reverse=True)
TOKEN = re.compile(r'[A-Za-z_]\w*|0[xX][0-9a-fA-F]+[uUlL]*|\d+[uUlL]*|' +
		   '|'.join(re.escape(o) for o in OPERATORS))
# Between a function's ')' and its '{': sparse's lock annotations.
ANNOTATIONS = ('__releases', '__acquires', '__must_hold', '__attribute__')


def mask(text):
	"""TEXT with comments, string and character literals and
	preprocessor lines replaced by spaces (newlines kept), so that only
	code is left at its own offsets."""
	out = list(text)
	i, n = 0, len(text)
	line_start = True

	def blank(a, b):
		for k in range(a, b):
			if out[k] != '\n':
				out[k] = ' '
	while i < n:
		c = text[i]
		if line_start and c == '#':
			# A preprocessor line, to its last unescaped newline.
			j = i
			while j < n:
				if text[j] == '\n' and text[j - 1] != '\\':
					break
				if text.startswith('/*', j):
					k = text.find('*/', j + 2)
					j = n if k < 0 else k + 2
					continue
				j += 1
			blank(i, j)
			i = j
			continue
		if c == '\n':
			line_start = True
			i += 1
			continue
		if c in ' \t':
			i += 1
			continue
		line_start = False
		if text.startswith('/*', i):
			j = text.find('*/', i + 2)
			j = n if j < 0 else j + 2
			blank(i, j)
			i = j
		elif text.startswith('//', i):
			j = text.find('\n', i)
			j = n if j < 0 else j
			blank(i, j)
			i = j
		elif c in '"\'':
			j = i + 1
			while j < n and text[j] != c:
				j += 2 if text[j] == '\\' else 1
			blank(i, min(j + 1, n))
			i = j + 1
		else:
			i += 1
	return ''.join(out)


class Tok:
	__slots__ = ('text', 'start', 'end', 'depth')

	def __init__(self, text, start, end, depth):
		self.text, self.start, self.end = text, start, end
		self.depth = depth	# brace depth before this token

	def __repr__(self):
		return 'Tok(%r@%d)' % (self.text, self.start)


def tokens(code):
	"""The tokens of masked CODE, each with its brace depth."""
	out = []
	depth = 0
	for m in TOKEN.finditer(code):
		t = m.group()
		if t == '}':
			depth -= 1
		out.append(Tok(t, m.start(), m.end(), depth))
		if t == '{':
			depth += 1
	return out


def match_paren(toks, i):
	"""Index of the token closing the bracket at TOKS[i] (or, for a
	closing one, opening it); None if unbalanced."""
	pairs = {'(': ')', '[': ']', '{': '}'}
	rev = {v: k for k, v in pairs.items()}
	o = toks[i].text
	if o in pairs:
		c, step = pairs[o], 1
	else:
		c, step = rev[o], -1
	d = 0
	j = i
	while 0 <= j < len(toks):
		t = toks[j].text
		if t == o:
			d += 1
		elif t == c:
			d -= 1
			if d == 0:
				return j
		j += step
	return None


def functions(toks):
	"""[(name, open brace index, close brace index)] of the function
	definitions in TOKS."""
	out = []
	for i, t in enumerate(toks):
		if t.text != '{' or t.depth != 0:
			continue
		j = i - 1
		name = None
		while j >= 0 and toks[j].text == ')':
			o = match_paren(toks, j)
			if o is None or o == 0:
				break
			prev = toks[o - 1].text
			if prev in ANNOTATIONS:
				j = o - 2
				continue
			if re.match(r'[A-Za-z_]\w*$', prev):
				name = prev
			break
		if not name:
			continue
		end = match_paren(toks, i)
		if end is not None:
			out.append((name, i, end))
	return out


def line_of(text, offset):
	return text.count('\n', 0, offset) + 1
