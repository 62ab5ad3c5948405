# SPDX-License-Identifier: GPL-2.0
"""How many tests meson runs at a time, when nobody said.

One more than the CPUs. Meson's own default is one per CPU, and then a
CPU sits idle while a parallel-backend test sleeps on real time
(test_writeback is 9.6 s of wall time for 0.7 s of CPU). With one more,
the default suite took 60-63 s instead of 88 s on the 2-core machine,
in three runs each (docs/measurements.md). A timing figure is never
taken from these runs: the scenarios' timed repeats run one at a time.

MESON_TESTTHREADS, meson's own variable, still wins when it is set.
Standard library only, like ./kshim.
"""

import os


def default_jobs():
	"""The --num-processes to pass, or None to leave meson's choice."""
	if os.environ.get('MESON_TESTTHREADS'):
		return None
	return (os.cpu_count() or 1) + 1


def args(jobs=None):
	"""meson test arguments for JOBS tests at a time (None: the default)."""
	jobs = jobs or default_jobs()
	return ['--num-processes', str(jobs)] if jobs else []
