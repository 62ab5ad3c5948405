# SPDX-License-Identifier: GPL-2.0
"""Plot the log_concurrency scenario (unbounded log concurrency) from its
JSON: commits per second and mean wait for log space against the number
of concurrent tasks, one line per regime (CIL push on time / held back)
and per file (base and patched runs can be overlaid), into a PNG with
gnuplot (Debian: gnuplot-nox).

  ./kshim plot -o log.png build/tests/log_concurrency.json
  ./kshim plot -o cmp.png base.json:base patched.json:patched
"""
import os
import tempfile

from scripts.plot import common


def plot(output, runs):
    """RUNS: [(label, parsed JSON)] into the PNG OUTPUT."""
    rate, wait = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for i, (label, d) in enumerate(runs):
            label = label or d.get('backend', '')
            for push in ('on', 'late'):
                rows = sorted((r for r in d['runs'] if r['push'] == push),
                              key=lambda r: r['n'])
                if not rows:
                    continue
                dat = os.path.join(tmp, f'{i}-{push}.dat')
                with open(dat, 'w') as f:
                    for r in rows:
                        mean_us = r['reserve_wait_ns_total'] / max(r['commits'], 1) / 1000
                        f.write(f"{r['n']} {r['commits_per_s']} {mean_us}\n")
                title = f'{label} push {push}'.strip()
                rate.append(f"'{dat}' using 1:2 with linespoints lw 2 title '{title}'")
                wait.append(f"'{dat}' using 1:3 with linespoints lw 2 title '{title}'")
        script = (
            'set terminal pngcairo size 1000,450\n'
            f"set output '{output}'\n"
            'set multiplot layout 1,2 title '
            "'unbounded log concurrency: tr\\_write commits on the smallest log'\n"
            'set logscale x 2\nset grid\nset key bottom left\n'
            "set xlabel 'concurrent tasks'\n"
            "set ylabel 'commits per second (kshim clock)'\nset yrange [0:*]\n"
            'plot ' + ', '.join(rate) + '\n'
            'set logscale y 10\nset yrange [*:*]\nset key top left\n'
            "set ylabel 'mean wait for log space per commit (us)'\n"
            'plot ' + ', '.join(wait) + '\n'
            'unset multiplot\n')
        common.gnuplot(script, output)
