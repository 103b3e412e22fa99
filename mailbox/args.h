/* SPDX-License-Identifier: MIT */
/*
 * Checks of what a launch points at (mailbox-private): its buffer
 * arguments and its printf buffer, each inside one buffer of the launch's
 * own session.
 */
#ifndef MAILBOX_ARGS_H
#define MAILBOX_ARGS_H

#include <executor/exec.h>
#include <hartpool/mbox.h>
#include <stddef.h>
#include <stdint.h>

/**
 * Every buffer argument of @p k (in @p args, @p args_size bytes, for
 * launch @p l) lies in one buffer of session @p sess, aligned: NULL, or
 * what is wrong (a constant, or @p why with the numbers, @p n bytes).
 */
const char *mbox_args_check_buffers(unsigned sess, const hp_kernel *k,
				    const uint64_t *args, uint32_t args_size,
				    const hp_launch *l, char *why, size_t n);

/**
 * The printf buffer of the dispatch whose kernarg block is @p ka: inside
 * one buffer of session @p sess, aligned, big enough; its header reset and
 * @p c pointed at it. NULL, or what is wrong (in @p why, @p n bytes, or a
 * constant).
 */
const char *mbox_args_printf_setup(unsigned sess, const hp_kernarg *ka,
				   exec_cmd *c, char *why, size_t n);

#endif
