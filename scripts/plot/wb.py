# SPDX-License-Identifier: GPL-2.0
"""Plot the large file's dirty pages over time from the wb_starvation
and wb_starvation_xfs scenarios' JSON files (one line per file: base and
patched runs can be overlaid) into a PNG, with gnuplot (Debian: gnuplot-nox).

  ./kshim plot -o wb.png build/tests/wb_starvation_kupdate.json
  ./kshim plot -o cmp.png base.json:base patched.json:patched
"""
import os
import tempfile

from scripts.plot import common


def plot(output, runs):
    """RUNS: [(label, parsed JSON)] into the PNG OUTPUT."""
    plots = []
    name = runs[0][1].get('scenario', 'wb_starvation').replace('_', '\\_')
    with tempfile.TemporaryDirectory() as tmp:
        for i, (label, d) in enumerate(runs):
            label = label or f'{d["regime"]} ({d["verdict"]})'
            dat = os.path.join(tmp, f'{i}.dat')
            with open(dat, 'w') as f:
                for s in d['samples']:
                    f.write(f'{s[0] / 1000.0} {s[1] * 4 / 1024.0}\n')
            plots.append(f"'{dat}' using 1:2 with lines lw 2 title '{label}'")
        script = (
            'set terminal pngcairo size 900,500\n'
            f"set output '{output}'\n"
            f"set title '{name}: dirty data of the large file over time'\n"
            "set xlabel 'seconds since the first write of the large file (virtual)'\n"
            "set ylabel 'dirty MiB of the large file'\n"
            'set grid\n'
            'plot ' + ', '.join(plots) + '\n')
        common.gnuplot(script, output)
