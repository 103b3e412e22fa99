/* SPDX-License-Identifier: MIT */
/**
 * @file How libhartpool waits: every wait for the device or for QEMU polls
 * (device memory, a file, a process) with this back-off against the
 * monotonic clock, so a waiting host leaves the host's cores to QEMU.
 */
#ifndef HOST_BACKOFF_H
#define HOST_BACKOFF_H

#include <sched.h>
#include <stdint.h>
#include <time.h>

/** The monotonic clock in nanoseconds. */
static inline uint64_t hp_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/** One pause of a polling loop (@p n counts them, from 0): yield first,
 * then sleep longer and longer, up to 1 ms. */
static inline void hp_backoff(unsigned *n)
{
	if (*n < 16) {
		sched_yield();
	} else {
		unsigned us = *n < 48 ? 10 : *n < 200 ? 100 : 1000;
		struct timespec ts = {0, (long)us * 1000};
		nanosleep(&ts, NULL);
	}
	(*n)++;
}

#endif
