#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write fuzz/op-sequence/corpus/: hand-made programs for the operation
generator (the input format is fuzz/op-sequence/README.md's): each
group of operations on its own, the default mix with one to four tasks,
each power failure mode, allocation and I/O faults, and programs whose
choices the input gives. Plain bytes, no build needed.

  fuzz/op-sequence/make_seeds.py
"""
import os
import random
import struct
import sys

HERE = os.path.dirname(os.path.realpath(__file__))

# enum fsstress_op's order (tests/support/fsstress.h).
OPS = ['create', 'mkdir', 'symlink', 'link', 'unlink', 'rmdir', 'rename',
       'exchange', 'whiteout', 'chmod', 'chown', 'setxattr', 'getxattr',
       'listxattr', 'removexattr', 'lookup', 'readdir', 'sync', 'logforce',
       'dropcaches', 'write', 'read', 'dsyncwrite', 'dwrite', 'dread',
       'fsync', 'fdatasync', 'fallocate', 'punch', 'zero', 'collapse',
       'insert', 'truncate', 'clone', 'dedupe']

REMOUNT, LARP, WRITE_BACK, READ_FAULT = 0x01, 0x02, 0x04, 0x20
DROP_ALL, KEEP_RANDOM, TEAR = 0, 1, 2


def program(tasks, ops, mix=(), flags=0, mode=DROP_ALL, seed=1, alloc=0,
	    io=0, crash=0, choices=b''):
	mask = 0
	for name in mix:
		mask |= 1 << OPS.index(name)
	return (bytes([tasks - 1, ops - 1, flags | mode << 3]) +
		mask.to_bytes(5, 'little') +
		struct.pack('<HHHH', seed, alloc, io, crash) + choices)


NAMESPACE = ['create', 'mkdir', 'symlink', 'link', 'unlink', 'rmdir',
	     'rename', 'exchange', 'whiteout', 'lookup', 'readdir']
ATTRS = ['create', 'mkdir', 'chmod', 'chown', 'setxattr', 'getxattr',
	 'listxattr', 'removexattr', 'lookup', 'unlink']
BUFFERED = ['create', 'write', 'read', 'truncate', 'fsync', 'fdatasync',
	    'unlink']
DIRECT = ['create', 'dwrite', 'dread', 'dsyncwrite', 'write', 'read']
FALLOC = ['create', 'write', 'fallocate', 'punch', 'zero', 'collapse',
	  'insert', 'truncate', 'read']
REFLINK = ['create', 'write', 'clone', 'dedupe', 'read', 'fsync']
WHOLE_FS = ['create', 'mkdir', 'write', 'setxattr', 'sync', 'logforce',
	    'dropcaches', 'lookup', 'read']


def seeds():
	rnd = random.Random(22)
	yield 'default-1task', program(1, 48)
	yield 'default-2tasks-remount', program(2, 32, flags=REMOUNT, seed=2)
	yield 'default-4tasks', program(4, 24, seed=3)
	yield 'namespace', program(2, 48, NAMESPACE, REMOUNT, seed=4)
	yield 'attrs', program(2, 40, ATTRS, REMOUNT, seed=5)
	yield 'buffered', program(2, 40, BUFFERED, REMOUNT, seed=6)
	yield 'direct', program(1, 40, DIRECT, REMOUNT, seed=7)
	yield 'fallocate', program(2, 40, FALLOC, REMOUNT, seed=8)
	yield 'reflink', program(2, 40, REFLINK, REMOUNT, seed=9)
	yield 'whole-fs', program(2, 30, WHOLE_FS, seed=10)
	yield 'crash-drop-all', program(3, 32, seed=11, crash=50)
	yield 'crash-keep-random', program(3, 32, mode=KEEP_RANDOM, seed=12,
					   crash=60, flags=WRITE_BACK)
	yield 'crash-tear', program(2, 40, mode=TEAR, seed=13, crash=45)
	yield 'crash-data', program(2, 40, BUFFERED + DIRECT, seed=14,
				    crash=55)
	yield 'crash-xattr-larp', program(2, 40, ATTRS + ['logforce'],
					  LARP | WRITE_BACK, KEEP_RANDOM,
					  seed=15, crash=50)
	# Fault points where they fire (KSHIM_VERBOSE=1 says so).
	yield 'alloc-fault-early', program(2, 32, seed=16, alloc=200)
	yield 'alloc-fault-aild', program(2, 32, seed=17, alloc=400)
	yield 'alloc-fault-data', program(1, 40, BUFFERED, seed=18, alloc=300)
	yield 'write-fault', program(2, 32, seed=19, io=2)
	yield 'write-fault-data', program(2, 32, BUFFERED + WHOLE_FS, seed=20,
					  io=3)
	yield 'read-fault', program(2, 32, WHOLE_FS + ['readdir'], READ_FAULT,
				    seed=21, io=10)
	# The input's own choices: every one of them given, then a few.
	yield 'choices-default', program(2, 32, seed=22, choices=bytes(
		rnd.randrange(256) for _ in range(2 * 2 * 32 * 6)))
	yield 'choices-short', program(3, 24, seed=23, flags=REMOUNT,
				       choices=bytes(rnd.randrange(256)
						     for _ in range(64)))


def main(argv):
	if argv[:1] in (['-h'], ['--help']):
		print(__doc__)
		return 0
	out = os.path.join(HERE, 'corpus')
	os.makedirs(out, exist_ok=True)
	for f in os.listdir(out):
		os.unlink(os.path.join(out, f))
	n = 0
	for i, (name, data) in enumerate(seeds()):
		with open(os.path.join(out, '%02d-%s' % (i, name)), 'wb') as f:
			f.write(data)
		n += 1
	print('make_seeds: %d inputs in %s' % (n, out))
	return 0


if __name__ == '__main__':
	sys.exit(main(sys.argv[1:]))
