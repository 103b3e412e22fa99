/* SPDX-License-Identifier: MIT */
/*
 * The team barrier (team_barrier.c): the harts of a team that runs one
 * work-group meet here when all their local work-items reached hp_barrier.
 * Runs in kernel code; the record (exec_team_wgb) is kernel-visible.
 */
#ifndef EXECUTOR_TEAM_BARRIER_H
#define EXECUTOR_TEAM_BARRIER_H

#include "kview.h"

/* Arrive and wait until every hart of the team has arrived or left;
 * `user`: the caller runs in U-mode (waits and wakes are ecalls). */
void exec_team_arrive(exec_team_wgb *b, bool user);
/* Leave for good (every local work-item returned, or this hart will not
 * run the group): teammates go on without us. */
void exec_team_leave(exec_team_wgb *b, bool user);

#endif
