# SPDX-License-Identifier: GPL-2.0
"""Plot the reclaim_mapping_lock scenario (seed 003, the mapping lock
under page reclaim) from its JSON files: per lock, reclaim's longest hold
and the total wait of everyone, one group of bars per lock and one bar per
file, so base and patched runs can be compared; into a PNG with gnuplot
(Debian: gnuplot-nox). A logarithmic axis: a patched hold is often many
times the base one.

  ./kshim plot -o ml.png base.json:base patched.json:patched
"""
import os
import tempfile

from scripts.plot import common

LOCKS = ('shared_i_pages', 'private_i_pages', 'lru_lock', 'shared_i_lock',
         'private_i_lock')


def plot(output, runs):
    """RUNS: [(label, parsed JSON)] into the PNG OUTPUT."""
    with tempfile.TemporaryDirectory() as tmp:
        dat = os.path.join(tmp, 'locks.dat')
        titles = []
        with open(dat, 'w') as f:
            for lock in LOCKS:
                cols = []
                for _, d in runs:
                    lk = d['locks'][lock]
                    cols.append(max(lk['reclaim']['hold_max_ns'], 1) / 1000)
                    wait = (lk['reclaim']['wait_ns'] +
                            lk['others']['wait_ns'])
                    cols.append(max(wait, 1) / 1000)
                f.write('"%s" %s\n' % (lock.replace('_', '\\\\_'),
                                       ' '.join('%g' % c for c in cols)))
        for i, (label, d) in enumerate(runs):
            label = label or ('pass' if d['pass'] else 'FAIL')
            titles.append(f"'{dat}' using {2 + 2 * i}:xtic(1) "
                          f"title '{label}: longest hold by reclaim'")
            titles.append(f"'{dat}' using {3 + 2 * i} "
                          f"title '{label}: total wait, all tasks'")
        script = (
            'set terminal pngcairo size 1000,500\n'
            f"set output '{output}'\n"
            "set title 'reclaim\\_mapping\\_lock: locks of the files "
            "under reclaim'\n"
            'set style data histograms\nset style histogram clustered\n'
            'set style fill solid 0.8 border -1\nset boxwidth 0.9\n'
            'set logscale y 10\nset yrange [0.5:*]\n'
            "set ylabel 'us (kshim clock)'\n"
            'set grid ytics\nset key top left\n'
            'plot ' + ', '.join(titles) + '\n')
        common.gnuplot(script, output)
