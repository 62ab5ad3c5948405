# SPDX-License-Identifier: GPL-2.0
"""kshim prevalidate --sanitizers: the ThreadSanitizer and the
AddressSanitizer (+UBSan) builds of the patched tree, and which of their
reports the patches brought.

After the normal comparison, each sanitizer gets its own build dir,
WORKDIR/patched-tsan and WORKDIR/patched-asan, kept and reused like
patched/. Only when a test fails there is the base tree built with the
same sanitizer (WORKDIR/base-tsan, base-asan), and only the failed tests
are run again on it: a clean patch, the common case, costs no base
sanitizer build at all. A test that fails on patched and passes on base
is a new report: a regression. Failing on both is pre-existing.

The build and test steps are the normal run's (build.py).
"""

import os
import re
import time

from scripts import REPO
from scripts.prevalidate import build
from scripts.prevalidate import compare as cmp
from scripts.shared import sanitizers

KINDS = ('tsan', 'asan')
NAMES = {'tsan': 'ThreadSanitizer', 'asan': 'AddressSanitizer + UBSan'}

# Left out of the sanitizer runs. finding: expected failures (a seed sweep
# must break the XFS log, up to 32 seeds each): under a sanitizer their
# verdict is about the finding, not the sanitizer, and they are the
# longest runs (78 s of the 200 s an ASan suite takes here). detect: they
# compile no kernel code, so no kernel patch can change them. prevalidate
# runs this command. Benchmarks are not in meson test's default run.
EXCLUDED = ('prevalidate', 'finding', 'detect')

# Where a report starts: TSan, ASan, LeakSanitizer (part of the ASan
# build), UBSan.
REPORT_START = re.compile(r'WARNING: ThreadSanitizer: |'
			  r'ERROR: (?:Address|Leak)Sanitizer: |runtime error: ')
FRAME = re.compile(r'^\s*#(\d+) ')
# Paths of kernel files as the patch names them; binaries' offsets and
# ASan's pc addresses say nothing to the reader.
KERNEL_PREFIX = re.compile(r'/\S*?/(?:linux-patched|kernel-overlay|'
			   r'kernel/linux)/')
NOISE = (re.compile(r' \(\S+\+0x[0-9a-f]+\)'),
	 re.compile(r'(#\d+ )0x[0-9a-f]+ in '),
	 re.compile(r'^==\d+=='))
MAX_FRAMES = 6
MAX_LINES = 40


def add_arguments(p):
	p.add_argument('--sanitizers', action='store_true',
		       help='also build the patched tree with ThreadSanitizer '
		       'and with AddressSanitizer+UBSan, run the tests there '
		       'and report new sanitizer reports (WORKDIR/patched-tsan, '
		       'patched-asan; base-tsan, base-asan only when a test '
		       'fails)')


def tidy(line, repo):
	line = KERNEL_PREFIX.sub('', line)
	line = line.replace(repo + '/', '')
	for r in NOISE:
		line = r.sub(lambda m: m.group(1) if m.groups() else '', line)
	return line.rstrip()


def first_report(output, repo):
	"""The first sanitizer report in OUTPUT: (summary, excerpt), its
	stacks cut to their top MAX_FRAMES frames; (None, None) if there is
	none."""
	ls = output.splitlines()
	start = next((i for i, l in enumerate(ls) if REPORT_START.search(l)),
		     None)
	if start is None:
		return None, None
	out, summary = [], None
	for l in ls[start:]:
		m = FRAME.match(l)
		if m and int(m.group(1)) >= MAX_FRAMES:
			if int(m.group(1)) == MAX_FRAMES:
				out.append('    ...')
			continue
		out.append(tidy(l, repo))
		if l.startswith('SUMMARY: '):
			summary = tidy(l[len('SUMMARY: '):], repo)
			break
		if len(out) >= MAX_LINES:
			break
	return summary or tidy(ls[start], repo), '\n'.join(out)


def failed(entries):
	return sorted(n for n, e in entries.items()
		      if e['result'] not in cmp.OK_RESULTS and
		      e['result'] != 'SKIP')


