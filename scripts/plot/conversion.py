# SPDX-License-Identifier: GPL-2.0
"""Plot the unwritten_conversion scenario (seed 002 on the real data
path) from its JSON: conversions per second and mean wait for log space
per reservation against the number of concurrent writers, one line per
regime (unbounded, push late, bounded) and per file (base and patched
runs can be overlaid), into a PNG with gnuplot (Debian: gnuplot-nox).

  ./kshim plot -o conv.png build/tests/unwritten_conversion.json
  ./kshim plot -o cmp.png base.json:base patched.json:patched
"""
import os
import tempfile

from scripts.plot import common

REGIMES = ('unbounded', 'push_late', 'bounded')


def plot(output, runs):
    """RUNS: [(label, parsed JSON)] into the PNG OUTPUT."""
    rate, wait = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for i, (label, d) in enumerate(runs):
            label = label or d.get('backend', '')
            for regime in REGIMES:
                rows = sorted((r for r in d['runs']
                               if r['regime'] == regime and r['conversions']),
                              key=lambda r: r['n'])
                if not rows:
                    continue
                dat = os.path.join(tmp, f'{i}-{regime}.dat')
                with open(dat, 'w') as f:
                    for r in rows:
                        # A log scale has no zero: a run that never
                        # waited is drawn at 0.1 us.
                        mean_us = max(r['reserve_wait_ns_total'] /
                                      max(r['reservations'], 1) / 1000, 0.1)
                        f.write(f"{r['n']} {r['conversions_per_s']} "
                                f"{mean_us}\n")
                title = f"{label} {regime.replace('_', ' ')}".strip()
                rate.append(f"'{dat}' using 1:2 with linespoints lw 2 "
                            f"title '{title}'")
                wait.append(f"'{dat}' using 1:3 with linespoints lw 2 "
                            f"title '{title}'")
        script = (
            'set terminal pngcairo size 1000,450\n'
            f"set output '{output}'\n"
            'set multiplot layout 1,2 title '
            "'seed 002: O\\_DIRECT writes into unwritten extents, "
            "one conversion each'\n"
            'set logscale x 2\nset grid\nset key bottom left\n'
            "set xlabel 'concurrent writers'\n"
            "set ylabel 'conversions per second (kshim clock)'\n"
            'set yrange [0:*]\n'
            'plot ' + ', '.join(rate) + '\n'
            'set logscale y 10\nset yrange [*:*]\nset key top left\n'
            "set ylabel 'mean wait for log space per reservation (us)'\n"
            'plot ' + ', '.join(wait) + '\n'
            'unset multiplot\n')
        common.gnuplot(script, output)
