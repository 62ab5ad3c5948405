# SPDX-License-Identifier: GPL-2.0
"""Determinism check of the deterministic backend.

Runs each BINARY RUNS times with the same seed and requires the same trace
hash (the hash of every scheduling decision) and the same results every
time; then one run with another seed must give a different hash, and the
replay line the first run printed, run with no other KSHIM_* setting,
must give the first run's hash again.
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
REPLAY = re.compile(r'\(replay: ((?:KSHIM_\w+=\S+ )*KSHIM_SEED=\d+)\)')


def run_env(cmd, env, what):
    r = subprocess.run(cmd, env=env, capture_output=True, text=True,
                       timeout=600)
    out = r.stdout + r.stderr
    h = HASH.search(out)
    res = RESULT.search(out)
    if r.returncode != 0 or not h or not res:
        sys.exit(f'{" ".join(cmd)} ({what}) failed:\n{out[-3000:]}')
    return h.group(1), res.group(0), out


def run(cmd, seed):
    env = dict(os.environ, KSHIM_BACKEND='det', KSHIM_SEED=str(seed))
    return run_env(cmd, env, f'seed {seed}')[:2]


def replays(cmd, seed):
    """Whether the replay line a run prints gives that run again: its
    KSHIM_* words alone, as a user pastes them."""
    env = dict(os.environ, KSHIM_BACKEND='det', KSHIM_SEED=str(seed))
    first, _, out = run_env(cmd, env, f'seed {seed}')
    m = REPLAY.search(out)
    if not m:
        print(f'{" ".join(cmd)}: no replay line printed')
        return False
    env = {k: v for k, v in os.environ.items() if not k.startswith('KSHIM_')}
    env.update(w.split('=', 1) for w in m.group(1).split())
    again = run_env(cmd, env, 'replay: ' + m.group(1))[0]
    if again != first:
        print(f'{" ".join(cmd)}: replay line "{m.group(1)}" gave trace hash '
              f'{again}, the run {first}')
    return again == first


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
        if same != runs or other[0] == first[0] or \
           not replays(wrapper + [b], 12345):
            ok = False
    print(f'KSHIM-RESULT tests={len(binaries)} passed={len(binaries) if ok else 0} '
          f'failed={0 if ok else len(binaries)} skipped=0')
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
