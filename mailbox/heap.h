/* SPDX-License-Identifier: MIT */
/*
 * The buffer heap (mailbox-private): the device memory the host's ALLOC and
 * FREE packets hand out, per session, and the check that a range lies in
 * one of a session's buffers. Its own lock: the dispatcher allocates and
 * checks, the hart that completes a FREE frees.
 *
 * Every session's buffers lie in its regions: a few address ranges, whole
 * granules (hal_isolation_granule()), that no other session's buffer or
 * region touches. Kernels of a session are given exactly its regions
 * (hal/isolation.h), so a stray access of one session's kernel never
 * reaches another session's data. A region grows when its session
 * allocates, and shrinks (mbox_heap_trim) only while none of the
 * session's commands runs, so no hart still holds an older, larger view
 * of it when the memory goes to someone else.
 *
 * Nothing left over: a buffer reads as zeros until its session writes
 * it. The heap keeps a dirty map of MBOX_HEAP_CHUNK chunks: a chunk is
 * dirty once a freed buffer covered any byte of it (or a session's region
 * left it, or the board did not start it zero). An allocation clears its
 * own bytes in dirty chunks before it returns; mbox_heap_clear_step(), run
 * by idle harts, clears whole dirty chunks that no buffer touches.
 */
#ifndef MAILBOX_HEAP_H
#define MAILBOX_HEAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Regions one session may have at most (the PMP's room; page tables
 * could take more, the heap keeps one rule). */
#define MBOX_HEAP_REGIONS_MAX 16u

/** The dirty map's granule: what one step of background clearing clears
 * (16 GiB of heap is 32 KiB of map). */
#define MBOX_HEAP_CHUNK (64u * 1024u)

/** Take [base, base + size) as the heap, empty: the whole granules inside
 * it (@p granule: a power of two, at least HP_MBOX_BUFFER_ALIGN). A
 * session gets at most @p max_regions (1..MBOX_HEAP_REGIONS_MAX)
 * regions. 0, or HP_OUT_OF_RESOURCES (no memory for the buffer table). */
int mbox_heap_init(uint64_t base, uint64_t size, uint64_t granule,
		   unsigned max_regions);

/** [addr, addr + len) may hold something (the board's RAM is not zero at
 * boot, a device tree lies there): its chunks are dirty. The heap starts
 * clean (mbox_heap_init: all zero). */
void mbox_heap_mark_dirty(uint64_t addr, uint64_t len);

/** One step of background clearing: clear one dirty chunk that no buffer
 * touches and mark it clean. True if it cleared one; false when there is
 * none (then it costs one load until memory is freed again) or another
 * hart holds the heap's lock (one clears at a time). */
bool mbox_heap_clear_step(void);

/** May mbox_heap_clear_step() find something? (One load, no lock.) */
bool mbox_heap_clear_pending(void);

/** The heap as mbox_heap_init() took it. */
uint64_t mbox_heap_base(void);
uint64_t mbox_heap_size(void);

/** A buffer of @p size bytes for session @p sess: its address, or 0 with
 * the reason and the numbers in @p why (@p n bytes). *regions_changed
 * says whether the session's regions changed (its kernels' view must be
 * updated: mbox_heap_regions). */
uint64_t mbox_heap_alloc(unsigned sess, uint64_t size, bool *regions_changed,
			 char *why, size_t n);

/** As mbox_heap_alloc, at exactly @p addr (HP_MBOX_BUFFER_ALIGN-aligned,
 * in the heap, on no buffer and in no other session's region): the same
 * range on several devices (an SVM allocation of a context with more than
 * one). Returns @p addr, or 0 with the reason in @p why. */
uint64_t mbox_heap_alloc_at(unsigned sess, uint64_t addr, uint64_t size,
			    bool *regions_changed, char *why, size_t n);

/** Does [addr, addr + len) lie in one buffer of session @p sess? (len 0:
 * is addr inside one, its end excluded.) */
bool mbox_heap_holds(unsigned sess, uint64_t addr, uint64_t len);

/** The session whose buffer holds [addr, addr + len), or -1. */
int mbox_heap_owner(uint64_t addr, uint64_t len);

/** Several mbox_heap_holds() under one lock (a launch's buffer arguments,
 * on every dispatch): mbox_heap_holds_locked() between mbox_heap_lock()
 * and mbox_heap_unlock(). */
void mbox_heap_lock(void);
void mbox_heap_unlock(void);
bool mbox_heap_holds_locked(unsigned sess, uint64_t addr, uint64_t len);

/** A FREE read: mark session @p sess's buffer that starts at @p addr as
 * being freed. False if it has none there or a FREE for it is on its
 * way. */
bool mbox_heap_mark_free(unsigned sess, uint64_t addr);

/** A FREE that could not be read yet, or that failed: the mark goes. */
void mbox_heap_unmark(uint64_t addr);

/** A FREE that completed: the buffer at @p addr goes (its region keeps
 * the space until mbox_heap_trim). */
void mbox_heap_free(uint64_t addr);

/** Every buffer of session @p sess goes, and its regions; returns how
 * many buffers. Only when none of its commands runs. */
unsigned mbox_heap_free_session(unsigned sess);

/** Shrink session @p sess's regions to its buffers (whole granules); true
 * if they changed. Only when none of its commands runs. */
bool mbox_heap_trim(unsigned sess);

/** Session @p sess's regions, at most @p max of them in @p base and
 * @p size; returns how many. */
unsigned mbox_heap_regions(unsigned sess, uint64_t *base, uint64_t *size,
			   unsigned max);

/** What is in use, all sessions. */
typedef struct mbox_heap_stats {
	uint64_t used;	  /**< bytes in buffers */
	uint64_t largest; /**< the largest block in no session's region */
	unsigned buffers;
	uint64_t dirty;		/**< bytes in dirty chunks */
	uint64_t cleared_alloc; /**< bytes allocations cleared, since boot */
	uint64_t cleared_idle;	/**< bytes idle harts cleared, since boot */
} mbox_heap_stats;
void mbox_heap_stats_get(mbox_heap_stats *st);

/** Session @p sess's buffers and their bytes, and its regions. */
void mbox_heap_session_stats(unsigned sess, uint64_t *buffers, uint64_t *bytes,
			     unsigned *regions);

#endif
