/* SPDX-License-Identifier: GPL-2.0 */
/*
 * kshim's asm/percpu.h: real per-CPU storage, one copy per simulated CPU.
 * DEFINE_PER_CPU variables land in .data..percpu as in the kernel; the
 * linker script kernel-shim/kernel/kshim_percpu.ld brackets that section, and
 * kshim_percpu.c gives every simulated CPU its own copy of it and sets
 * __per_cpu_offset[] so per_cpu_ptr() finds it.
 *
 * The per-CPU operations (raw_cpu_*() and this_cpu_*() of sizes 1 to 8)
 * are relaxed atomics on the current CPU's copy, as x86's are single
 * instructions that nothing on the same CPU can split. The generic ones
 * are a plain load and store: on a real CPU nothing else runs between
 * them once interrupts (this_cpu_*()) or preemption are off, or the
 * caller accepts the rare lost update of a preempted raw_cpu_*() (the
 * vm event counters: __count_vm_event()). In kshim's parallel backend
 * several host threads share one simulated CPU, and a task holds it only
 * for its atomic sections, so a raw_cpu_inc() from a preemptible task
 * ran truly concurrently with another task's this_cpu_inc() on the same
 * copy: lost counts, and a data race TSan reported
 * (kshim_vm_event_sum()). The this_cpu_*() ones keep the generic code's
 * interrupts-off section around the access (taking the simulated CPU is
 * a switch point of the deterministic backend: its schedules, and the
 * findings' seeds, stay the same). Remote readers (per_cpu()) are the
 * kernel's own plain loads; kshim's own readers use __atomic loads.
 * The cmpxchg64/128 variants stay generic.
 */
#ifndef _KSHIM_ASM_PERCPU_H
#define _KSHIM_ASM_PERCPU_H

#define __kshim_pcp_read(pcp)						\
	__atomic_load_n(raw_cpu_ptr(&(pcp)), __ATOMIC_RELAXED)

#define __kshim_pcp_write(pcp, val)					\
	__atomic_store_n(raw_cpu_ptr(&(pcp)), (typeof(pcp))(val),	\
			 __ATOMIC_RELAXED)

/* C semantics of OP (pointer arithmetic included); the new value. */
#define __kshim_pcp_op_return(pcp, val, op)				\
({									\
	typeof(pcp) *__kp = raw_cpu_ptr(&(pcp));			\
	typeof(pcp) __kold = __atomic_load_n(__kp, __ATOMIC_RELAXED);	\
	typeof(pcp) __knew;						\
	do {								\
		__knew = __kold;					\
		__knew op (val);					\
	} while (!__atomic_compare_exchange_n(__kp, &__kold, __knew,	\
					      false, __ATOMIC_RELAXED,	\
					      __ATOMIC_RELAXED));	\
	__knew;								\
})

#define __kshim_pcp_op(pcp, val, op)					\
	do { (void)__kshim_pcp_op_return(pcp, val, op); } while (0)

#define __kshim_pcp_xchg(pcp, nval)					\
	__atomic_exchange_n(raw_cpu_ptr(&(pcp)), (typeof(pcp))(nval),	\
			    __ATOMIC_RELAXED)

#define __kshim_pcp_try_cmpxchg(pcp, ovalp, nval)			\
	__atomic_compare_exchange_n(raw_cpu_ptr(&(pcp)), (ovalp),	\
				    (typeof(pcp))(nval), false,		\
				    __ATOMIC_RELAXED, __ATOMIC_RELAXED)

#define __kshim_pcp_cmpxchg(pcp, oval, nval)				\
({									\
	typeof(pcp) __kcold = (oval);					\
	__kshim_pcp_try_cmpxchg(pcp, &__kcold, nval);			\
	__kcold;							\
})

/* this_cpu_*(): the generic interrupts-off section around the access. */
#define __kshim_pcp_irqoff(expr)					\
({									\
	unsigned long __kflags;						\
	typeof(expr) __kret;						\
	raw_local_irq_save(__kflags);					\
	__kret = (expr);						\
	raw_local_irq_restore(__kflags);				\
	__kret;								\
})

#define __kshim_pcp_irqoff_void(stmt)					\
do {									\
	unsigned long __kflags;						\
	raw_local_irq_save(__kflags);					\
	stmt;								\
	raw_local_irq_restore(__kflags);				\
} while (0)

/* The generic this_cpu_read() of a native word disables preemption. */
#define __kshim_pcp_this_read(pcp)					\
({									\
	typeof(pcp) __kret;						\
	preempt_disable_notrace();					\
	__kret = __kshim_pcp_read(pcp);					\
	preempt_enable_notrace();					\
	__kret;								\
})

