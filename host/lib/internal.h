/* SPDX-License-Identifier: MIT */
/**
 * @file libhartpool's private header: the handles behind hartpool.h and
 * what its files share. The library reads in one direction; each file
 * calls only those listed below it:
 *   open.c    hp_open / hp_close / hp_down: a device's life
 *   trace.c   timelines: the device's trace buffer to a JSON file
 *             (trace_json.c: the conversion, device-free)
 *   object.c  the kernel table and kernel objects (LOAD / UNLOAD)
 *   buffer.c  device buffers (ALLOC / FREE), INFO, the printf buffer
 *   queue.c   queues, enqueueing, events; service packets
 *   session.c the handle's session, ending dead hosts' sessions, what
 *             the device holds
 *   device.c  the link: transport, mailbox header, device memory, errors
 *   qemu.c    the QEMU launcher (qemu.h; knows nothing of the mailbox)
 *   clmeta.c  hp_cl_program_parse: a kernel object's OpenCL metadata
 * and the transports below all (transport.h: shm.c, serial.c).
 */
#ifndef HOST_INTERNAL_H
#define HOST_INTERNAL_H

#include "backoff.h"
#include "kdesc.h"
#include "last_error.h"
#include "qemu.h"
#include "transport.h"
#include <hartpool_raw.h>

struct hp_queue {
	hp_device *d;
	unsigned id, flags;
	uint64_t next; /* index of the next packet */
	uint64_t qaddr, ring, kernarg, comp;
	uint64_t timeout_us; /* default time limit of its kernels */
};

struct hp_device {
	/* device.c: the link and what the device published. */
	hp_qemu qemu; /* its QEMU, when known (qemu.c) */
	hp_transport *t;
	hp_mbox_header hdr;
	hp_mbox_kernel kernels[HP_MBOX_KERNELS_MAX];
	char connect[300];
	unsigned timeout_ms;
	/* session.c: our session's slot (-1: none) and token (pid << 32 |
	 * a nonce; our queues' owner word too), when we last looked for
	 * dead sessions. */
	int sess;
	uint64_t token;
	/* opened to end it (hp_open_options.ending): a stopped device too */
	bool ending;
	uint64_t last_reap;
	/* buffer.c: our buffers, sorted by address (hp_buffer_write and
	 * _read stay inside one). */
	struct hp_buf_range *bufs;
	size_t num_bufs, cap_bufs;
	/* queue.c: the queues this handle owns. */
	hp_queue *service; /* ALLOC / FREE / INFO / LOAD / UNLOAD */
	hp_queue *queues[HP_MBOX_QUEUES];
	/* The UART socket of a device we booted for ourselves: one byte on
	 * it wakes the dispatcher at once (docs/mailbox.md, doorbell). */
	int bell;
	uint64_t last_submit;
	/* trace.c: the trace this handle started, or NULL. */
	struct hp_trace_state *trace;
};

/* ---- clmeta.c ---- */

/* hp_kernel as the device lays it out: kdesc.h. */

/* ---- device.c ---- */

/** Wake the dispatcher after a write it must see (packets, a stop):
 * the device's doorbell, or the UART socket of a device we booted. */
void hp_dev_ring(hp_device *d);

/**
 * Open the link of @p d: the shm transport of the device d->qemu just
 * booted (@p o->connect NULL), else the transport @p o->connect names;
 * then the handshake (the mailbox header, its version, the kernel table).
 * At a connect, a device that is not there or gone is HP_DEVICE_NOT_FOUND.
 */
int hp_dev_open(hp_device *d, const hp_open_options *o);
/** Device memory through the transport; 0 or an HP_ error (hp_fail). */
int hp_dev_read(hp_device *d, uint64_t addr, void *buf, size_t len);
int hp_dev_write(hp_device *d, uint64_t addr, const void *buf, size_t len);
int hp_dev_read64(hp_device *d, uint64_t addr, uint64_t *v);
/** Claim the owner word at @p addr (a session slot's or a queue's) for
 * d->token: compare-and-swap from 0 on shared memory; over a serial link
 * a write, which the device refuses when the word is another session's,
 * then a read that waits for the write's answer (a write is posted: its
 * refusal would reach only the next call) and sees the owner the device
 * holds. */
bool hp_dev_claim(hp_device *d, uint64_t addr);
/** On a transport that waits on the device (serial, transport.h): wait
 * there up to HP_DEV_WAIT_MS until the u64 at @p addr is >= @p min; the
 * next reads of the @p len bytes there come with the answer. Elsewhere a
 * no-op. 0 or an HP_ error (hp_fail). */
int hp_dev_wait(hp_device *d, uint64_t addr, uint64_t min, size_t len);
#define HP_DEV_WAIT_MS 20
/** The device's QEMU is still there, and the device has not stopped:
 * what a waiting host checks. 0 or HP_DEVICE_NOT_AVAILABLE. */
int hp_dev_serving(hp_device *d);
/** Read the kernel table again (objects loaded or unloaded since). */
int hp_dev_kernels_refresh(hp_device *d);

/* ---- session.c ---- */

/** Claim a session slot and wait until the device serves it (d->sess). */
int hp_session_open(hp_device *d);
/** End our session: the device cancels what is left of it and gives
 * back everything it held; with @p wait, until it has. */
int hp_session_close(hp_device *d, bool wait);
/** hp_sessions_reap() if the last look was a while ago (waits call it). */
void hp_sessions_reap_due(hp_device *d);
/** A process's start time (Linux: /proc/PID/stat's starttime), 0: unknown. */
uint64_t hp_proc_start(pid_t pid);

/* ---- buffer.c ---- */

/** Forget every buffer (the session that held them ended). */
void hp_buffers_forget(hp_device *d);

/* ---- trace.c ---- */

/** hp_close(): end a trace the handle left on (nothing written). */
void hp_trace_close(hp_device *d);

/* ---- queue.c ---- */

/** Drop the handle's side of @p q (its session's end gives the device's
 * side back). */
void hp_queue_forget(hp_queue *q);

/** Run one service packet (HP_PKT_ALLOC, FREE, INFO, LOAD, UNLOAD: an
 * hp_packet_mem of @p type with @p dst, @p src and @p size) on the
 * device's service queue to completion; its status is the result (with
 * the device's detail in hp_last_error()). */
int hp_service(hp_device *d, uint16_t type, uint64_t dst, uint64_t src,
	       uint64_t size, hp_event_info *info);

#endif
