/* SPDX-License-Identifier: GPL-2.0 */
/* kshim's linux/mutex_types.h: a mutex is a sleeping kshim_lock. */
#ifndef __LINUX_MUTEX_TYPES_H
#define __LINUX_MUTEX_TYPES_H

#include <kshim/lock.h>

struct mutex {
	struct kshim_lock kl;
};

#endif
