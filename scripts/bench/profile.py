# SPDX-License-Identifier: GPL-2.0
"""Where a kshim binary spends its time: shim against kernel code.

Runs BINARY (with ARGS) under `perf record` (cpu-clock samples of every
thread of the process, with DWARF call chains) and classifies each sample
by the source file of the code it hit, as the binary's DWARF line table
names it (addr2line -i: the innermost inlined function, so a shim
header's spin_lock() inlined into a kernel function counts as shim):

  kernel   the kernel tree (build/kernel/linux, build/kernel-overlay, or
           the tree build/kernel/tree.json names)
  shim     kshim's own code: kernel-shim/ (runtime, stand-in headers,
           host layer) and the glue in xfs/, writeback/, mm/
  test     tests/ (the test or benchmark and its support code)
  host     outside the binary: libc, libgcc, liburcu, the host kernel
  unknown  in the binary, but without line information

Two views. "self": where the sampled instruction is. "charged": a host
sample (a system call, a libc function) is charged to the code in the
binary that called it, the first frame of the call chain in the binary,
so a futex wake-up made by a shim lock counts as shim, a memcpy() the
kernel code calls as kernel. Host samples with no caller in the binary
(the loader, a broken chain) stay host.

The shim class is split further by service (locks, scheduler, bdev,
...: SHIM_PARTS below, by file), the service being the one the kernel
or test code called (see shim_part()); its top functions are printed,
by the function the sample hit or the host call was made from, with
their own and their host time, the host function most of that was, and the function
the sample was most often inside. Samples of other processes (mkfs.xfs
and the shell the harness runs) are counted apart and left out.

The environment passes through, so KSHIM_BACKEND=det KSHIM_BENCH_N=64
./kshim profile build/tests/bench_xfs_log profiles that run.
perf record needs kernel.perf_event_paranoid <= 2 for a process's own
samples (root: any), and writes about 16 KiB per sample (-F and the
run's length decide the size).

usage: ./kshim profile [-F HZ] [-o|-i perf.data] [--top N] [--json OUT]
                       BINARY [ARGS...]
"""
import argparse
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

import scripts

# Real: compared with the real paths of the binary's source files.
REPO = os.path.realpath(scripts.REPO)
PERF = '/usr/bin/perf'

# Shim files by what they do: the first pattern that matches the file's
# path (relative to the repo) names its part.
SHIM_PARTS = [
    ('locks', r'kshim_lock|/(spinlock|mutex|rwsem|rwlock|seqlock|semaphore|'
              r'lockdep|local_lock|percpu-rwsem)[^/]*\.h$'),
    # An atomic section (preempt or interrupts off) owns its simulated
    # CPU (kshim_cpu.c): entering one may wait for the CPU.
    ('simulated CPUs', r'kshim_cpu\.c|/asm/(preempt|irqflags)\.h$'),
    ('scheduler', r'kshim_sched|kshim_task|kshim_host_fiber|kshim_kthread|'
                  r'kshim_hung_task|/(sched|wait|completion|swait|'
                  r'preempt|kthread)[^/]*\.h$'),
    ('bdev', r'kshim_blk|kshim_host_disk|kshim_host_image|kshim_vfs|'
             r'/(bio|blkdev|blk_types|buffer_head)[^/]*\.h$'),
    ('rcu', r'rcu'),
    ('workqueue+timers', r'kshim_workqueue|kshim_time|workqueue|timer'),
    ('memory', r'kshim_slab|kshim_page_alloc|kshim_mm|/(slab|gfp|mm|'
               r'vmalloc)[^/]*\.h$'),
    ('atomics+percpu', r'/(atomic|cmpxchg|percpu|bitops|barrier)[^/]*\.h$'),
    ('printk', r'kshim_printk'),
]


def kernel_trees(builddir):
    trees = [os.path.join(builddir, 'kernel'),
             os.path.join(builddir, 'kernel-overlay')]
    try:
        with open(os.path.join(builddir, 'kernel', 'tree.json')) as f:
            trees.append(json.load(f)['tree'])
    except (OSError, ValueError, KeyError):
        pass
    return [os.path.realpath(t) + '/' for t in trees]


def classify_file(path, trees):
    """(class, shim part or None) of a source file path."""
    if not path or path.startswith('??'):
        return 'unknown', None
    real = os.path.realpath(path)
    for p in (path, real):
        if any(p.startswith(t) for t in trees):
            return 'kernel', None
    if real.startswith(REPO + '/'):
        rel = real[len(REPO) + 1:]
        if rel.startswith('tests/'):
            return 'test', None
        if rel.split('/')[0] in ('kernel-shim', 'xfs', 'writeback', 'mm'):
            for part, pat in SHIM_PARTS:
                if re.search(pat, '/' + rel):
                    return 'shim', part
            return 'shim', 'other'
    if real.startswith('/usr/include/') or real.startswith('/usr/lib/'):
        return 'host', None
    return 'unknown', None


