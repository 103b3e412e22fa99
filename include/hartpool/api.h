/* SPDX-License-Identifier: MIT */
/**
 * @file The kernel API table: what the firmware exports to kernel objects
 * loaded at run time (docs/kernel-objects.md).
 *
 * A kernel built into the firmware calls hp_barrier() and friends
 * directly. A loaded kernel object (`hartpool build`) is linked on its own,
 * without the firmware's symbol addresses: its calls go through one table,
 * `struct hp_api`, whose address the loader writes into the object's
 * `hp_api_ptr`. include/hartpool/kernel.h turns every such function into a
 * call through the table when it is compiled with HP_KERNEL_OBJECT.
 *
 * Versioning. The table's layout is an ABI: entries are only ever added
 * at the end (the object records how many it was built with and the
 * loader refuses an object that needs more than the firmware has);
 * changing or removing one increments HP_API_VERSION, and the loader
 * refuses objects of another version.
 */
#ifndef HARTPOOL_API_H
#define HARTPOOL_API_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The work-item record (hartpool/kernel.h); C11 allows the typedef
 * twice, so this header stands on its own. */
typedef struct hp_item hp_item;

/** Incremented when an entry changes meaning or goes away. */
#define HP_API_VERSION 2u

/* The functions, in table order: X(return type, name, parameters,
 * arguments). `void` ones separately (a void function cannot `return` a
 * call in C). */
#define HP_API_VOID_FUNCS(X)                                                   \
	X(barrier_call, (const hp_item *it), (it))                             \
	X(sub_group_barrier_call, (const hp_item *it), (it))                   \
	X(vprintf, (const hp_item *it, const char *fmt, va_list ap),           \
	  (it, fmt, ap))

#define HP_API_SG_(X, tn, T)                                                   \
	X(T, sub_group_broadcast_##tn##_call,                                  \
	  (const hp_item *it, T x, unsigned lane), (it, x, lane))              \
	X(T, sub_group_shuffle_##tn##_call,                                    \
	  (const hp_item *it, T x, unsigned lane), (it, x, lane))              \
	X(T, sub_group_reduce_add_##tn##_call, (const hp_item *it, T x),       \
	  (it, x))                                                             \
	X(T, sub_group_reduce_min_##tn##_call, (const hp_item *it, T x),       \
	  (it, x))                                                             \
	X(T, sub_group_reduce_max_##tn##_call, (const hp_item *it, T x),       \
	  (it, x))                                                             \
	X(T, sub_group_scan_inclusive_add_##tn##_call,                         \
	  (const hp_item *it, T x), (it, x))                                   \
	X(T, sub_group_scan_inclusive_min_##tn##_call,                         \
	  (const hp_item *it, T x), (it, x))                                   \
	X(T, sub_group_scan_inclusive_max_##tn##_call,                         \
	  (const hp_item *it, T x), (it, x))                                   \
	X(T, sub_group_scan_exclusive_add_##tn##_call,                         \
	  (const hp_item *it, T x), (it, x))                                   \
	X(T, sub_group_scan_exclusive_min_##tn##_call,                         \
	  (const hp_item *it, T x), (it, x))                                   \
	X(T, sub_group_scan_exclusive_max_##tn##_call,                         \
	  (const hp_item *it, T x), (it, x))

#define HP_API_FUNCS(X)                                                        \
	X(unsigned, hart, (void), ())                                          \
	X(bool, sub_group_any_call, (const hp_item *it, bool pred),            \
	  (it, pred))                                                          \
	X(bool, sub_group_all_call, (const hp_item *it, bool pred),            \
	  (it, pred))                                                          \
	HP_API_SG_(X, int, int32_t)                                            \
	HP_API_SG_(X, uint, uint32_t)                                          \
	HP_API_SG_(X, long, int64_t)                                           \
	HP_API_SG_(X, ulong, uint64_t)                                         \
	HP_API_SG_(X, float, float)

