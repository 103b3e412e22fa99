/* SPDX-License-Identifier: MIT */
/*
 * Completion records (mailbox-private): what the host reads when one of
 * its packets' commands ends.
 */
#ifndef MAILBOX_COMPLETE_H
#define MAILBOX_COMPLETE_H

#include <executor/exec.h>

/**
 * exec_cmd.on_complete of every mailbox command (c->user: its mbox_slot):
 * give back what the packet held (its object, a FREE's buffer), then write
 * the slot's completion record, `done` last (release). Runs on the
 * completing hart with the command lock held.
 */
void mbox_complete(exec_cmd *c, int status);

/**
 * Wake the dispatcher (an IPI to hart index 0) when a worker hart writes
 * the record whose `done` word is at device address @p addr; 0: none. The
 * serial agent's WAIT (mailbox/serial_agent.h) is answered by the
 * dispatcher, which would otherwise sleep on until its next check.
 */
void mbox_complete_watch(uint64_t addr);

#endif
