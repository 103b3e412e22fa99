/* SPDX-License-Identifier: MIT */
/**
 * @file The mailbox dispatcher (mailbox/dispatch.c): reads packets from
 * the host queues of include/hartpool/mbox.h, validates them, turns them
 * into executor commands and writes completion records back. Portable: the
 * firmware runs it on hart 0 over the shared memory of board.h; the host
 * tests run it over a plain memory block, with threads as harts.
 */
#ifndef MAILBOX_DISPATCH_H
#define MAILBOX_DISPATCH_H

#include <hartpool/kernel.h>
#include <stdbool.h>
#include <stdint.h>

typedef struct dispatch_config {
	/** The mailbox: device address (identity-mapped: also a pointer on
	 * the device, and on the host a host pointer) and size. */
	uint64_t mbox_addr, mbox_size;
	/** The buffer heap. */
	uint64_t buf_base, buf_size;
	/** The heap's memory reads as zeros at boot (a QEMU board: its RAM
	 * is a new file) but for [dirty_base, dirty_base + dirty_size) (the
	 * device tree QEMU put there). False: all of it is dirty until idle
	 * harts have cleared it (mailbox/heap.h). */
	bool ram_zeroed;
	uint64_t dirty_base, dirty_size;
	/** Device address of DRAM (QEMU's RAM file offset 0) and its size
	 * (reported to the host; 0: unknown). */
	uint64_t dram_base, dram_size;
	/** Code memory for kernel objects (HP_PKT_LOAD): read-write for
	 * the firmware, read-execute for kernels; size 0: none. */
	uint64_t code_base, code_size;
	/** Kernels the host may launch, NULL-terminated. */
	const hp_kernel *const *kernels;
	const char *board;
	/** The firmware's mode ("M", "S"), and the harts it does not use
	 * and why (hp_device_info; the strings must outlive the mailbox). */
	const char *privilege;
	uint32_t harts_skipped;
	uint32_t slice_us; /* the time slice between sessions (0: none) */
	const char *skipped_why;
	/** Longest sleep of the dispatcher between doorbell checks (µs):
	 * a ring wakes it at once; packets from a host that does not ring
	 * are checked for every 10 µs while they keep coming. */
	uint32_t poll_us;
	/** HP_DEV_HAS_*; with HP_DEV_HAS_DOORBELL the dispatcher sleeps
	 * until the host rings (an interrupt), poll_us is only a bound. */
	uint32_t features;
	/** With HP_DEV_HAS_HOST_BELL: rings the host's bell (any hart, at
	 * once; hal/host_bell.h). */
	void (*host_bell)(void);
	/** A device one host booted for itself (the ICD's, `hartpool run`'s:
	 * hartpool.shared=0): no quotas. Else hosts share it and each
	 * session has quotas (docs/sessions.md, "Quotas"). */
	bool unshared;
	/** A shared device's quotas by enum hp_quota_res of
	 * include/hartpool/mbox.h: a session's most and its floor; NULL, or
	 * UINT64_MAX in an entry: the default (docs/design.md, 75). */
	const uint64_t *quota_max, *quota_min;
} dispatch_config;

/** Lay out the mailbox and publish it (magic last). One hart, after
 * exec_init(). Returns 0 or an HP_ error (the mailbox does not fit). */
int dispatch_init(const dispatch_config *cfg);

/** Read and start every packet that has arrived; true if any. */
bool dispatch_poll(void);

/**
 * Serve the mailbox until the host asks the device to stop and every
 * command it accepted is complete: poll, pull work-groups between polls,
 * sleep (at most poll_us) when there is nothing to do. @p idle_hook (may
 * be NULL) runs before each poll (the serial agent); it returns true if it
 * did something.
 */
void dispatch_serve(bool (*idle_hook)(void));

/** The dispatcher woke to a ring (the doorbell device's interrupt, or the
 * UART's receive interrupt): count it in the header
 * (hp_mbox_header.rings); while rings come, the dispatcher sleeps until
 * the next one instead of checking every 10 us. */
void dispatch_doorbell_rang(void);

/** End the sessions in @p mask (bit s: session s), as an end request
 * would (a serial link's new host: the sessions of its last one). */
void dispatch_end_sessions(uint32_t mask);

/** Mark the device stopped in the header (after exec_shutdown()). */
void dispatch_stopped(void);

/**
 * May the serial link's host read (@p write false) or write (@p write true)
 * the @p len bytes at device address @p addr? Buffers of the sessions the
 * link's host opened; the mailbox for reading; for writing the header's
 * host words, free sessions and queues (claims) and the link's own. The
 * serial agent checks every access it does for the host with this.
 */
bool dispatch_access_ok(uint64_t addr, uint64_t len, bool write);
/** The serial agent's store of a claim: if [addr, addr + len) is a
 * session's or a queue's owner word, store @p src there by
 * compare-and-swap against what dispatch_access_ok() allowed (0, or a
 * token of the link's host), so an shm host's claim in between is not
 * overwritten (the link's host reads its claim back and finds it lost),
 * and return true; false: not an owner word (or rv32, where a 64-bit
 * word has no compare-and-swap): the caller stores it. */
bool dispatch_link_claim(uint64_t addr, const void *src, uint64_t len);
/** The serial agent wrote @p len bytes from @p src at @p addr for the
 * link's host: a session it claimed is the link's from now on. */
void dispatch_link_wrote(uint64_t addr, const void *src, uint64_t len);
/** A new host on the serial link: the sessions of the last one end (it
 * died, or gave up: nobody else can end them, no host can check it). */
void dispatch_link_new_host(void);

/** Device address of the mailbox header. */
uint64_t dispatch_mbox_addr(void);

#endif
