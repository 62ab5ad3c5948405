# SPDX-License-Identifier: GPL-2.0
"""Tell ThreadSanitizer's reports of kernel findings from everything else.

A data race that is a bug of the 6.12 kernel code is a finding, never a
suppression in tests/tsan.supp (a suppression matches a function, and
would hide the next race there too). When no deterministic test can keep
it (a lost update between the load and the store of one plain ++ needs a
switch the det backend never makes), it is listed in
tests/tsan-known.json: the tests it appears in and the source lines
(FILE:LINE, the kernel tree's path) of the accesses it is made of. After
"meson test" in a TSan build, a test that failed only with TSan's exit
status (66), passed all its own checks, and every one of whose reports
has both accesses (each stack's top frame) at lines of one known finding
is a known finding; anything else is a failure.

  python3 -m scripts.testing.tsan_known BUILDDIR [LOGBASE]

Exit 0 when every failure is a known finding (each is listed), 1 if any
is not.
"""
import os
import re
import sys

from scripts import REPO
from scripts.testing.valgrind_known import (check_log,
					     status_and_result, test_name)

KNOWN = os.path.join(REPO, 'tests', 'tsan-known.json')
TSAN_STATUS = 66
REPORT_RE = re.compile(r'^WARNING: ThreadSanitizer: (.*)$')
# An access: "  Write of size 4 at 0x... by thread T11:" then its frames,
# "    #0 func /path/to/file.c:123 (binary+0x...)".
ACCESS_RE = re.compile(r'^\s+(?:Previous |Atomic )*(?:[Rr]ead|[Ww]rite) of '
		       r'size \d+ at ')
FRAME0_RE = re.compile(r'^\s+#0 (\S+) (\S+?):(\d+)(?::\d+)? ')


def reports(text):
	"""TSan's reports in TEXT: (kind, [top frame of each access])."""
	out, cur, want = [], None, False
	for line in text.splitlines():
		m = REPORT_RE.match(line)
		if m:
			cur = (m.group(1).split(' (pid')[0], [])
			out.append(cur)
			want = False
			continue
		if line.startswith('SUMMARY: ThreadSanitizer') or \
		   line.startswith('=================='):
			cur = None
			continue
		if cur is None:
			continue
		if ACCESS_RE.match(line):
			want = True
			continue
		m = FRAME0_RE.match(line)
		if want and m:
			cur[1].append((m.group(1), m.group(2), int(m.group(3))))
			want = False
	return out


def at(frame, where):
	"""FRAME (func, path, line) is at WHERE, "kernel/path.c:LINE"."""
	path, line = where.rsplit(':', 1)
	return frame[1].endswith('/' + path) and frame[2] == int(line)


def is_known(rep, finding):
	kind, frames = rep
	return kind == 'data race' and len(frames) == 2 and \
		all(any(at(f, w) for w in finding['every_access_at'])
		    for f in frames)


def classify(entries, known):
	"""(known, unknown): lists of (test, why) for the failed ENTRIES."""
	ok, bad = [], []
	for e in entries:
		if e.get('result') in ('OK', 'EXPECTEDFAIL', 'SKIP'):
			continue
		name = test_name(e)
		text = (e.get('stdout') or '') + (e.get('stderr') or '')
		status, failed = status_and_result(e, text)
		if status != TSAN_STATUS or failed is None or failed:
			bad.append((name, 'failed on its own checks, or not '
				    'with TSan\'s status'))
			continue
		found = reports(text)
		match = [k for k in known if name in k['tests']]
		unknown = [r for r in found
			   if not any(is_known(r, k) for k in match)]
		if found and not unknown:
			ok.append((name, '%d TSan report(s), all of %s' % (
				len(found), '; '.join(k['finding']
						      for k in match))))
		else:
			bad.append((name, '%d TSan report(s), %d not of a known '
				    'finding' % (len(found), len(unknown))))
	return ok, bad


def main(argv):
	return check_log(argv, 'tsan', 'testlog', KNOWN, classify, __doc__)


if __name__ == '__main__':
	sys.exit(main(sys.argv[1:]))
