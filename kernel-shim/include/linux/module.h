/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's linux/module.h: everything is built in; there is no module
 * loader. module_init() functions are run by the test that needs them
 * (kshim has no initcall sequence), so they are kept callable by name.
 */
#ifndef _LINUX_MODULE_H
#define _LINUX_MODULE_H

#include <linux/list.h>
#include <linux/compiler.h>
#include <linux/export.h>
#include <linux/init.h>
#include <linux/moduleparam.h>
#include <linux/error-injection.h>	/* as the real one: linux/syscalls.h relies on it */

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
#define module_init(fn)
#define module_exit(fn)

#endif