def run_tests(side, bd, kind, a, progress, names=()):
	"""meson test in BD (only NAMES if given); {name: entry}, and
	whether it needed setarch -R (TSan under this kernel's ASLR)."""
	env = dict(os.environ, KSHIM_SEEDS=str(a.seeds),
		   **sanitizers.test_env(kind))
	if a.device:
		env['KSHIM_DEVICE'] = a.device
	args = list(names or a.only)
	if not args:
		for s in EXCLUDED:
			args += ['--no-suite', s]
	logbase = build.LOGBASE + ('-recheck' if names else '')
	entries = build.meson_test(side, bd, env, logbase, progress, args)
	if kind == 'tsan' and any(sanitizers.TSAN_MAPPING in e['output']
				  for e in entries.values()):
		progress('%s: ASLR too wide for TSan, re-running under '
			 'setarch -R' % side)
		wrap = ['--wrapper', ' '.join(sanitizers.no_aslr())]
		return build.meson_test(side, bd, env, logbase, progress,
					wrap + args), True
	return entries, False


def prepare(side, bd, kind, a, patches, phases, progress):
	"""Configure (a first setup picks the compiler) and build BD."""
	env = None
	if not build.is_configured(bd):
		env = sanitizers.setup_env(kind)  # OSError: cannot build it
	t = time.monotonic()
	# The kernel dirs the normal base build extracted, as hard links
	# (they are the same tarball's), not a tarball extraction of its own.
	build.share_extracted_tree(os.path.join(a.base_home, 'base'), bd)
	build.configure(side, bd, a, patches, progress,
			extra=sanitizers.OPTIONS[kind], env=env)
	b = build.build(side, bd, progress)
	phases['%s build' % side] = time.monotonic() - t
	return b['steps']


def run_kind(kind, a, patches, phases, progress):
	bds = {s: os.path.join(a.workdir, '%s-%s' % (s, kind))
	       for s in ('patched', 'base')}
	res = dict(kind=kind, name=NAMES[kind], status='ran',
		   excluded_suites=list(EXCLUDED), builddirs=bds,
		   regressions=[], pre_existing=[], build_steps={})
	try:
		res['build_steps']['patched'] = prepare(
			'patched-' + kind, bds['patched'], kind, a, patches,
			phases, progress)
	except OSError as e:
		# No compiler for it: say so, keep the rest of the verdict.
		res.update(status='not run', reason=str(e))
		return res
	t = time.monotonic()
	pat, res['no_aslr'] = run_tests('patched-' + kind, bds['patched'],
					kind, a, progress)
	phases['patched-%s tests' % kind] = time.monotonic() - t
	res['tests'] = len(pat)
	res['failed'] = failed(pat)
	if not res['failed']:
		return res
	res['build_steps']['base'] = prepare('base-' + kind, bds['base'], kind,
					     a, [], phases, progress)
	t = time.monotonic()
	base, _ = run_tests('base-' + kind, bds['base'], kind, a, progress,
			    res['failed'])
	phases['base-%s re-run' % kind] = time.monotonic() - t
	for name in res['failed']:
		p, b = pat[name], base.get(name)
		summary, block = first_report(p['output'], REPO)
		row = dict(name=name, suites=p['suites'], patched=p['result'],
			   base=b['result'] if b else 'not run',
			   summary=summary or 'no sanitizer report: %s' %
			   cmp.tail(p['output'], 1).strip(),
			   report=block or cmp.excerpt(p['output']))
		if b is not None and b['result'] not in cmp.OK_RESULTS:
			res['pre_existing'].append(row)
		else:
			res['regressions'].append(row)
	confirm(res, bds['patched'], kind, a, progress)
	return res


def confirm(res, bd, kind, a, progress):
	"""Run each new report's test once more on patched and say whether
	it failed again, as the normal run does for its parallel-backend
	regressions: a racy test (TSan) may fail once whatever the patch,
	and a base run that passed once does not show the patch caused it."""
	names = [r['name'] for r in res['regressions']]
	if not names:
		return
	again, _ = run_tests('patched-' + kind, bd, kind, a, progress, names)
	for r in res['regressions']:
		e = again.get(r['name'])
		r['rerun'] = 'failed again' if e is not None and \
			e['result'] not in cmp.OK_RESULTS else \
			'passed on a re-run: intermittent'


def run(a, patches, phases, progress):
	"""Both sanitizers on the patched tree; {kind: result}. A build that
	fails raises CannotRun (exit 2), as the normal build does."""
	return {kind: run_kind(kind, a, patches, phases, progress)
		for kind in KINDS}


def merge(res, san):
	"""Fold the sanitizer results into the prevalidate result RES."""
	if san is None:
		return res
	res['sanitizers'] = san
	if any(s['regressions'] for s in san.values()):
		res['verdict'] = 'regression'
		res['exit_status'] = 1
	return res


def new_reports(res):
	"""[(kind, row)] of every new sanitizer report, for the headline."""
	return [(k, r) for k, s in (res.get('sanitizers') or {}).items()
		for r in s['regressions']]
