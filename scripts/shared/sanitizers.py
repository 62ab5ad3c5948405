# SPDX-License-Identifier: GPL-2.0
"""The sanitizer builds, as ./kshim test --tsan/--asan and kshim prevalidate
--sanitizers both set them up and run them: one place, so the two cannot
drift apart (a suppression or an option fixed for one and not the other).

Standard library only, like ./kshim.
"""

import os
import platform
import shutil
import subprocess
import tempfile

# kind -> meson options of its build dir. b_lundef=false: with clang
# (the TSan fallback) meson warns that sanitizers do not work with
# -Wl,--no-undefined.
OPTIONS = {
	'tsan': ['-Db_sanitize=thread', '-Db_lundef=false'],
	'asan': ['-Db_sanitize=address,undefined', '-Db_lundef=false'],
}

# What TSan prints when the kernel's ASLR (vm.mmap_rnd_bits) puts a
# mapping where its shadow layout expects none; setarch -R avoids it.
TSAN_MAPPING = 'FATAL: ThreadSanitizer: unexpected memory mapping'


def tsan_compiler():
	"""gcc if it can build and link a -fsanitize=thread program, else
	clang; None if neither can."""
	with tempfile.TemporaryDirectory(prefix='kshim-tsan-') as d:
		src = os.path.join(d, 't.c')
		with open(src, 'w') as f:
			f.write('int main(void) { return 0; }\n')
		for cc in ('gcc', 'clang'):
			if not shutil.which(cc):
				continue
			r = subprocess.run([cc, '-fsanitize=thread', src, '-o',
					    os.path.join(d, 't')],
					   stdout=subprocess.DEVNULL,
					   stderr=subprocess.DEVNULL)
			if r.returncode == 0:
				return cc
	return None


def setup_env(kind):
	"""Environment for the first meson setup of a KIND build dir: the
	compiler, which meson records then ({}: the default, or the user's
	CC). Raises OSError with the reason when no compiler can build
	KIND."""
	if kind != 'tsan' or 'CC' in os.environ:
		return {}
	cc = tsan_compiler()
	if cc is None:
		raise OSError('neither gcc nor clang can link '
			      '-fsanitize=thread; run ./kshim setup')
	return {'CC': cc}


def test_env(kind):
	"""Environment for meson test in a KIND build. TSAN_OPTIONS is not
	here: tests/meson.build sets it per test (the suppressions file)."""
	if kind == 'asan' and 'UBSAN_OPTIONS' not in os.environ:
		# UBSan only prints by default: a report must fail the test.
		return {'UBSAN_OPTIONS': 'print_stacktrace=1:halt_on_error=1'}
	return {}


def no_aslr():
	"""The command prefix that runs a program without ASLR."""
	return ['setarch', platform.machine(), '-R']
