# SPDX-License-Identifier: GPL-2.0
"""What every scenario plot script shares: the command line (-o PNG and
JSON[:label] runs to overlay), reading the runs, and running gnuplot
(Debian: gnuplot-nox)."""
import argparse
import json
import shutil
import subprocess
import sys


def parse_args(doc):
    """-o PNG and one or more JSON[:label]; stops if gnuplot is missing."""
    ap = argparse.ArgumentParser(description=doc,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('-o', '--output', required=True, help='the PNG to write')
    ap.add_argument('runs', nargs='+', help='JSON[:label]')
    a = ap.parse_args()
    if not shutil.which('gnuplot'):
        sys.exit('kshim: gnuplot is not installed (apt-get install gnuplot-nox)')
    return a


def load_runs(runs):
    """[(label or '', parsed JSON)] for each JSON[:label]."""
    out = []
    for run in runs:
        path, _, label = run.partition(':')
        try:
            with open(path) as f:
                out.append((label, json.load(f)))
        except (OSError, ValueError) as e:
            sys.exit(f'kshim: cannot read {path}: {e}')
    return out


def gnuplot(script, output):
    r = subprocess.run(['gnuplot'], input=script, text=True,
                       capture_output=True)
    if r.returncode != 0:
        sys.exit(f'kshim: gnuplot failed: {r.stderr.strip()}')
    print(f'kshim: wrote {output}')
