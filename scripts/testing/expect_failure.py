# SPDX-License-Identifier: GPL-2.0
"""Check that a deliberately broken test binary is caught.

Runs BINARY --seeds N in the deterministic backend and passes only if the
sweep finds a failing seed within N and the report contains every EXPECT
string (task names, lock names, "HANG"...). Prints the seed that found it.

usage: python3 -m scripts.testing.expect_failure BINARY N EXPECT...
                                                [-- ENV=VALUE...]
(meson's detect_* and finding_* tests; from the repository root, or with
it in PYTHONPATH)
"""
import os
import re
import subprocess
import sys


def main():
    args = sys.argv[1:]
    env_extra = []
    if '--' in args:
        i = args.index('--')
        args, env_extra = args[:i], args[i + 1:]
    binary, nseeds, expects = args[0], args[1], args[2:]
    env = dict(os.environ, KSHIM_BACKEND='det')
    # The seed count is part of what is expected here, not something
    # KSHIM_SEEDS (kshim prevalidate --seeds) may change.
    env.pop('KSHIM_SEEDS', None)
    for kv in env_extra:
        k, v = kv.split('=', 1)
        env[k] = v
    # Every seed, whatever KSHIM_SHARD says: --shard beats it.
    r = subprocess.run([binary, '--seeds', nseeds, '--shard', '1/1'], env=env,
                       capture_output=True, text=True, timeout=600)
    out = r.stdout + r.stderr
    m = re.search(r'first failing seed: (\d+)', out)
    if r.returncode == 0 or not m:
        print(out[-4000:])
        print(f'NOT CAUGHT: {binary} passed all {nseeds} seeds')
        print('KSHIM-RESULT tests=1 passed=0 failed=1 skipped=0')
        return 1
    missing = [e for e in expects if e not in out]
    print(out[-6000:])
    if missing:
        print(f'CAUGHT at seed {m.group(1)}, but the report lacks: {missing}')
        print('KSHIM-RESULT tests=1 passed=0 failed=1 skipped=0')
        return 1
    print(f'CAUGHT: {os.path.basename(binary)} fails at seed {m.group(1)} '
          f'of {nseeds}; report names {expects}')
    print('KSHIM-RESULT tests=1 passed=1 failed=0 skipped=0')
    return 0


if __name__ == '__main__':
    sys.exit(main())
