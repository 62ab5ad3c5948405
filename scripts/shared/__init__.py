# SPDX-License-Identifier: GPL-2.0
"""Shared by ./kshim test and ./kshim prevalidate: the sanitizer builds,
gcov, how many tests run at a time."""
