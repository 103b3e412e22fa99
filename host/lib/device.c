// SPDX-License-Identifier: MIT
/*
 * libhartpool's link to a device (internal.h): the transport to its memory
 * (shm.c: QEMU's RAM file mapped; serial.c: frames over the UART), the
 * handshake with the mailbox header of include/hartpool/mbox.h, reads and
 * writes of device memory, whether the device is still serving, and the
 * calling thread's last error. Booting is qemu.c's; queues are queue.c's.
 */
#include "host_bell.h"
#include "internal.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static __thread char last_error[512];

const char *hp_last_error(void)
{
	return last_error;
}

int hp_fail(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	return code;
}

/* ---- device memory ---- */

int hp_dev_read(hp_device *d, uint64_t addr, void *buf, size_t len)
{
	int rc = d->t->ops->read(d->t, addr, buf, len);
	return rc ? hp_fail(rc, "%s", d->t->err) : 0;
}

int hp_dev_write(hp_device *d, uint64_t addr, const void *buf, size_t len)
{
	int rc = d->t->ops->write(d->t, addr, buf, len);
	return rc ? hp_fail(rc, "%s", d->t->err) : 0;
}

int hp_dev_read64(hp_device *d, uint64_t addr, uint64_t *v)
{
	return hp_dev_read(d, addr, v, sizeof(*v));
}

bool hp_dev_claim(hp_device *d, uint64_t addr)
{
	if (d->t->map) {
		uint64_t zero = 0;
		uint64_t *p = (uint64_t *)(d->t->map + (addr - d->t->map_base));
		return __atomic_compare_exchange_n(p, &zero, d->token, false,
						   __ATOMIC_ACQ_REL,
						   __ATOMIC_ACQUIRE);
	}
	uint64_t now = 0;
	return hp_dev_write(d, addr, &d->token, sizeof(d->token)) == 0 &&
	       hp_dev_read(d, addr, &now, sizeof(now)) == 0 && now == d->token;
}

int hp_dev_wait(hp_device *d, uint64_t addr, uint64_t min, size_t len)
{
	if (!d->t->ops->wait)
		return 0;
	int rc = d->t->ops->wait(d->t, addr, min, len, HP_DEV_WAIT_MS);
	return rc ? hp_fail(rc, "%s", d->t->err) : 0;
}

/* Is the device's QEMU still there? 0, or HP_DEVICE_NOT_AVAILABLE naming
 * what happened (hp_dev_open() makes it HP_DEVICE_NOT_FOUND at a connect). */
static int alive(hp_device *d)
{
	char err[512];
	int rc = hp_qemu_check(&d->qemu, err, sizeof(err));
	return rc ? hp_fail(rc, "%s", err) : 0;
}

/* alive(), and the device has not stopped (`hartpool down` from another
 * process, or the firmware ended its run). */
int hp_dev_serving(hp_device *d)
{
	int rc = alive(d);
	if (rc)
		return rc;
	uint32_t state;
	if ((rc = hp_dev_read(d,
			      d->t->mbox_addr + offsetof(hp_mbox_header, state),
			      &state, sizeof(state))))
		return rc;
	if (state == HP_DEV_STOPPED)
		return hp_fail(HP_DEVICE_NOT_AVAILABLE,
			       "the device has stopped");
	return 0;
}

/* ---- opening ---- */

/* Wait for the header (magic last), check it, read the kernel table. A
 * device we booted gets 60 s to publish it; one we connect to must have
 * published it already, unless its QEMU is known to be running (booting). */
