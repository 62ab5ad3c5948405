# SPDX-License-Identifier: GPL-2.0
"""Header audit (DESIGN.md rule 5), run as a test after the build.

Every kernel-world object (compiled with -D__KERNEL__) must have been
compiled with -nostdinc, and none of the headers it included (from ninja's
dependency log, i.e. the compiler's own -MD output) may come from
/usr/include: a host <linux/...> or <asm/...> header silently standing in
for a missing shim is exactly the bug this guards against.

usage: python3 -m scripts.build.header_audit BUILDDIR   (meson test
       header_audit; from the repository root, or with it in PYTHONPATH)
"""
import json
import os
import subprocess
import sys


def main():
    builddir = sys.argv[1]
    with open(os.path.join(builddir, 'compile_commands.json')) as f:
        commands = json.load(f)
    kernel_objs = {}
    for c in commands:
        cmd = c.get('command', '')
        if '-D__KERNEL__' not in cmd:
            continue
        obj = c['output']
        kernel_objs[obj] = cmd
    if not kernel_objs:
        sys.exit('kshim: header audit found no kernel-world objects')
    problems = []
    for obj, cmd in sorted(kernel_objs.items()):
        if '-nostdinc' not in cmd.split():
            problems.append(f'{obj}: compiled without -nostdinc')
    deps = subprocess.run(['ninja', '-C', builddir, '-t', 'deps'],
                          capture_output=True, text=True, check=True).stdout
    current = None
    checked = 0
    for line in deps.splitlines():
        if line and not line.startswith(' '):
            current = line.split(':', 1)[0]
            if current in kernel_objs:
                checked += 1
            continue
        dep = line.strip()
        if current in kernel_objs and dep.startswith('/usr/include/'):
            problems.append(f'{current}: includes host header {dep}')
    for p in problems:
        print('kshim: header audit:', p)
    print(f'header audit: {len(kernel_objs)} kernel-world objects, '
          f'{checked} with dependency records, {len(problems)} problem(s)')
    print(f'KSHIM-RESULT tests=1 passed={0 if problems else 1} '
          f'failed={1 if problems else 0} skipped=0')
    if checked == 0:
        sys.exit('kshim: header audit: ninja has no dependency records '
                 '(build first)')
    sys.exit(1 if problems else 0)


if __name__ == '__main__':
    main()
