# SPDX-License-Identifier: GPL-2.0
"""gcov helpers shared by ./kshim test --coverage and kshim prevalidate."""

import os


def remove_gcda(bd):
	"""Delete the .gcda files under BD: counters left by an earlier run
	would be added to the next one's, and those of an object since
	recompiled make libgcov print a merge mismatch into a test's output."""
	for root, _, files in os.walk(bd):
		for f in files:
			if f.endswith('.gcda'):
				os.unlink(os.path.join(root, f))
