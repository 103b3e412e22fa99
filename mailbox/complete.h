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

#endif
