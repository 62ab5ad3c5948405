# SPDX-License-Identifier: GPL-2.0
"""Plot the reclaim_writeback scenario (seed 001, writeback from page
reclaim) from its JSON files: the dirty and the writeback pages over time,
two lines per file, so wbfs and XFS, or base and patched, can be
overlaid; into a PNG with gnuplot (Debian: gnuplot-nox).

  ./kshim plot -o rw.png build/tests/reclaim_writeback_wbfs.json:wbfs \\
      build/tests/reclaim_writeback_xfs.json:xfs
"""
import os
import tempfile

from scripts.plot import common


def plot(output, runs):
    """RUNS: [(label, parsed JSON)] into the PNG OUTPUT."""
    plots = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, (label, d) in enumerate(runs):
            label = label or d['fs']
            label += (f": reclaim wrote {d['kswapd_writes']} (kswapd) + "
                      f"{d['direct_writes']} (direct), flushers "
                      f"{d['flusher_pages']}")
            dat = os.path.join(tmp, f'{i}.dat')
            series = d['series']
            with open(dat, 'w') as f:
                for t, dirty, wb in zip(series['t_ms'],
                                        series['dirty_pages'],
                                        series['writeback_pages']):
                    f.write(f'{t} {dirty} {wb}\n')
            plots.append(f"'{dat}' using 1:2 with lines lw 2 dt 1 lc {i + 1} "
                         f"title '{label}: dirty'")
            plots.append(f"'{dat}' using 1:3 with lines lw 2 dt 2 lc {i + 1} "
                         f"title '{label}: writeback'")
        script = (
            'set terminal pngcairo size 1000,600\n'
            f"set output '{output}'\n"
            "set title 'reclaim\\_writeback: dirty and writeback pages "
            "while reclaim runs'\n"
            "set xlabel 'ms since the writers started (kshim clock)'\n"
            "set ylabel 'pages'\n"
            'set grid\nset key below\n'
            'plot ' + ', '.join(plots) + '\n')
        common.gnuplot(script, output)
