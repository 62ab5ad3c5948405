# SPDX-License-Identifier: GPL-2.0
"""kshim plot -o PNG JSON[:label]...: a scenario's JSON files as one PNG,
the runs overlaid (base and patched, two backends...), with gnuplot
(Debian: gnuplot-nox).

The plot is chosen by the JSON's "scenario" field, or by --kind:

  log      log_concurrency.json      (log.py)
  conversion unwritten_conversion.json (conversion.py)
  reclaim  reclaim_stalls.json       (reclaim.py)
  reclaim_writeback reclaim_writeback_wbfs.json, reclaim_writeback_xfs.json
                                     (reclaim_writeback.py)
  mapping_lock reclaim_mapping_lock.json (mapping_lock.py)
  wb       wb_starvation_*.json, wb_starvation_xfs_*.json (wb.py)

  ./kshim plot -o wb.png build/tests/wb_starvation_kupdate.json
  ./kshim plot -o cmp.png base.json:base patched.json:patched

What every plot shares is here: the command line, reading the runs,
running gnuplot. kshim prevalidate draws its overlaid plots with draw().
"""
import argparse
import importlib
import json
import shutil
import subprocess

import scripts

# The "scenario" field of a JSON -> the module of this package that plots
# it (the --kind name).
KINDS = {
    'log_concurrency': 'log',
    'unwritten_conversion': 'conversion',
    'reclaim_stalls': 'reclaim',
    'reclaim_writeback': 'reclaim_writeback',
    'reclaim_mapping_lock': 'mapping_lock',
    'wb_starvation': 'wb',
    'wb_starvation_xfs': 'wb',
}


def load_runs(runs):
    """[(label or '', parsed JSON)] for each JSON[:label]."""
    out = []
    for run in runs:
        path, _, label = run.partition(':')
        try:
            with open(path) as f:
                d = json.load(f)
        except (OSError, ValueError) as e:
            raise scripts.Error(f'cannot read {path}: {e}')
        if not isinstance(d, dict):
            raise scripts.Error(f'{path} is not a kshim scenario JSON')
        out.append((label, d, path))
    return out


def kind_of(runs):
    """The plot kind of the scenario all RUNS are of."""
    names = {d.get('scenario') for _, d, _ in runs}
    for _, d, path in runs:
        if d.get('scenario') is None:
            raise scripts.Error(f'{path} has no "scenario" field: not a '
                                'kshim scenario JSON (they are written to '
                                'BUILDDIR/tests/*.json)')
        if d['scenario'] not in KINDS:
            raise scripts.Error(f'{path}: no plot for scenario '
                                f'{d["scenario"]!r} (there are plots for '
                                f'{", ".join(sorted(KINDS))})')
    if len(names) > 1:
        raise scripts.Error('the files are of different scenarios (%s): '
                            'one plot overlays runs of one scenario'
                            % ', '.join(sorted(names)))
    return KINDS[names.pop()]


def draw(output, runs, kind=None):
    """Plot RUNS (JSON[:label] strings) into the PNG OUTPUT with the plot
    KIND (log, conversion, reclaim, reclaim_writeback, mapping_lock, wb),
    by default the one of the files' scenario.
    Raises scripts.Error."""
    if not shutil.which('gnuplot'):
        raise scripts.Error('gnuplot is not installed (./kshim setup, or '
                            'apt-get install gnuplot-nox)', status=1)
    loaded = load_runs(runs)
    kind = kind or kind_of(loaded)
    mod = importlib.import_module('scripts.plot.' + kind)
    try:
        mod.plot(output, [(label, d) for label, d, _ in loaded])
    except (KeyError, TypeError, ValueError, IndexError) as e:
        scenario = next(s for s, k in KINDS.items() if k == kind)
        raise scripts.Error('%s: not a %s scenario JSON (%s: %s)' % (
            ', '.join(path for _, _, path in loaded), scenario,
            type(e).__name__, e))


def gnuplot(script, output):
    r = subprocess.run(['gnuplot'], input=script, text=True,
                       capture_output=True)
    if r.returncode != 0:
        raise scripts.Error(f'gnuplot failed: {r.stderr.strip()}', status=1)


def main(argv):
    ap = scripts.ArgumentParser(
        prog='kshim plot', description=__doc__.split('\n\n')[0],
        epilog='\n\n'.join(__doc__.split('\n\n')[1:3]),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('-o', '--output', required=True, metavar='PNG',
                    help='the PNG to write')
    ap.add_argument('--kind', choices=sorted(set(KINDS.values())),
                    help='the plot (default: the one of the files\' '
                    '"scenario" field)')
    ap.add_argument('runs', nargs='+', metavar='JSON[:label]',
                    help='scenario JSON files, each with an optional '
                    'label for the legend')
    a = ap.parse_args(argv)
    draw(a.output, a.runs, a.kind)
    print(f'kshim: wrote {a.output}')
    return 0
