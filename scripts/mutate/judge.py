# SPDX-License-Identifier: GPL-2.0
"""kshim mutate: one mutant, from its text to its verdict.

  not built     the mutated file does not compile (the first error kept)
  equivalent    the object code is the unmutated file's: the compiler
                proved the change has no effect (objects.py)
  killed        a test that reaches the mutated lines failed at a seed
                that passes on base (the test, CUnit test and seed kept)
  hang          such a run went over its budget (CPU time, tests.py):
                killed, and said so
  survived      every test reaching the lines passed at every seed; with
                no test reaching them, "not reached"
"""

import os

from scripts.mutate import tests as mt


class Judge:
	"""Per job: a Builder in its own scratch dir and the reference
	object of the unmutated file."""

	def __init__(self, builder, text, plan):
		self.b = builder
		self.plan = plan	# dict(tests, lines_by_test, base)
		ref = os.path.join(builder.jobdir, 'ref.o')
		ok, err = builder.compile(text, ref)
		if not ok:
			raise RuntimeError('the unmutated file does not compile '
					   'from the scratch dir: %s' % err)
		self.ref = builder.stripped(ref)

	def preflight(self):
		"""The unmutated object, relinked as a mutant is, must pass
		the fastest test at its first seed that passes on base: else
		every verdict would be the relinking's, not the mutant's.
		None when it does, else why not."""
		names = sorted(self.plan['tests'],
			       key=lambda n: (self.plan['cost'](n), n))
		for name in names:
			seeds = [s for s, r in self.plan['base'][name]
				 if r['status'] == 'pass']
			if not seeds:
				continue
			t = self.plan['tests'][name]
			obj = os.path.join(self.b.jobdir, 'ref.o')
			archive = self.b.archive_with(obj) if self.b.archive \
				else None
			binary, why = self.b.link(os.path.relpath(
				t['cmd'][0], self.b.base.bd), obj, archive)
			if binary is None:
				return 'relinking %s failed: %s' % (name, why)
			res = mt.run_one(t, seeds[0], self.b.base.bd,
					 mt.budget(self.plan['base'][name][0][1]),
					 binary=binary,
					 scratch=self.b.jobdir)
			if res['status'] != 'pass':
				return '%s relinked with the unmutated object ' \
					'does not pass at seed %d (%s): %s' % (
						name, seeds[0], res['status'],
						' | '.join(res['tail'][-2:]))
			return None
		return None

	def reaching(self, m):
		"""The tests whose coverage reaches M's lines (M.probe:
		covmap.probe_lines()), fastest first."""
		probe = set(m.probe)
		out = []
		for name, lines in self.plan['lines_by_test'].items():
			if probe.intersection(lines) and \
			   name in self.plan['tests']:
				out.append(name)
		return sorted(out, key=lambda n: (self.plan['cost'](n), n))

	def judge(self, m):
		r = dict(id=m.id, status=None)
		obj = os.path.join(self.b.jobdir, 'mutant.o')
		ok, err = self.b.compile(m.text, obj)
		if not ok:
			r.update(status='not built', why=err)
			return r
		if self.b.stripped(obj) == self.ref:
			r.update(status='equivalent')
			return r
		names = self.reaching(m)
		r['tests'] = names
		if not names:
			r.update(status='survived', why='no test reaches it')
			return r
		archive = self.b.archive_with(obj) if self.b.archive else None
		linked = {}
		runs = 0
		for name in names:
			t = self.plan['tests'][name]
			binary = os.path.relpath(t['cmd'][0], self.b.base.bd)
			if binary not in linked:
				linked[binary], why = self.b.link(binary, obj,
								  archive)
				if linked[binary] is None:
					r.update(status='not built',
						 why='link %s: %s' % (binary, why))
					return r
			for seed, base in self.plan['base'][name]:
				if base['status'] != 'pass':
					continue
				res = mt.run_one(t, seed, self.b.base.bd,
						 mt.budget(base),
						 binary=linked[binary],
						 scratch=self.b.jobdir)
				runs += 1
				if res['status'] in ('fail', 'hang'):
					r.update(status='killed' if
						 res['status'] == 'fail' else
						 'hang', test=name, seed=seed,
						 cunit=res['failed'][:3],
						 tail=res['tail'], runs=runs,
						 seconds=res['seconds'], cpu=res['cpu'])
					return r
		r.update(status='survived', runs=runs)
		return r
