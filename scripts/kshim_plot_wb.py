#!/usr/bin/env python3
"""Plot the large file's dirty pages over time from the wb_starvation
scenario's JSON files (one line per file: base and patched runs can be
overlaid) into a PNG, with gnuplot (Debian: gnuplot-nox).

  scripts/kshim_plot_wb.py -o wb.png build/tests/wb_starvation_kupdate.json
  scripts/kshim_plot_wb.py -o cmp.png base.json:base patched.json:patched
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('-o', '--output', required=True, help='the PNG to write')
    ap.add_argument('runs', nargs='+', help='JSON[:label]')
    a = ap.parse_args()
    if not shutil.which('gnuplot'):
        sys.exit('kshim: gnuplot is not installed (apt-get install gnuplot-nox)')
    plots = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, run in enumerate(a.runs):
            path, _, label = run.partition(':')
            try:
                with open(path) as f:
                    d = json.load(f)
            except (OSError, ValueError) as e:
                sys.exit(f'kshim: cannot read {path}: {e}')
            label = label or f'{d["regime"]} ({d["verdict"]})'
            dat = os.path.join(tmp, f'{i}.dat')
            with open(dat, 'w') as f:
                for s in d['samples']:
                    f.write(f'{s[0] / 1000.0} {s[1] * 4 / 1024.0}\n')
            plots.append(f"'{dat}' using 1:2 with lines lw 2 title '{label}'")
        script = (
            'set terminal pngcairo size 900,500\n'
            f"set output '{a.output}'\n"
            "set title 'wb\\_starvation: dirty data of the large file over time'\n"
            "set xlabel 'seconds since the first write of the large file (virtual)'\n"
            "set ylabel 'dirty MiB of the large file'\n"
            'set grid\n'
            'plot ' + ', '.join(plots) + '\n')
        r = subprocess.run(['gnuplot'], input=script, text=True,
                           capture_output=True)
        if r.returncode != 0:
            sys.exit(f'kshim: gnuplot failed: {r.stderr.strip()}')
    print(f'kshim: wrote {a.output}')


if __name__ == '__main__':
    main()