def record(args, data):
    cmd = [PERF, 'record', '-q', '-e', 'cpu-clock', '-F', str(args.freq),
           '--call-graph', 'dwarf,16384', '-o', data, '--',
           args.binary] + args.args
    print('+ ' + ' '.join(cmd), file=sys.stderr, flush=True)
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    sys.stdout.write(r.stdout)
    if r.returncode != 0:
        raise scripts.Error('%s exited with %d' % (args.binary,
                                                   r.returncode), status=1)


def load_segments(binary):
    """[(p_offset, p_vaddr, p_filesz)] of the binary's LOAD segments."""
    out = subprocess.run(['readelf', '-lW', binary], stdout=subprocess.PIPE,
                         text=True, check=True).stdout
    segs = []
    for line in out.splitlines():
        f = line.split()
        if f and f[0] == 'LOAD':
            segs.append((int(f[1], 16), int(f[2], 16), int(f[4], 16)))
    return segs


def samples(data, binary):
    """Yield (pid, comm, frames) per sample, frames leaf first, each
    (addr, sym, dso, in_binary). For the binary, addr is its address in
    the ELF file: perf prints a call chain's user addresses relative to
    the mapping (the file offset; an absolute one, if any, is mapped
    back through the mmap events), the LOAD segment gives the address."""
    cmd = [PERF, 'script', '-i', data, '-F', 'comm,pid,ip,sym,dso',
           '--show-mmap-events']
    out = subprocess.run(cmd, stdout=subprocess.PIPE, text=True,
                         stderr=subprocess.DEVNULL, check=True).stdout
    real_bin = os.path.realpath(binary)
    segs = load_segments(binary)
    mmap_re = re.compile(r'PERF_RECORD_MMAP2? (\d+)/\d+: \[(0x[0-9a-f]+)'
                         r'\((0x[0-9a-f]+)\) @ (0x[0-9a-f]+|\d+)[^\]]*\]:'
                         r' \S+ (\S+)')
    head_re = re.compile(r'^(\S.*?)\s+(\d+)\s*$')
    frame_re = re.compile(r'^\s+([0-9a-f]+)\s+(.*?)\s*\(([^()]*)\)\s*$')
    maps = collections.defaultdict(list)
    dsos = {}

    def in_bin(dso):
        if dso not in dsos:
            dsos[dso] = os.path.realpath(dso) == real_bin
        return dsos[dso]

    def to_vaddr(pid, addr):
        for start, length, pgoff in maps[pid]:
            if start <= addr < start + length:
                addr = addr - start + pgoff
                break
        for p_off, p_vaddr, p_filesz in segs:
            if p_off <= addr < p_off + p_filesz:
                return addr - p_off + p_vaddr
        return addr

    cur = None
    for line in out.splitlines():
        if 'PERF_RECORD_' in line:
            m = mmap_re.search(line)
            if m and os.path.realpath(m.group(5)) == real_bin:
                maps[int(m.group(1))].append((int(m.group(2), 16),
                                              int(m.group(3), 16),
                                              int(m.group(4), 0)))
            continue
        if not line.strip():
            if cur and cur[2]:
                yield cur
            cur = None
            continue
        m = frame_re.match(line)
        if m and cur is not None:
            addr, sym, dso = m.groups()
            if dso == 'inlined':	# perf's own inline expansion
                continue
            addr = int(addr, 16)
            b = in_bin(dso)
            if b:
                addr = to_vaddr(cur[0], addr)
            cur[2].append((addr, sym or '[unknown]', dso, b))
            continue
        m = head_re.match(line)
        if m:
            if cur and cur[2]:
                yield cur
            cur = (int(m.group(2)), m.group(1), [])
    if cur and cur[2]:
        yield cur


def resolve(binary, addrs):
    """addr -> [(function, file)], the innermost inlined one first, the
    containing function last."""
    if not addrs:
        return {}
    addrs = sorted(addrs)
    inp = ''.join('0x%x\n' % a for a in addrs)
    out = subprocess.run(['addr2line', '-e', binary, '-a', '-f', '-i'],
                         input=inp, stdout=subprocess.PIPE, text=True,
                         check=True).stdout.splitlines()
    res, cur, frames = {}, None, []

    def flush():
        if cur is not None and frames:
            res[cur] = frames

    i = 0
    while i < len(out):
        line = out[i]
        if line.startswith('0x'):
            flush()
            cur, frames = int(line, 16), []
            i += 1
            continue
        func = line
        loc = out[i + 1] if i + 1 < len(out) else '??:0'
        frames.append((func, loc.rsplit(':', 1)[0]))
        i += 2
    flush()
    return res


