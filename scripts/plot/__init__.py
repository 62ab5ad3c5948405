# SPDX-License-Identifier: GPL-2.0
"""./kshim plot: the scenarios' JSON files as PNGs (gnuplot)."""
