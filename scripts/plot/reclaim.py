# SPDX-License-Identifier: GPL-2.0
"""Plot the reclaim_stalls scenario (allocation stalls under inode-cache
pressure) from its JSON: the allocation latency histogram (allocations
per power-of-two latency bucket, kshim clock), one line per file, so base
and patched runs can be overlaid; into a PNG with gnuplot (Debian:
gnuplot-nox).

  ./kshim plot -o reclaim.png build/tests/reclaim_stalls.json
  ./kshim plot -o cmp.png base.json:base patched.json:patched
"""
import os
import tempfile

from scripts.plot import common


def bucket_label(i):
    """Bucket i holds latencies in [2^(i-1), 2^i) ns; bucket 0 is 0 ns."""
    if i == 0:
        return '0'
    ns = 1 << (i - 1)
    for unit, div in (('s', 10**9), ('ms', 10**6), ('us', 10**3)):
        if ns >= div:
            return f'{ns // div}{unit}'
    return f'{ns}ns'


def plot(output, runs):
    """RUNS: [(label, parsed JSON)] into the PNG OUTPUT."""
    plots = []
    with tempfile.TemporaryDirectory() as tmp:
        for i, (label, d) in enumerate(runs):
            label = label or d.get('backend', '')
            title = (f"{label}: {d['allocations_delayed']} of "
                     f"{d['allocations']} delayed, max "
                     f"{d['alloc_max_ns'] / 1e6:.1f} ms, "
                     f"{d['reclaim_sleeps']} sleeps in reclaim").strip(': ')
            dat = os.path.join(tmp, f'{i}.dat')
            with open(dat, 'w') as f:
                for b, n in enumerate(d['latency_histogram_log2_ns']):
                    f.write(f'{b} {n} "{bucket_label(b)}"\n')
            plots.append(f"'{dat}' using 1:2:xtic(3) with linespoints lw 2 "
                         f"title '{title}'")
        script = (
            'set terminal pngcairo size 1000,450\n'
            f"set output '{output}'\n"
            "set title 'reclaim stalls: allocation latency "
            "under inode-cache pressure'\n"
            'set grid\nset key top right\nset xtics rotate by -45\n'
            "set xlabel 'allocation latency (bucket: at least)'\n"
            "set ylabel 'allocations'\nset logscale y 10\nset yrange [0.8:*]\n"
            'plot ' + ', '.join(plots) + '\n')
        common.gnuplot(script, output)
