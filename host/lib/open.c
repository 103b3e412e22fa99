// SPDX-License-Identifier: MIT
/*
 * libhartpool's device handles (internal.h): hp_open() boots a device
 * (qemu.c) or connects to a running one, opens the link (device.c), a
 * session (session.c) and claims the service queue (queue.c); hp_close()
 * gives the queues back, ends the session and stops a device it booted;
 * hp_down() stops any device and removes its files.
 */
#include "internal.h"
#include <hartpool_boards.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

int hp_open(const hp_open_options *o, hp_device **out)
{
	static const hp_open_options none;
	if (!o)
		o = &none;
	*out = NULL;
	if (o->mem_size && o->connect)
		return hp_fail(HP_INVALID_VALUE,
			       "mem_size (--mem) is for a device this call "
			       "boots; %s is running with the memory it has",
			       o->connect);
	if (o->boot && o->connect)
		return hp_fail(HP_INVALID_VALUE,
			       "boot (--boot) is for a device this call boots; "
			       "%s is running already",
			       o->connect);
	if ((o->monitor || o->ending) && !o->connect)
		return hp_fail(HP_INVALID_VALUE,
			       "monitor and ending are for a running device "
			       "(connect)");
	if (o->mem_size % (1u << 20))
		return hp_fail(
			HP_INVALID_VALUE,
			"mem_size (--mem) must be a whole number of MiB, "
			"not %llu bytes",
			(unsigned long long)o->mem_size);
	hp_device *d = calloc(1, sizeof(*d));
	if (!d)
		return hp_fail(HP_OUT_OF_RESOURCES,
			       "out of host memory (%zu bytes for the device "
			       "handle)",
			       sizeof(*d));
	/* Short sleeps in the wait loops should be short. */
	prctl(PR_SET_TIMERSLACK, 1000UL);
	d->timeout_ms = o->timeout_ms ? o->timeout_ms : 60000;
	d->bell = -1;
	d->sess = -1;
	/* The pid tells other hosts whether we are alive; the nonce tells
	 * our handles apart (never 0: a free word is 0). */
	static unsigned handles;
	uint32_t nonce =
		(uint32_t)hp_now_ns() ^
		__atomic_add_fetch(&handles, 0x9e3779b9u, __ATOMIC_RELAXED);
	d->token = (uint64_t)getpid() << 32 | (nonce ? nonce : 1u);
	d->ending = o->ending;
	int rc = 0;
	if (!o->connect) {
		char err[512];
		if ((rc = hp_qemu_boot(&d->qemu, o, err, sizeof(err))))
			hp_fail(rc, "%s", err);
	}
	if (!rc)
		rc = hp_dev_open(d, o);
	if (!rc && d->hdr.state == HP_DEV_STOPPED)
		; /* ending a stopped device: nothing to reap or open */
	else if (!rc && (o->monitor || o->ending))
		rc = hp_sessions_reap(d, NULL);
	else if (!rc && !(rc = hp_session_open(d)))
		rc = hp_queue_create(d, HP_QUEUE_IN_ORDER, &d->service);
	if (!rc && d->qemu.spawned && !d->qemu.detach)
		d->bell = hp_qemu_doorbell(&d->qemu);
	if (rc) {
		char keep[512];
		snprintf(keep, sizeof(keep), "%s", hp_last_error());
		d->qemu.detach = false;
		hp_close(d);
		hp_fail(rc, "%s", keep);
		return rc;
	}
	*out = d;
	return 0;
}

/* How long a stopped device's QEMU gets to exit: 10 s, or none where the
 * firmware's stop leaves the machine running (it shares it with Linux:
 * QEMU_LOAD amp), once the device says it stopped. */
static unsigned exit_wait_ms(hp_device *d)
{
	char b[sizeof(d->hdr.info.board) + 1];
	snprintf(b, sizeof(b), "%.*s", (int)sizeof(d->hdr.info.board),
		 d->hdr.info.board);
	const hp_board_info *bi = hp_board_find(b);
	if (!d->t || !bi || !bi->qemu_load || strcmp(bi->qemu_load, "amp"))
		return 10000;
	uint64_t t0 = hp_now_ns();
	uint32_t state = 0;
	for (unsigned n = 0; hp_now_ns() - t0 < 5000000000ull; hp_backoff(&n))
		if (hp_dev_read(d,
				d->t->mbox_addr +
					offsetof(hp_mbox_header, state),
				&state, sizeof(state)) ||
		    state == HP_DEV_STOPPED)
			break;
	return 0;
}

int hp_close(hp_device *d)
{
	if (!d)
		return 0;
	if (d->t)
		hp_trace_close(d);
	/* (not if hp_down() already stopped and reaped it) */
	bool stop = d->qemu.spawned && !d->qemu.detach && d->qemu.pid > 0;
	/* Ending the session gives back everything it holds, queues
	 * included, and cancels what they still run (a closing host does not
	 * wait for its kernels, as a process's exit does not); a device we
	 * stop now needs no waiting for that. Without a session (a monitor)
	 * the queues are given back one by one. */
	if (d->t && d->sess >= 0)
		hp_session_close(d, !stop);
	for (unsigned k = 0; k < HP_MBOX_QUEUES; k++)
		if (d->queues[k] && d->t)
			hp_queue_forget(d->queues[k]);
	if (stop && d->t) {
		hp_stop(d);
		if (!hp_qemu_wait_exit(&d->qemu, exit_wait_ms(d)))
			hp_qemu_kill(&d->qemu), hp_qemu_reap(&d->qemu);
	} else if (stop) {
		hp_qemu_kill(&d->qemu);
		hp_qemu_reap(&d->qemu);
	}
	if (d->t)
		d->t->ops->close(d->t);
	if (d->bell >= 0)
		close(d->bell);
	if (stop)
		hp_qemu_remove_files(&d->qemu);
	hp_buffers_forget(d);
	free(d);
	return 0;
}

int hp_down(hp_device *d)
{
	int rc = hp_stop(d);
	if (rc)
		return rc;
	if (d->qemu.pid > 0 && !hp_qemu_wait_exit(&d->qemu, exit_wait_ms(d))) {
		hp_qemu_kill(&d->qemu);
		hp_qemu_wait_exit(&d->qemu, 2000);
	}
	if (d->qemu.path[0])
		hp_qemu_remove_files(&d->qemu);
	return 0;
}
