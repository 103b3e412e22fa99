// SPDX-License-Identifier: MIT
/*
 * The keeper of a `hartpool up` device (keeper.h). Every host that uses a
 * device ends the sessions of dead hosts now and then (libhartpool's
 * hp_sessions_reap); a device nobody uses would keep a killed host's
 * kernels and memory until the next host came. The keeper is that next
 * host, always there: a session-less handle (hp_open_options.monitor) that
 * looks every 100 ms and leaves when the device stops.
 */
#include "keeper.h"
#include <fcntl.h>
#include <hartpool.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#define KEEPER_PERIOD_NS 100000000L

static void keeper_loop(const char *connect)
{
	hp_open_options o = {.connect = connect, .monitor = true};
	hp_device *d;
	if (hp_open(&o, &d))
		_exit(1);
	struct timespec ts = {0, KEEPER_PERIOD_NS};
	while (hp_ping(d) == 0) {
		hp_sessions_reap(d, NULL);
		nanosleep(&ts, NULL);
	}
	hp_close(d);
	_exit(0);
}

int cli_keeper_start(const char *connect)
{
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid > 0)
		return 0;
	/* Its own session, no terminal, and nothing of the caller's
	 * output: a caller reading `hartpool up`'s stdout to its end must
	 * not wait for the keeper. */
	setsid();
	int null = open("/dev/null", O_RDWR);
	if (null >= 0) {
		dup2(null, 0);
		dup2(null, 1);
		dup2(null, 2);
		if (null > 2)
			close(null);
	}
	keeper_loop(connect);
	return 0;
}
