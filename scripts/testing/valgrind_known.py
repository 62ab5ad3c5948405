# SPDX-License-Identifier: GPL-2.0
"""Tell valgrind's reports of kernel findings from everything else.

A kernel finding (tests/findings/) that valgrind also reports in another
test is not suppressed: a suppression matches where the error is seen
(any uninitialised byte reaching an iclog's CRC, say), not where it came
from, and would hide the next such bug. Instead each known report is
listed in tests/valgrind-known.json with the tests it appears in and a
string every one of its errors must name (the allocation that made the
bytes, from --track-origins; an error valgrind could not trace back
counts if it was seen where a named one was). After "meson test --setup=valgrind", a test
that failed only with valgrind's exit status (99), passed all its own
checks, and whose every error names its finding's string is a known
finding; anything else is a failure.

  python3 -m scripts.testing.valgrind_known BUILDDIR [LOGBASE]

Exit 0 when every failure is a known finding (each is listed), 1 if any
is not.
"""
import json
import os
import re
import sys

from scripts import REPO

KNOWN = os.path.join(REPO, 'tests', 'valgrind-known.json')
VALGRIND_STATUS = 99
# valgrind's lines: "==PID== TEXT"; an error is a title line (TEXT not
# indented) and its indented stacks, up to a blank "==PID==" line.
LINE_RE = re.compile(r'^==\d+==( ?)(.*)$')
RESULT_RE = re.compile(r'KSHIM-RESULT tests=\d+ passed=\d+ failed=(\d+)')
# A det sweep (NAME_det) exits 1 when a seed fails and replays that seed:
# its status is the seed's, and its own result line the replay's.
SWEEP_RE = re.compile(r'seed sweep: seed \d+ of \d+ fails \(exit (\d+)\)')


def errors(text):
	"""The valgrind errors in TEXT, each the list of its lines."""
	out, cur = [], None
	for line in text.splitlines():
		m = LINE_RE.match(line)
		if not m:
			continue
		body = m.group(2)
		if not body.strip():
			cur = None
		elif cur is None and not body[0].isspace():
			cur = [body]
			out.append(cur)
		elif cur is not None:
			cur.append(body.strip())
	return out


def site(err):
	"""Where ERR was seen: its first stack's functions, no addresses."""
	out = []
	for line in err[1:]:
		if not line.startswith(('at ', 'by ')):
			break
		out.append(re.sub(r'0x[0-9A-Fa-f]+', '', line))
	return tuple(out)


def unknown(found, origins):
	"""The errors in FOUND that are not of ORIGINS' findings: each known
	one names one of ORIGINS (the allocation or the function
	--track-origins gives), or, where valgrind could not tell the
	origin, was seen at the same place as one that names one."""
	named = [e for e in found if any(o in '\n'.join(e) for o in origins)]
	sites = {site(e) for e in named}
	return [e for e in found
		if not (e in named or (site(e) in sites and
				       not any('was created by' in l
					       for l in e)))]


def all_known(found, origins):
	"""Every error in FOUND is of ORIGINS' findings (unknown())."""
	return bool(found) and not unknown(found, origins)


# Lines of the first unknown error a failure's line quotes: its title,
# where it was seen, and where the memory came from, so that a CI log's
# tail says what it was.
QUOTE_LINES = 8


def quote(err):
	"""ERR's first QUOTE_LINES lines, addresses dropped, indented."""
	return ''.join('\n    ' + re.sub(r'0x[0-9A-Fa-f]+: ', '', l)
		       for l in err[:QUOTE_LINES])


def status_and_result(entry, text):
	"""The test's exit status and its own failed count (None: no result
	line), a det sweep's read from the seed it replayed."""
	status = entry.get('returncode')
	own = RESULT_RE.findall(text)
	sweep = SWEEP_RE.search(text)
	if sweep and status == 1:
		return int(sweep.group(1)), (int(own[-2]) if len(own) > 1
					     else None)
	return status, int(own[-1]) if own else None


def test_name(entry):
	return entry.get('name', '?').split(' / ')[-1]


def classify(entries, known):
	"""(known, unknown): lists of (test, why) for the failed ENTRIES."""
	ok, bad = [], []
	for e in entries:
		if e.get('result') in ('OK', 'EXPECTEDFAIL', 'SKIP'):
			continue
		name = test_name(e)
		text = (e.get('stdout') or '') + (e.get('stderr') or '')
		status, failed = status_and_result(e, text)
		if status != VALGRIND_STATUS or (failed is not None and failed):
			bad.append((name, 'failed on its own checks, or not '
				    'with valgrind\'s status'))
			continue
		found = errors(text)
		match = [k for k in known if name in k['tests']]
		origins = [k['every_error_names'] for k in match]
		if found and match and all_known(found, origins):
			ok.append((name, '%d valgrind error(s), all of %s' % (
				len(found), '; '.join(
					'%s (%s)' % (k['every_error_names'],
						     k['finding'])
					for k in match))))
		else:
			rest = unknown(found, origins) if origins else found
			bad.append((name, '%d valgrind error(s), not all of a '
				    'known finding%s' % (len(found),
				    '; the first that is not:' + quote(rest[0])
				    if rest else '')))
	return ok, bad


def check_log(argv, tool, logbase, known_path, classify, usage):
	"""The command of valgrind_known and tsan_known: read ARGV's build
	dir's meson log (LOGBASE unless given), classify its failures
	against KNOWN_PATH's findings, print a line per failure prefixed
	TOOL, and return the exit status (0: every failure known)."""
	if not 1 <= len(argv) <= 2:
		print(usage.strip(), file=sys.stderr)
		return 2
	log = os.path.join(argv[0], 'meson-logs',
			   (argv[1] if len(argv) > 1 else logbase) + '.json')
	with open(known_path) as f:
		known = json.load(f)
	try:
		with open(log, errors='replace') as f:
			entries = [json.loads(line) for line in f
				   if line.strip()]
	except (OSError, ValueError) as e:
		print('%s: cannot read %s: %s' % (tool, log, e))
		return 1
	ok, bad = classify(entries, known)
	for name, why in ok:
		print('%s: %s: known kernel finding: %s' % (tool, name, why))
	for name, why in bad:
		print('%s: %s: FAILED: %s' % (tool, name, why))
	return 1 if bad else 0


def main(argv):
	return check_log(argv, 'valgrind', 'testlog-valgrind', KNOWN,
			 classify, __doc__)


if __name__ == '__main__':
	sys.exit(main(sys.argv[1:]))
