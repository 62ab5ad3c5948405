/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's linux/cpu.h: the simulated CPUs never go on- or offline, so the
 * hotplug lock is a real (but never contended by hotplug) rwsem and the
 * hotplug state callbacks are recorded but never called. The real header
 * drags in the driver model (device.h).
 */
#ifndef _LINUX_CPU_H_
#define _LINUX_CPU_H_

#include <linux/cpumask.h>
#include <linux/cpuhotplug.h>

void cpus_read_lock(void);
void cpus_read_unlock(void);
int cpus_read_trylock(void);
void cpus_write_lock(void);
void cpus_write_unlock(void);
#define lockdep_assert_cpus_held()	do { } while (0)
#define get_online_cpus()	cpus_read_lock()
#define put_online_cpus()	cpus_read_unlock()
#define cpu_hotplug_disable()	do { } while (0)
#define cpu_hotplug_enable()	do { } while (0)

#endif
