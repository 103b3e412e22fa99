/* SPDX-License-Identifier: MIT */
/**
 * @file Atomics and fences.
 *
 * Thin wrappers over the GCC __atomic builtins, so the same code compiles to
 * AMOs / LR-SC on RISC-V and to host atomics (visible to ThreadSanitizer) in
 * the host build. Every wrapper states its ordering:
 *
 * - hal_load_acquire / hal_store_release: the publish/consume pair. A value
 *   written before a release store is visible to a hart that reads the
 *   stored value with an acquire load (RISC-V: `fence rw,w` + store,
 *   load + `fence r,rw`).
 * - hal_load_relaxed / hal_store_relaxed: single-copy atomic, no ordering;
 *   for counters and flags whose readers re-check under acquire.
 * - hal_fetch_add, hal_fetch_or, hal_fetch_and, hal_swap, hal_cas:
 *   acquire-release (`amoadd.w.aqrl` etc.): they both publish what the hart
 *   wrote before and see what the previous writer published. This is the
 *   safe default for the counters of barriers, locks and work-pools; a hot
 *   path that needs less says so and uses the _relaxed variant.
 * - hal_fetch_add_relaxed: no ordering (statistics, test counters).
 * - hal_fence: full `fence rw,rw`.
 *
 * Operands must be naturally aligned and at most XLEN wide (no 64-bit
 * atomics on RV32).
 */
#ifndef HAL_ATOMIC_H
#define HAL_ATOMIC_H

#define hal_load_relaxed(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define hal_load_acquire(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define hal_store_relaxed(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#define hal_store_release(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)

#define hal_fetch_add(p, v) __atomic_fetch_add((p), (v), __ATOMIC_ACQ_REL)
#define hal_fetch_add_relaxed(p, v)                                            \
	__atomic_fetch_add((p), (v), __ATOMIC_RELAXED)
#define hal_fetch_or(p, v) __atomic_fetch_or((p), (v), __ATOMIC_ACQ_REL)
#define hal_fetch_and(p, v) __atomic_fetch_and((p), (v), __ATOMIC_ACQ_REL)
#define hal_swap(p, v) __atomic_exchange_n((p), (v), __ATOMIC_ACQ_REL)
/** Compare-and-swap; on failure *expected receives the current value. */
#define hal_cas(p, expected, desired)                                          \
	__atomic_compare_exchange_n((p), (expected), (desired), 0,             \
				    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)

#if defined(__SANITIZE_THREAD__)
/* ThreadSanitizer does not model fences: a seq_cst RMW stands in (it is a
 * full barrier on x86 as well). */
extern unsigned hal_fence_word;
#define hal_fence() __atomic_fetch_add(&hal_fence_word, 0u, __ATOMIC_SEQ_CST)
#else
#define hal_fence() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#endif

#endif
