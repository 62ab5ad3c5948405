#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Generate the headers the kernel's own build would generate, from the
kernel tree itself: include/generated/timeconst.h (kernel/time/timeconst.bc
run through bc for kshim's HZ). Run by meson at configure time."""
import argparse
import os
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--tree', required=True)
    ap.add_argument('--hz', required=True, type=int)
    ap.add_argument('--out', required=True)
    a = ap.parse_args()
    bcfile = os.path.join(a.tree, 'kernel/time/timeconst.bc')
    if not os.path.isfile(bcfile):
        sys.exit(f'kshim: {bcfile} is missing: the tree lacks kernel/time')
    try:
        r = subprocess.run(['bc', '-q', bcfile], input=f'{a.hz}\n',
                           capture_output=True, text=True, check=True)
    except FileNotFoundError:
        sys.exit('kshim: bc is not installed (apt-get install bc); it '
                 'generates timeconst.h from the kernel tree')
    except subprocess.CalledProcessError as e:
        sys.exit(f'kshim: bc failed on {bcfile}: {e.stderr.strip()}')
    gen = os.path.join(a.out, 'generated')
    os.makedirs(gen, exist_ok=True)
    path = os.path.join(gen, 'timeconst.h')
    old = open(path).read() if os.path.exists(path) else None
    if old != r.stdout:  # keep the mtime when unchanged: no rebuild
        with open(path, 'w') as f:
            f.write(r.stdout)


if __name__ == '__main__':
    main()
