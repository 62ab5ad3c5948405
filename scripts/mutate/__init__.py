# SPDX-License-Identifier: GPL-2.0
"""./kshim mutate: which lines of a kernel file no test guards."""