static int handshake(hp_device *d)
{
	uint64_t t0 = hp_now_ns();
	hp_transport *t = d->t;
	bool booting = d->qemu.spawned || (d->qemu.pid > 0 && !alive(d));
	uint64_t limit = booting ? 60000000000ull : 10000000000ull;
	for (unsigned n = 0;; hp_backoff(&n)) {
		uint64_t magic = 0;
		int rc = hp_dev_read64(d, t->mbox_addr, &magic);
		if (rc)
			return rc;
		if (magic == HP_MBOX_MAGIC)
			break;
		if ((rc = alive(d)))
			return rc;
		/* A boot writes the magic once, over zeroes: anything else
		 * is not a hartpool mailbox. */
		if (magic && !d->qemu.spawned)
			return hp_fail(
				HP_DEVICE_NOT_FOUND,
				"no hartpool mailbox there (magic 0x%llx "
				"at device address 0x%llx, not \"HARTPOOL\")",
				(unsigned long long)magic,
				(unsigned long long)t->mbox_addr);
		if (hp_now_ns() - t0 > limit)
			return hp_fail(
				booting ? HP_TIMEOUT : HP_DEVICE_NOT_FOUND,
				"the device did not publish its mailbox "
				"within %llu s (magic 0x%llx)",
				(unsigned long long)(limit / 1000000000u),
				(unsigned long long)magic);
	}
	int rc = hp_dev_read(d, t->mbox_addr, &d->hdr, sizeof(d->hdr));
	if (rc)
		return rc;
	if (d->hdr.version != HP_MBOX_VERSION)
		return hp_fail(HP_INVALID_VALUE,
			       "mailbox protocol version mismatch: the device "
			       "speaks %u, this host tool %u",
			       d->hdr.version, HP_MBOX_VERSION);
	if (d->hdr.num_queues != HP_MBOX_QUEUES ||
	    d->hdr.ring_size != HP_MBOX_RING_SIZE ||
	    d->hdr.num_kernels > HP_MBOX_KERNELS_MAX)
		return hp_fail(HP_INVALID_VALUE,
			       "the device's mailbox layout differs from this "
			       "host tool's (%u queues of %u)",
			       d->hdr.num_queues, d->hdr.ring_size);
	if (d->hdr.state == HP_DEV_STOPPED && !d->ending)
		return hp_fail(HP_DEVICE_NOT_AVAILABLE,
			       "the device has stopped");
	/* A mailbox left behind by a QEMU killed without `hartpool down`. */
	if ((rc = alive(d)))
		return rc;
	if (t->map && !t->map_fixed) {
		/* Now that DRAM's base is known, addresses map one to one. */
		t->map_base = d->hdr.dram_base;
		t->mbox_addr = d->hdr.dram_base + HP_MBOX_QEMU_OFFSET;
	}
	hp_transport_place(t);
	return hp_dev_read(d, d->hdr.kernels, d->kernels,
			   d->hdr.num_kernels * sizeof(hp_mbox_kernel));
}

/* The transport: the RAM file of the QEMU we booted, or what o->connect
 * names (then d->connect is that string). */
static int open_transport(hp_device *d, const hp_open_options *o)
{
	const char *connect = o->connect;
	char err[256];
	int rc;
	if (!connect || strncmp(connect, "shm:", 4) == 0) {
		if (connect)
			hp_qemu_attach(&d->qemu, connect + 4);
		snprintf(d->connect, sizeof(d->connect), "shm:%s",
			 d->qemu.path);
		rc = hp_transport_shm_open(d->qemu.path, 0, &d->t, err,
					   sizeof(err));
	} else if (strncmp(connect, "devmem:", 7) == 0 ||
		   strcmp(connect, "devmem") == 0) {
		snprintf(d->connect, sizeof(d->connect), "%s", connect);
		rc = hp_transport_devmem_open(connect[6] ? connect + 7 : "",
					      &d->t, err, sizeof(err));
	} else if (strncmp(connect, "serial:", 7) == 0) {
		snprintf(d->connect, sizeof(d->connect), "%s", connect);
		rc = hp_transport_serial_open(connect + 7, o->console,
					      o->console_ctx, &d->t, err,
					      sizeof(err));
	} else {
		return hp_fail(HP_INVALID_VALUE,
			       "--connect wants shm:PATH, devmem[:ADDR] or "
			       "serial:DEV[,baud=N], not '%s'",
			       connect);
	}
	return rc ? hp_fail(rc, "%s", err) : 0;
}

