/* SPDX-License-Identifier: MIT */
/*
 * What the mailbox files share (mailbox-private): the firmware's side of a
 * host queue and of one of its slots, and a range check. Types only, no
 * state: each file owns its own.
 */
#ifndef MAILBOX_INTERNAL_H
#define MAILBOX_INTERNAL_H

#include <executor/exec.h>
#include <hartpool/mbox.h>
#include <stdbool.h>
#include <stdint.h>

struct mbox_obj;
struct mbox_queue;

/* Bytes of a completion record's detail (the longest error text). */
#define MBOX_DETAIL_SIZE sizeof(((hp_completion *)0)->detail)

/* The firmware's side of a slot: the command and private copies of what
 * the host sent. */
typedef struct mbox_slot {
	exec_cmd cmd;
	uint64_t index; /* packet index; valid while `used` */
	bool used;
	uint64_t result;      /* ALLOC: the address; LOAD: the handle */
	uint64_t result2;     /* LOAD: the load address */
	uint64_t free_addr;   /* FREE: the buffer it marked (0: none) */
	struct mbox_obj *obj; /* the loaded object of its kernel, or NULL */
	const char *detail;   /* dispatcher's own error detail */
	struct mbox_queue *q; /* the queue it belongs to (set at init) */
	int sess;	      /* the session it was read for, or -1 */
	exec_cmd *wait[HP_MBOX_MAX_WAIT + 1];
	uint64_t args[HP_MBOX_ARGS_MAX / 8];
} mbox_slot;

/* The firmware's side of a queue (an hp_mbox_queue and its arrays). */
typedef struct mbox_queue {
	hp_mbox_queue *shm;
	hp_packet *ring;
	hp_kernarg *kernarg;
	hp_completion *comp;
	exec_queue xq;
	uint64_t consumed;
	bool busy; /* being read (dependency cycles) */
	/* The session its owner token names (mailbox/session.h), as of the
	 * owner word last seen; -1: none. */
	int sess;
	uint64_t owner_seen;
	/* Its session was over its queue quota when it claimed the queue:
	 * its packets complete with this (until the owner changes). */
	bool refused;
	char refused_why[MBOX_DETAIL_SIZE];
	mbox_slot *slots;
} mbox_queue;

/* [addr, addr + len) inside [base, base + size)? */
static inline bool mbox_inside(uint64_t addr, uint64_t len, uint64_t base,
			       uint64_t size)
{
	return addr >= base && addr - base <= size &&
	       len <= size - (addr - base);
}

#endif
