/* SPDX-License-Identifier: MIT */
/*
 * The team barrier (team_barrier.c): the harts of a team that runs one
 * work-group meet here when all their local work-items reached hp_barrier.
 * The barrier itself is a HAL team barrier (hal/barrier.h: the board's
 * barrier unit or software), firmware-private: the pool binds it to each
 * member hart before calling kernel code, and kernel code reaches it
 * through exec_team_arrive/leave (ecalls in U-mode).
 */
#ifndef EXECUTOR_TEAM_BARRIER_H
#define EXECUTOR_TEAM_BARRIER_H

#include <hal/barrier.h>
#include <stdbool.h>

/* Per-hart state, for `harts` harts (firmware-private). */
void exec_team_init(unsigned harts);
/* Bind @p b (NULL: none) as the calling hart's team barrier. */
void exec_team_bind(hal_barrier *b);

/* Kernel code: arrive and wait until every hart of the team has arrived
 * or left; `user`: the caller runs in U-mode (the wait is an ecall). */
void exec_team_arrive(bool user);
/* Leave for good (every local work-item returned, or this hart will not
 * run the group): teammates go on without us. */
void exec_team_leave(bool user);
/* The firmware side of the ecalls is exec_team_ecall() (exec.h). */

/* The pool, at each wake-up of a member's wait in U-mode kernel code for
 * round @p ticket (pool.c, its context @p regs and @p status as
 * exec_team_ecall() has them): NULL to wait on, or the recovery point when
 * the team stops for its time slice (the member's registers are taken,
 * to go on in this wait). */
struct hal_jmp_buf *exec_pool_team_wait(const unsigned long *regs,
					unsigned long status, unsigned ticket);

#endif
