# SPDX-License-Identifier: GPL-2.0
"""./kshim profile: where a benchmark spends its time."""