int hp_dev_open(hp_device *d, const hp_open_options *o)
{
	int rc = open_transport(d, o);
	if (!rc)
		rc = handshake(d);
	/* At --connect, a device that is gone or stopped is not there. */
	if (o->connect &&
	    (rc == HP_DEVICE_NOT_AVAILABLE || rc == HP_DEVICE_NOT_FOUND)) {
		char why[sizeof(last_error)];
		snprintf(why, sizeof(why), "%s", last_error);
		rc = hp_fail(HP_DEVICE_NOT_FOUND, "no device at %s: %s",
			     o->connect, why);
	}
	return rc;
}

int hp_dev_kernels_refresh(hp_device *d)
{
	uint64_t at = d->t->mbox_addr + offsetof(hp_mbox_header, num_kernels);
	uint32_t n;
	int rc = hp_dev_read(d, at, &n, sizeof(n));
	if (rc)
		return rc;
	if (n > HP_MBOX_KERNELS_MAX)
		return hp_fail(HP_INVALID_VALUE, "kernel table of %u rows", n);
	d->hdr.num_kernels = n;
	return hp_dev_read(d, d->hdr.kernels, d->kernels,
			   n * sizeof(hp_mbox_kernel));
}

/* ---- what the device published ---- */

const char *hp_connect_string(const hp_device *d)
{
	return d->connect;
}

const hp_device_info *hp_info(const hp_device *d)
{
	return &d->hdr.info;
}

int hp_counters(hp_device *d, uint64_t *packets, uint64_t *bad)
{
	uint64_t a = d->t->mbox_addr;
	int rc = hp_dev_read64(d, a + offsetof(hp_mbox_header, packets),
			       packets);
	return rc ? rc
		  : hp_dev_read64(d, a + offsetof(hp_mbox_header, bad_packets),
				  bad);
}

int hp_doorbell_rings(hp_device *d, uint64_t *rings)
{
	return hp_dev_read64(
		d, d->t->mbox_addr + offsetof(hp_mbox_header, rings), rings);
}

void hp_link_stats_get(const hp_device *d, hp_link_stats *out)
{
	const hp_transport *t = d->t;
	*out = (hp_link_stats){
		.bytes_sent = t->bytes_out,
		.bytes_received = t->bytes_in,
		.requests = t->frames_out,
		.retransmissions = t->retries,
		.baud = t->baud,
	};
}

const char *hp_host_bell_of(const hp_device *d)
{
	return d->t->host_bell ? hp_host_bell_name(d->t->host_bell) : NULL;
}

/* hal/console_ns16550.c: the receive FIFO interrupts at 14 bytes. */
#define HP_UART_RING_BYTES 14

void hp_dev_ring(hp_device *d)
{
	/* A transport that holds writes (serial) sends them now; a write
	 * it had refused shows at the next call. */
	if (d->t->ops->flush)
		d->t->ops->flush(d->t);
	/* A doorbell device sleeps the dispatcher until it rings: every
	 * packet rings (a full FIFO means a ring is already waiting). */
	if (d->t->bell >= 0) {
		ssize_t n = write(d->t->bell, "", 1);
		(void)n;
		return;
	}
	/* A register (devmem: an S-mode software interrupt of the
	 * dispatcher's hart), after the packet's writes. */
	if (d->t->bell_reg) {
		__atomic_thread_fence(__ATOMIC_SEQ_CST);
		*d->t->bell_reg = 1;
		return;
	}
	/* The UART socket of a device we booted: every packet rings, and
	 * the UART's receive interrupt wakes the dispatcher, which sleeps
	 * until then while its hosts ring (docs/mailbox.md, doorbell). A
	 * ring is as many bytes as the 16550's receive trigger (14, set for
	 * the serial link): fewer would interrupt only after the FIFO's
	 * character timeout. The bytes are line noise to the serial agent; a
	 * full socket means a ring is already waiting. */
	static const char ring[HP_UART_RING_BYTES];
	if (d->bell >= 0)
		send(d->bell, ring, sizeof(ring), MSG_DONTWAIT | MSG_NOSIGNAL);
}

int hp_stop(hp_device *d)
{
	uint32_t one = 1;
	int rc = hp_dev_write(
		d, d->t->mbox_addr + offsetof(hp_mbox_header, stop_request),
		&one, sizeof(one));
	hp_dev_ring(d);
	return rc;
}
