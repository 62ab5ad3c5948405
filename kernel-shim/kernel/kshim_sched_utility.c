// SPDX-License-Identifier: GPL-2.0
/*
 * The real kernel/sched/completion.c, swait.c, wait_bit.c and wait.c,
 * compiled the way the kernel compiles them: they have no #includes of
 * their own and are built inside kernel/sched/build_utility.c after its
 * include list and #include "sched.h". This file is kshim's
 * build_utility.c for those four: the kernel headers they need, kshim's
 * stand-in for kernel/sched/sched.h (kernel-shim/overlay/kernel/sched/,
 * first on the -iquote path), then the kernel files themselves from the
 * tree's kernel/sched (next on the -iquote path), in the kernel's order.
 * The other files of build_utility.c (clock, loadavg, topology, psi, ...)
 * belong to the real scheduler and are not compiled.
 */
#include <linux/sched/mm.h>
#include <linux/sched/debug.h>

#include <linux/spinlock.h>
#include <linux/swait_api.h>
#include <linux/wait_api.h>
#include <linux/wait_bit.h>
#include <linux/completion.h>

#include "sched.h"

#include "completion.c"
#include "swait.c"
#include "wait_bit.c"
#include "wait.c"
