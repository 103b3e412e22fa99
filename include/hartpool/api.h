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
#define HP_API_VERSION 1u

/* The functions, in table order: X(return type, name, parameters,
 * arguments). `void` ones separately (a void function cannot `return` a
 * call in C). */
#define HP_API_VOID_FUNCS(X)                                                   \
	X(barrier, (const hp_item *it), (it))                                  \
	X(sub_group_barrier, (const hp_item *it), (it))                        \
	X(vprintf, (const hp_item *it, const char *fmt, va_list ap),           \
	  (it, fmt, ap))

#define HP_API_SG_(X, tn, T)                                                   \
	X(T, sub_group_broadcast_##tn,                                         \
	  (const hp_item *it, T x, unsigned lane), (it, x, lane))              \
	X(T, sub_group_shuffle_##tn, (const hp_item *it, T x, unsigned lane),  \
	  (it, x, lane))                                                       \
	X(T, sub_group_reduce_add_##tn, (const hp_item *it, T x), (it, x))     \
	X(T, sub_group_reduce_min_##tn, (const hp_item *it, T x), (it, x))     \
	X(T, sub_group_reduce_max_##tn, (const hp_item *it, T x), (it, x))     \
	X(T, sub_group_scan_inclusive_add_##tn, (const hp_item *it, T x),      \
	  (it, x))                                                             \
	X(T, sub_group_scan_inclusive_min_##tn, (const hp_item *it, T x),      \
	  (it, x))                                                             \
	X(T, sub_group_scan_inclusive_max_##tn, (const hp_item *it, T x),      \
	  (it, x))                                                             \
	X(T, sub_group_scan_exclusive_add_##tn, (const hp_item *it, T x),      \
	  (it, x))                                                             \
	X(T, sub_group_scan_exclusive_min_##tn, (const hp_item *it, T x),      \
	  (it, x))                                                             \
	X(T, sub_group_scan_exclusive_max_##tn, (const hp_item *it, T x),      \
	  (it, x))

#define HP_API_FUNCS(X)                                                        \
	X(unsigned, hart, (void), ())                                          \
	X(bool, sub_group_any, (const hp_item *it, bool pred), (it, pred))     \
	X(bool, sub_group_all, (const hp_item *it, bool pred), (it, pred))     \
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
};

/** Function entries of this version's table. */
#define HP_API_COUNT                                                           \
	((sizeof(struct hp_api) - 2 * sizeof(uint32_t)) /                      \
	 sizeof(void (*)(void)))

#endif
