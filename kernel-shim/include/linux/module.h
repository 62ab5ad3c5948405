/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's linux/module.h: everything is built in; there is no module
 * loader. module_init() and module_exit() functions are not initcalls
 * here: the glue or test that needs a subsystem runs its init by name,
 * through a pointer the macros define (kshim_module_init_<fn>), so that
 * a subsystem a binary does not use never starts.
 */
#ifndef _LINUX_MODULE_H
#define _LINUX_MODULE_H

#include <linux/list.h>
#include <linux/compiler.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/moduleparam.h>
#include <linux/error-injection.h>	/* as the real one: linux/syscalls.h relies on it */
/* As the real one, through asm/module.h: the ELF types of the module
 * loader, which linux/livepatch.h's stubs name. */
#include <linux/elf.h>
#include <asm-generic/module.h>

struct module;
#define THIS_MODULE		((struct module *)0)
#define MODULE_LICENSE(x)
#define MODULE_AUTHOR(x)
#define MODULE_DESCRIPTION(x)
#define MODULE_ALIAS(x)
#define MODULE_SOFTDEP(x)
#define MODULE_IMPORT_NS(x)
#define module_put(m)		do { } while (0)
#define try_module_get(m)	true
#define __module_get(m)		do { } while (0)
#define module_init(fn)	int (*const kshim_module_init_##fn)(void) = fn;
#define module_exit(fn)	void (*const kshim_module_exit_##fn)(void) = fn;

#endif
