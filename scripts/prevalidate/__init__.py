# SPDX-License-Identifier: GPL-2.0
"""./kshim prevalidate (main.py) and ./kshim release-diff."""
