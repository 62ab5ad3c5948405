# SPDX-License-Identifier: GPL-2.0
"""What meson's tests run: the expected-failure and determinism checks."""