#define raw_cpu_read_1(pcp)		__kshim_pcp_read(pcp)
#define raw_cpu_read_2(pcp)		__kshim_pcp_read(pcp)
#define raw_cpu_read_4(pcp)		__kshim_pcp_read(pcp)
#define raw_cpu_read_8(pcp)		__kshim_pcp_read(pcp)
#define raw_cpu_write_1(pcp, val)	__kshim_pcp_write(pcp, val)
#define raw_cpu_write_2(pcp, val)	__kshim_pcp_write(pcp, val)
#define raw_cpu_write_4(pcp, val)	__kshim_pcp_write(pcp, val)
#define raw_cpu_write_8(pcp, val)	__kshim_pcp_write(pcp, val)
#define raw_cpu_add_1(pcp, val)		__kshim_pcp_op(pcp, val, +=)
#define raw_cpu_add_2(pcp, val)		__kshim_pcp_op(pcp, val, +=)
#define raw_cpu_add_4(pcp, val)		__kshim_pcp_op(pcp, val, +=)
#define raw_cpu_add_8(pcp, val)		__kshim_pcp_op(pcp, val, +=)
#define raw_cpu_and_1(pcp, val)		__kshim_pcp_op(pcp, val, &=)
#define raw_cpu_and_2(pcp, val)		__kshim_pcp_op(pcp, val, &=)
#define raw_cpu_and_4(pcp, val)		__kshim_pcp_op(pcp, val, &=)
#define raw_cpu_and_8(pcp, val)		__kshim_pcp_op(pcp, val, &=)
#define raw_cpu_or_1(pcp, val)		__kshim_pcp_op(pcp, val, |=)
#define raw_cpu_or_2(pcp, val)		__kshim_pcp_op(pcp, val, |=)
#define raw_cpu_or_4(pcp, val)		__kshim_pcp_op(pcp, val, |=)
#define raw_cpu_or_8(pcp, val)		__kshim_pcp_op(pcp, val, |=)
#define raw_cpu_add_return_1(pcp, val)	__kshim_pcp_op_return(pcp, val, +=)
#define raw_cpu_add_return_2(pcp, val)	__kshim_pcp_op_return(pcp, val, +=)
#define raw_cpu_add_return_4(pcp, val)	__kshim_pcp_op_return(pcp, val, +=)
#define raw_cpu_add_return_8(pcp, val)	__kshim_pcp_op_return(pcp, val, +=)
#define raw_cpu_xchg_1(pcp, nval)	__kshim_pcp_xchg(pcp, nval)
#define raw_cpu_xchg_2(pcp, nval)	__kshim_pcp_xchg(pcp, nval)
#define raw_cpu_xchg_4(pcp, nval)	__kshim_pcp_xchg(pcp, nval)
#define raw_cpu_xchg_8(pcp, nval)	__kshim_pcp_xchg(pcp, nval)
#define raw_cpu_try_cmpxchg_1(pcp, ovalp, nval) __kshim_pcp_try_cmpxchg(pcp, ovalp, nval)
#define raw_cpu_try_cmpxchg_2(pcp, ovalp, nval) __kshim_pcp_try_cmpxchg(pcp, ovalp, nval)
#define raw_cpu_try_cmpxchg_4(pcp, ovalp, nval) __kshim_pcp_try_cmpxchg(pcp, ovalp, nval)
#define raw_cpu_try_cmpxchg_8(pcp, ovalp, nval) __kshim_pcp_try_cmpxchg(pcp, ovalp, nval)
#define raw_cpu_cmpxchg_1(pcp, oval, nval) __kshim_pcp_cmpxchg(pcp, oval, nval)
#define raw_cpu_cmpxchg_2(pcp, oval, nval) __kshim_pcp_cmpxchg(pcp, oval, nval)
#define raw_cpu_cmpxchg_4(pcp, oval, nval) __kshim_pcp_cmpxchg(pcp, oval, nval)
#define raw_cpu_cmpxchg_8(pcp, oval, nval) __kshim_pcp_cmpxchg(pcp, oval, nval)

