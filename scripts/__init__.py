# SPDX-License-Identifier: GPL-2.0
"""kshim's Python tools (standard library only), one subpackage per tool.

  build/        what meson runs at configure and build time
  prevalidate/  ./kshim prevalidate and ./kshim release-diff
  mutate/       ./kshim mutate
  plot/         ./kshim plot: the scenario plots
  testing/      what meson's tests run
  bench/        ./kshim profile
  shared/       shared by ./kshim test and prevalidate

./kshim is the one entry point: it puts the repository root on sys.path
and hands a subcommand's arguments to the module's main(). meson runs its
modules as "python3 -m scripts.build.tree ..." with the source root in
PYTHONPATH. Imports are absolute: from scripts.build import used_files.
"""

import argparse
import os

# The repository root (paths are shown relative to it).
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class Error(Exception):
	"""A tool's one-line failure: ./kshim prints "kshim TOOL: MESSAGE"
	and exits with STATUS, 2 for bad input (the default), 1 when the
	input was fine and the work failed."""

	def __init__(self, message, status=2):
		super().__init__(message)
		self.status = status


def user_path(path):
	"""PATH as the user typed it: relative to the working directory, or
	else to the repository root, where ./kshim's build dirs are (so
	"build" works from any directory)."""
	if os.path.isabs(path) or os.path.exists(path):
		return path
	alt = os.path.join(REPO, path)
	return alt if os.path.exists(alt) else path


class ArgumentParser(argparse.ArgumentParser):
	"""argparse whose usage errors are one line, not a usage block:
	Error (exit 2) naming the --help to read."""

	def error(self, message):
		raise Error('%s (see %s --help)' % (message, self.prog))