/** The table. `count` is the number of function entries that follow. */
struct hp_api {
	uint32_t version; /**< HP_API_VERSION */
	uint32_t count;
#define HP_API_VOID_FIELD_(name, params, args) void(*name) params;
#define HP_API_FIELD_(ret, name, params, args) ret(*name) params;
	HP_API_VOID_FUNCS(HP_API_VOID_FIELD_)
	HP_API_FUNCS(HP_API_FIELD_)
#undef HP_API_VOID_FIELD_
#undef HP_API_FIELD_
	/* Entries with their own calling convention (HP_YIELD_CLOBBERS_),
	 * reached from kernel.h's inline fast paths on RISC-V: */
	/** a0 = the work-item's fiber (hp_item.fiber): the work-group
	 * barrier. */
	void (*yield_wg)(void);
	/** a0 = fiber: the sub-group barrier. */
	void (*yield_sg)(void);
	/** OpenCL C printf (kernels/opencl/printf.c): @p fmt with its
	 * conversions' values in @p args, one 64-bit word per value and per
	 * vector element (integers extended to 64 bits, floating-point ones
	 * as double bits, pointers as addresses); hp_cl_printf(). */
	void (*cl_printf)(const hp_item *it, const char *fmt,
			  const uint64_t *args, unsigned n);
	/** A work-group function's work-items reached different barriers
	 * (or some returned): the launch fails with HP_KERNEL_FAULT. */
	void (*wg_diverged)(const hp_item *it);
};

/** Stride between the two banks of a sub-group's slots (hp_item.sg_slots):
 * the largest work-group. */
#define HP_SG_BANK_STRIDE 256

/** Function entries of this version's table. */
#define HP_API_COUNT                                                           \
	((sizeof(struct hp_api) - 2 * sizeof(uint32_t)) /                      \
	 sizeof(void (*)(void)))

/*
 * The yield convention: every register but sp, s0, gp and tp may be changed
 * by the call (a0-a3 carry the arguments and a0 the result), so the caller
 * keeps only what is live across it, in its own frame, and the switch
 * itself saves three words (sp, the return address, s0). s0 stays saved by
 * the switch because it is the frame pointer of code built without
 * -fomit-frame-pointer, which an asm statement may not clobber.
 */
/*
 * Code that keeps nothing in FP registers across a yield (the firmware
 * outside kernels: it must run on harts without an FPU, where saving an FP
 * register traps) defines HP_YIELD_INT_ONLY before including this header;
 * its yields then leave the FP registers out (kernel code of other work-items
 * may change them: nothing there is live).
 */
#if defined(__riscv) && defined(__riscv_flen) && !defined(HP_YIELD_INT_ONLY)
#define HP_YIELD_FP_CLOBBERS_                                                  \
	"ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "ft8", "ft9",  \
		"ft10", "ft11", "fa0", "fa1", "fa2", "fa3", "fa4", "fa5",      \
		"fa6", "fa7", "fs0", "fs1", "fs2", "fs3", "fs4", "fs5", "fs6", \
		"fs7", "fs8", "fs9", "fs10", "fs11",
#else
#define HP_YIELD_FP_CLOBBERS_
#endif
/*
 * Vector registers and vl/vtype, like the RISC-V calling convention's:
 * none survives a yield (another work-item's code may use them), so a
 * caller keeps a live vector in its frame. Only where the compiler can put
 * values there (clang, GCC 13 and later: GCC 12 emits no vector code and
 * knows no vector register names).
 */
#if defined(__riscv) && defined(__riscv_vector) &&                             \
	(defined(__clang__) || __GNUC__ >= 13)
#define HP_YIELD_V_CLOBBERS_                                                   \
	"v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "v9", "v10",     \
		"v11", "v12", "v13", "v14", "v15", "v16", "v17", "v18", "v19", \
		"v20", "v21", "v22", "v23", "v24", "v25", "v26", "v27", "v28", \
		"v29", "v30", "v31", "vl", "vtype",
#else
#define HP_YIELD_V_CLOBBERS_
#endif
#define HP_YIELD_INT_CLOBBERS_                                                 \
	"ra", "t0", "t1", "t2", "t3", "t4", "t5", "t6", "a4", "a5", "a6",      \
		"a7", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9",    \
		"s10", "s11", "memory"
#define HP_YIELD_CLOBBERS_                                                     \
	HP_YIELD_FP_CLOBBERS_ HP_YIELD_V_CLOBBERS_ HP_YIELD_INT_CLOBBERS_

#endif
