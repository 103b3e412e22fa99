/* SPDX-License-Identifier: MIT */
/*
 * The kernel table and kernel objects (mailbox-private): the kernels the
 * host may launch (built in, then those of loaded objects), published in
 * the mailbox's kernel table; LOAD and UNLOAD of objects; the code memory
 * an object takes while commands of its kernels are not complete.
 */
#ifndef MAILBOX_KOBJ_H
#define MAILBOX_KOBJ_H

#include <hartpool/kernel.h>
#include <hartpool/mbox.h>
#include <stddef.h>
#include <stdint.h>

/** A loaded kernel object. */
typedef struct mbox_obj mbox_obj;

/**
 * Start the kernel table at @p table (HP_MBOX_KERNELS_MAX rows) with the
 * NULL-terminated @p builtin kernels and no objects; @p num_kernels is the
 * header word that says how many rows there are (set here, and stored
 * with release whenever they change). Code memory for objects:
 * [code_base, + code_size).
 */
void mbox_kobj_init(hp_mbox_kernel *table, uint32_t *num_kernels,
		    const hp_kernel *const *builtin, uint64_t code_base,
		    uint64_t code_size);

/** The built-in kernel called @p name, or NULL. */
const hp_kernel *mbox_kobj_builtin(const char *name);

/** The kernel a dispatch's `kernel` id names for session @p sess: 0 with
 * *k and *o (its object, NULL for a built-in kernel), or HP_INVALID_KERNEL
 * with *why (no such kernel, or one of another session's object). */
int mbox_kobj_lookup(unsigned sess, uint32_t id, const hp_kernel **k,
		     mbox_obj **o, const char **why);

/** A command of a kernel of @p o was accepted (get) or completed (put): its
 * code stays while any is not complete. Any hart. */
void mbox_kobj_get(mbox_obj *o);
void mbox_kobj_put(mbox_obj *o);

/**
 * LOAD for session @p sess: the object file of @p size bytes at @p src
 * (inside one of the session's buffers): check, place, relocate, add its
 * kernels to the table; the object is the session's. 0 with
 * *handle (HP_OBJECT_HANDLE) and *addr (its load address), or an HP_
 * error with the reason in @p why (@p n bytes). @p admit (may be NULL)
 * says, once the object's kernels are counted, whether the session may
 * take an object of that many kernels (0, or an HP_ error with the reason
 * in @p why: its quota). An object with writable data gets a block of
 * the session's from @p alloc (its address, or 0 with the reason in
 * @p why), freed when the object's memory is. Nothing changes unless it
 * all succeeds.
 */
typedef int (*mbox_kobj_admit_fn)(unsigned sess, unsigned kernels, char *why,
				  size_t n);
typedef uint64_t (*mbox_kobj_alloc_fn)(unsigned sess, uint64_t size, char *why,
				       size_t n);
int mbox_kobj_load(unsigned sess, uint64_t src, uint64_t size, uint64_t *handle,
		   uint64_t *addr, mbox_kobj_admit_fn admit,
		   mbox_kobj_alloc_fn alloc, char *why, size_t n);

/** UNLOAD for session @p sess: the object's kernels leave the table now,
 * its memory once no accepted command needs it. 0, or HP_INVALID_PROGRAM
 * with *why (no object of the session with that handle). */
int mbox_kobj_unload(unsigned sess, uint64_t handle, const char **why);

/** UNLOAD every object session @p sess loaded; returns how many. Their
 * writable data's blocks are left to the session's end (it frees every
 * buffer of the session). */
unsigned mbox_kobj_unload_session(unsigned sess);

/** Objects session @p sess has loaded and their kernels. */
void mbox_kobj_session_stats(unsigned sess, uint32_t *objects,
			     uint32_t *kernels);
/** Objects loaded, kernel table rows used (built-in ones too), bytes of
 * code memory taken (unloaded objects still running included). */
void mbox_kobj_stats(uint32_t *objects, uint32_t *rows, uint32_t *code_used);

#endif