#define this_cpu_read_1(pcp)		__kshim_pcp_this_read(pcp)
#define this_cpu_read_2(pcp)		__kshim_pcp_this_read(pcp)
#define this_cpu_read_4(pcp)		__kshim_pcp_this_read(pcp)
#define this_cpu_read_8(pcp)		__kshim_pcp_this_read(pcp)
#define this_cpu_write_1(pcp, val)	__kshim_pcp_irqoff_void(__kshim_pcp_write(pcp, val))
#define this_cpu_write_2(pcp, val)	__kshim_pcp_irqoff_void(__kshim_pcp_write(pcp, val))
#define this_cpu_write_4(pcp, val)	__kshim_pcp_irqoff_void(__kshim_pcp_write(pcp, val))
#define this_cpu_write_8(pcp, val)	__kshim_pcp_irqoff_void(__kshim_pcp_write(pcp, val))
#define this_cpu_add_1(pcp, val)	__kshim_pcp_irqoff_void(__kshim_pcp_op(pcp, val, +=))
#define this_cpu_add_2(pcp, val)	__kshim_pcp_irqoff_void(__kshim_pcp_op(pcp, val, +=))
#define this_cpu_add_4(pcp, val)	__kshim_pcp_irqoff_void(__kshim_pcp_op(pcp, val, +=))
#define this_cpu_add_8(pcp, val)	__kshim_pcp_irqoff_void(__kshim_pcp_op(pcp, val, +=))
#define this_cpu_and_1(pcp, val)	__kshim_pcp_irqoff_void(__kshim_pcp_op(pcp, val, &=))
#define this_cpu_and_2(pcp, val)	__kshim_pcp_irqoff_void(__kshim_pcp_op(pcp, val, &=))
#define this_cpu_and_4(pcp, val)	__kshim_pcp_irqoff_void(__kshim_pcp_op(pcp, val, &=))
#define this_cpu_and_8(pcp, val)	__kshim_pcp_irqoff_void(__kshim_pcp_op(pcp, val, &=))
#define this_cpu_or_1(pcp, val)		__kshim_pcp_irqoff_void(__kshim_pcp_op(pcp, val, |=))
#define this_cpu_or_2(pcp, val)		__kshim_pcp_irqoff_void(__kshim_pcp_op(pcp, val, |=))
#define this_cpu_or_4(pcp, val)		__kshim_pcp_irqoff_void(__kshim_pcp_op(pcp, val, |=))
#define this_cpu_or_8(pcp, val)		__kshim_pcp_irqoff_void(__kshim_pcp_op(pcp, val, |=))
#define this_cpu_add_return_1(pcp, val)	__kshim_pcp_irqoff(__kshim_pcp_op_return(pcp, val, +=))
#define this_cpu_add_return_2(pcp, val)	__kshim_pcp_irqoff(__kshim_pcp_op_return(pcp, val, +=))
#define this_cpu_add_return_4(pcp, val)	__kshim_pcp_irqoff(__kshim_pcp_op_return(pcp, val, +=))
#define this_cpu_add_return_8(pcp, val)	__kshim_pcp_irqoff(__kshim_pcp_op_return(pcp, val, +=))
#define this_cpu_xchg_1(pcp, nval)	__kshim_pcp_irqoff(__kshim_pcp_xchg(pcp, nval))
#define this_cpu_xchg_2(pcp, nval)	__kshim_pcp_irqoff(__kshim_pcp_xchg(pcp, nval))
#define this_cpu_xchg_4(pcp, nval)	__kshim_pcp_irqoff(__kshim_pcp_xchg(pcp, nval))
#define this_cpu_xchg_8(pcp, nval)	__kshim_pcp_irqoff(__kshim_pcp_xchg(pcp, nval))
#define this_cpu_try_cmpxchg_1(pcp, ovalp, nval) __kshim_pcp_irqoff(__kshim_pcp_try_cmpxchg(pcp, ovalp, nval))
#define this_cpu_try_cmpxchg_2(pcp, ovalp, nval) __kshim_pcp_irqoff(__kshim_pcp_try_cmpxchg(pcp, ovalp, nval))
#define this_cpu_try_cmpxchg_4(pcp, ovalp, nval) __kshim_pcp_irqoff(__kshim_pcp_try_cmpxchg(pcp, ovalp, nval))
#define this_cpu_try_cmpxchg_8(pcp, ovalp, nval) __kshim_pcp_irqoff(__kshim_pcp_try_cmpxchg(pcp, ovalp, nval))
#define this_cpu_cmpxchg_1(pcp, oval, nval) __kshim_pcp_irqoff(__kshim_pcp_cmpxchg(pcp, oval, nval))
#define this_cpu_cmpxchg_2(pcp, oval, nval) __kshim_pcp_irqoff(__kshim_pcp_cmpxchg(pcp, oval, nval))
#define this_cpu_cmpxchg_4(pcp, oval, nval) __kshim_pcp_irqoff(__kshim_pcp_cmpxchg(pcp, oval, nval))
#define this_cpu_cmpxchg_8(pcp, oval, nval) __kshim_pcp_irqoff(__kshim_pcp_cmpxchg(pcp, oval, nval))

#include <asm-generic/percpu.h>
#endif
