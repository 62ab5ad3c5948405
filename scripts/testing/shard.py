# SPDX-License-Identifier: GPL-2.0
"""The shard of a seed sweep, for ./kshim test --seeds N --shard K/N.

The same rule as the test runner's kernel-shim/host/kshim_test_shard.c
(the binaries apply it to their own sweeps); tests/unit/test_shard.py runs
both on the same cases. Kept twice because ./kshim names its reports after
the shard before any binary runs, and a binary has no Python.

K counts from 1: shard K of N runs the seeds s with s mod N == K mod N.
"auto" takes the shard from the CI engine's variables (docs/test.md).
"""

import os

import scripts


class Shard:
	def __init__(self, k, n, source):
		self.k, self.n, self.source = k, n, source

	def __str__(self):
		return '%d/%d' % (self.k, self.n)

	def has(self, seed):
		return seed % self.n == self.k % self.n

	def seeds(self, first, last):
		return [s for s in range(first, last + 1) if self.has(s)]


def count(text):
	"""A whole number written as digits only, or None."""
	return int(text) if text and text.isascii() and text.isdigit() \
		else None


def parse_kn(text, what):
	if '/' not in text:
		raise scripts.Error('%s: expected K/N, shard K of N shards '
				    'counted from 1 (e.g. 2/16)' % what)
	k, n = (count(x) for x in text.split('/', 1))
	if k is None or n is None:
		raise scripts.Error('%s: expected K/N, two whole numbers '
				    '(e.g. 2/16)' % what)
	if n == 0:
		raise scripts.Error('%s: N is the number of shards and must be '
				    'at least 1' % what)
	if not 1 <= k <= n:
		raise scripts.Error('%s: there is no shard %d of %d: K counts '
				    'from 1 to N' % (what, k, n))
	return Shard(k, n, what)


def from_index(env, index_var, total_var, hint, base):
	"""One engine's INDEX/TOTAL pair, its jobs numbered from BASE."""
	iv, tv = env.get(index_var), env.get(total_var)
	if not iv:
		return None
	if not tv:
		raise scripts.Error('%s=%s is set but %s is not%s'
				    % (index_var, iv, total_var, hint))
	i, n = count(iv), count(tv)
	if i is None or n is None:
		raise scripts.Error('%s=%s %s=%s: expected whole numbers'
				    % (index_var, iv, total_var, tv))
	source = '%s=%s %s=%s' % (index_var, iv, total_var, tv)
	if n == 0 or i < base or i - base >= n:
		raise scripts.Error('%s: index %d is not one of the %d shards '
				    '(%s counts from %d)'
				    % (source, i, n, index_var, base))
	return Shard(i - base + 1, n, source)


def from_slurm(env):
	"""The task's place in its array's range (min-max[:step])."""
	iv = env.get('SLURM_ARRAY_TASK_ID')
	if not iv:
		return None
	minv = env.get('SLURM_ARRAY_TASK_MIN')
	stepv = env.get('SLURM_ARRAY_TASK_STEP')
	tid = count(iv)
	low = count(minv) if minv else 0
	step = count(stepv) if stepv else 1
	if tid is None or low is None or not step or tid < low or \
	   (tid - low) % step:
		raise scripts.Error(
			'SLURM_ARRAY_TASK_ID=%s SLURM_ARRAY_TASK_MIN=%s '
			'SLURM_ARRAY_TASK_STEP=%s: not a task of a range '
			'min-max[:step]; give the array as a range '
			'(--array=0-15) or pass --shard K/N'
			% (iv, minv or '(unset)', stepv or '(unset)'))
	cv = env.get('SLURM_ARRAY_TASK_COUNT')
	n = count(cv)
	if not n:
		raise scripts.Error('SLURM_ARRAY_TASK_ID=%s with '
				    'SLURM_ARRAY_TASK_COUNT=%s: expected the '
				    'array\'s number of tasks'
				    % (iv, cv or '(unset)'))
	source = ('SLURM_ARRAY_TASK_ID=%s SLURM_ARRAY_TASK_MIN=%d '
		  'SLURM_ARRAY_TASK_COUNT=%s' % (iv, low, cv))
	k = (tid - low) // step + 1
	if k > n:
		raise scripts.Error('%s: task %d is past the array\'s %d tasks'
				    % (source, tid, n))
	return Shard(k, n, source)


def from_ci(env, what):
	found = [s for s in (
		from_index(env, 'CI_NODE_INDEX', 'CI_NODE_TOTAL', '', 1),
		from_slurm(env),
		from_index(env, 'JOB_COMPLETION_INDEX', 'KSHIM_SHARD_TOTAL',
			   ' (Kubernetes gives no shard count: set '
			   'KSHIM_SHARD_TOTAL to the Job\'s .spec.completions)',
			   0)) if s]
	if not found:
		raise scripts.Error('%s: no CI shard variables are set '
				    '(CI_NODE_INDEX, SLURM_ARRAY_TASK_ID, '
				    'JOB_COMPLETION_INDEX); pass --shard K/N'
				    % what)
	for other in found[1:]:
		if (other.k, other.n) != (found[0].k, found[0].n):
			raise scripts.Error(
				'%s: the environment names two shards, %s (%s) '
				'and %s (%s): pass --shard K/N'
				% (what, found[0], found[0].source, other,
				   other.source))
	return found[0]


def resolve(flag, env=None):
	"""The shard: FLAG (--shard's value) or KSHIM_SHARD, K/N or "auto";
	neither: 1/1, every seed. Raises scripts.Error (status 2)."""
	env = {k: v for k, v in (os.environ if env is None else env).items()
	       if v}
	text = flag if flag is not None else env.get('KSHIM_SHARD')
	if text is None:
		return Shard(1, 1, 'no shard')
	what = ('--shard %s' if flag is not None else 'KSHIM_SHARD=%s') % text
	if text == 'auto':
		return from_ci(env, what)
	return parse_kn(text, what)
