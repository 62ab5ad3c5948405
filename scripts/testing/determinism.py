# SPDX-License-Identifier: GPL-2.0
"""Determinism check of the deterministic backend.

Runs each BINARY RUNS times with the same seed and requires the same trace
hash (the hash of every scheduling decision) and the same results every
time; then one run with another seed must give a different hash.
WRAPPER (e.g. "valgrind -q") is put in front of each run if given.

usage: python3 -m scripts.testing.determinism RUNS BINARY... [-- WRAPPER...]
(meson test determinism; from the repository root, or with it in
PYTHONPATH)
"""
import os
import re
import subprocess
import sys

HASH = re.compile(r'trace hash ([0-9a-f]{16})')
RESULT = re.compile(r'^KSHIM-RESULT .*$', re.M)


def run(cmd, seed):
    env = dict(os.environ, KSHIM_BACKEND='det', KSHIM_SEED=str(seed))
    r = subprocess.run(cmd, env=env, capture_output=True, text=True,
                       timeout=600)
    out = r.stdout + r.stderr
    h = HASH.search(out)
    res = RESULT.search(out)
    if r.returncode != 0 or not h or not res:
        sys.exit(f'{" ".join(cmd)} (seed {seed}) failed:\n{out[-3000:]}')
    return h.group(1), res.group(0)


def main():
    args = sys.argv[1:]
    wrapper = []
    if '--' in args:
        i = args.index('--')
        args, wrapper = args[:i], args[i + 1:]
    runs, binaries = int(args[0]), args[1:]
    ok = True
    for b in binaries:
        first = run(wrapper + [b], 12345)
        same = 1
        for _ in range(runs - 1):
            if run(wrapper + [b], 12345) == first:
                same += 1
        other = run(wrapper + [b], 12346)
        name = os.path.basename(b)
        print(f'{name}: seed 12345 gave trace hash {first[0]} in {same} of '
              f'{runs} runs; seed 12346 gave {other[0]}')
        if same != runs or other[0] == first[0]:
            ok = False
    print(f'KSHIM-RESULT tests={len(binaries)} passed={len(binaries) if ok else 0} '
          f'failed={0 if ok else len(binaries)} skipped=0')
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