def main(argv):
    ap = scripts.ArgumentParser(
        prog='kshim profile', description=__doc__.split('\n')[0],
        # The classes, the views and the environment; not the code notes.
        epilog='\n\n'.join(__doc__.split('\n\n')[i] for i in (1, 2, 3, 5)),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('-F', dest='freq', type=int, default=1000, metavar='HZ',
                    help='samples per second per CPU (default 1000)')
    ap.add_argument('-o', dest='data', metavar='perf.data',
                    help='keep perf.data here')
    ap.add_argument('-i', dest='input', metavar='perf.data',
                    help='analyse this perf.data (of BINARY) instead of '
                         'recording')
    ap.add_argument('--top', type=int, default=10, metavar='N',
                    help='functions listed per table (default 10)')
    ap.add_argument('--json', metavar='OUT',
                    help='write the shares as JSON here')
    ap.add_argument('binary', metavar='BINARY',
                    help='a kshim test or benchmark binary '
                         '(build/tests/bench_xfs_log)')
    ap.add_argument('args', nargs=argparse.REMAINDER, metavar='ARGS',
                    help='its arguments')
    args = ap.parse_args(argv)
    if not os.path.isfile(args.binary) or \
       not os.access(args.binary, os.X_OK):
        raise scripts.Error('%s is not an executable file' % args.binary)
    if args.input and not os.path.isfile(args.input):
        raise scripts.Error('-i %s: no such file' % args.input)
    if not os.access(PERF, os.X_OK):
        raise scripts.Error('%s not found (apt-get install linux-perf)'
                            % PERF, status=1)

    builddir = os.path.dirname(os.path.dirname(os.path.realpath(args.binary)))
    trees = kernel_trees(builddir)
    with tempfile.TemporaryDirectory() as tmp:
        data = args.input or args.data or os.path.join(tmp, 'perf.data')
        if not args.input:
            record(args, data)
        raw = list(samples(data, args.binary))
    if not raw:
        raise scripts.Error('no samples', status=1)
    # The binary's process: the pid with the most samples in the binary.
    pids = collections.Counter(p for p, c, fr in raw if fr[0][3])
    main_pid = pids.most_common(1)[0][0]

    # Binary frames as addresses to look up: the leaf's own, callers'
    # return addresses minus one (the call instruction's line).
    def bin_frames(fr):
        return [(addr if i == 0 else addr - 1, sym)
                for i, (addr, sym, dso, b) in enumerate(fr) if b]

    addrs = set()
    for p, c, fr in raw:
        if p == main_pid:
            addrs.update(a for a, _ in bin_frames(fr))
    where = resolve(args.binary, addrs)
    file_cls = {}

    def file_class(path):
        if path not in file_cls:
            file_cls[path] = classify_file(path, trees)
        return file_cls[path]

    def cls_of(addr, sym):
        chain = where.get(addr, [('??', '??')])
        func, path = chain[0]
        return func, path, chain[-1][0] if chain[-1][0] != '??' else sym, \
            file_class(path)

    def shim_entry(addr, sym):
        """The outermost shim function of the address's inline chain:
        spin_lock() (locks) rather than the preempt_disable() (scheduler)
        inlined into it."""
        entry = None
        for func, path in where.get(addr, [('??', '??')]):
            c, part = file_class(path)
            if c != 'shim':
                break
            entry = (part, func)
        return entry

    # The shim service a sample is in: the part of the outermost shim
    # frame of the shim frames the charged one sits under, i.e. what the
    # kernel (or test) code called: mutex_lock() -> the scheduler's
    # wait -> a futex is a lock's cost. A chain that is shim up to its
    # thread's root (the block device's completion task, the RCU
    # callback worker) has no such caller: its innermost part other
    # than 'other' counts.
    def shim_part(bf):
        """(part, the function of the frame that decided it)."""
        parts = []
        for addr, sym in bf:
            func, path, outer, (c, part) = cls_of(addr, sym)
            if c != 'shim':
                break
            parts.append(shim_entry(addr, sym))
        else:
            return next((p for p in parts if p[0] != 'other'), parts[-1])
        return parts[-1]

    self_cls, charged_cls = collections.Counter(), collections.Counter()
    self_part, charged_part = collections.Counter(), collections.Counter()
    host = collections.Counter()
    host_to = collections.defaultdict(collections.Counter)
    f_self, f_host = collections.Counter(), collections.Counter()
    f_hostsym = collections.defaultdict(collections.Counter)
    f_in = collections.defaultdict(collections.Counter)
    others = collections.Counter()
    entries = collections.defaultdict(collections.Counter)
    checked = mismatched = 0
    total = 0
    for pid, comm, fr in raw:
        if pid != main_pid:
            others[comm] += 1
            continue
        total += 1
        leaf_addr, leaf_sym, leaf_dso, leaf_in = fr[0]
        bf = bin_frames(fr)
        if not bf:
            cls, part, key, outer = 'host', None, None, None
        else:
            addr, sym = bf[0]
            func, path, outer, (cls, part) = cls_of(addr, sym)
            # The address translation, checked: addr2line's containing
            # function against perf's symbol.
            checked += 1
            mismatched += outer != sym
            if cls == 'shim':
                part, entry = shim_part(bf)
                entries[part][entry] += 1
            key = '%s (%s)' % (func if func != '??' else sym,
                               os.path.relpath(os.path.realpath(path), REPO)
                               if path != '??' else '?')
        charged_cls[cls] += 1
        if part:
            charged_part[part] += 1
        if leaf_in:
            self_cls[cls] += 1
            if part:
                self_part[part] += 1
        else:
            self_cls['host'] += 1
            hk = '%s %s' % (os.path.basename(leaf_dso), leaf_sym)
            host[hk] += 1
            host_to[hk][cls] += 1
        if cls == 'shim':
            if leaf_in:
                f_self[key] += 1
            else:
                f_host[key] += 1
                f_hostsym[key][leaf_sym] += 1
            f_in[key][outer] += 1

    def pct(n):
        return 100.0 * n / total if total else 0.0

    env = ' '.join('%s=%s' % (k, v) for k, v in sorted(os.environ.items())
                   if k.startswith('KSHIM_'))
    print('\nkshim profile: %s %s' % (args.binary, ' '.join(args.args)))
    print('environment: %s' % (env or '(none)'))
    print('%d samples of the binary\'s process (cpu-clock, %d Hz); %d of '
          'other processes left out (%s)' %
          (total, args.freq, sum(others.values()),
           ', '.join('%s %d' % kv for kv in others.most_common(4)) or '-'))
    if checked and mismatched * 20 > checked:
        print('WARNING: %d of %d addresses resolve to another function than '
              'perf\'s symbol: the shares are not to be trusted' %
              (mismatched, checked))
    print('\n%-10s %7s %9s' % ('class', 'self', 'charged'))
    for cls in ('kernel', 'shim', 'test', 'host', 'unknown'):
        print('%-10s %6.1f%% %8.1f%%' % (cls, pct(self_cls[cls]),
                                         pct(charged_cls[cls])))
    print('\nshim, by service (self, charged; the entry points that '
          'decided it, charged):')
    for part, n in charged_part.most_common():
        print('  %-18s %6.1f%% %8.1f%%  %s' % (
            part, pct(self_part[part]), pct(n),
            ', '.join('%s %.1f%%' % (e, pct(m))
                      for e, m in entries[part].most_common(3))))
    print('\nhost, top %d (self; charged to):' % args.top)
    for k, n in host.most_common(args.top):
        to = ', '.join('%s %d%%' % (c, 100 * m // n)
                       for c, m in host_to[k].most_common(2))
        print('  %6.1f%%  %s  [%s]' % (pct(n), k, to))
    print('\nshim, top %d functions (charged = own + host it called; '
          'the host function most of that was; most often inside):' %
          args.top)
    tot = f_self + f_host
    for k, n in tot.most_common(args.top):
        hs = f_hostsym[k].most_common(1)
        outer, m = f_in[k].most_common(1)[0]
        inside = ('' if k.startswith(outer + ' (') else
                  '  [in %s %d%%]' % (outer, 100 * m // n))
        print('  %6.1f%%  %s  own %.1f%%, host %.1f%%%s%s' %
              (pct(n), k, pct(f_self[k]), pct(f_host[k]),
               ' (%s)' % hs[0][0] if hs else '', inside))
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'binary': args.binary, 'args': args.args,
                       'environment': env, 'samples': total,
                       'self': dict(self_cls), 'charged': dict(charged_cls),
                       'shim_parts_self': dict(self_part),
                       'shim_parts_charged': dict(charged_part),
                       'shim_top': tot.most_common(args.top),
                       'host_top': host.most_common(args.top)}, f, indent=1)
    return 0

