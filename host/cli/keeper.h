/* SPDX-License-Identifier: MIT */
/** @file The keeper of a `hartpool up` device (keeper.c). */
#ifndef HOST_CLI_KEEPER_H
#define HOST_CLI_KEEPER_H

/**
 * Leave a process behind that ends the sessions of dead host processes on
 * the device at @p connect (hp_sessions_reap, every 100 ms) for as long as
 * the device serves: a device nobody else uses still gets a killed host's
 * endless kernel stopped and its memory back. Detached from the caller's
 * terminal and output. 0, or -1 if it could not be started.
 */
int cli_keeper_start(const char *connect);

#endif
