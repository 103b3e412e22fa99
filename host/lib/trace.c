// SPDX-License-Identifier: MIT
/*
 * Timelines (hartpool.h, docs/trace.md): hp_trace_start() gives the device
 * a trace buffer through the mailbox header and waits for the dispatcher
 * to take it; hp_trace_stop() takes it back, reads what the harts
 * recorded, the completion records of the commands it names, and writes
 * the Trace Event Format file (trace_json.c).
 *
 * Device time is placed on the host's clock at the start handshake: the
 * device reads its timer (t_on) between the host's write of trace_gen and
 * its read of the answer, so the midpoint of the two host times is where
 * t_on goes, give or take half the handshake. Durations stay the
 * device's own (under QEMU with -icount device time runs at another rate
 * than the host's; the file's otherData says how much, from the stop
 * handshake).
 */
#include "internal.h"
#include "trace_json.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define TRACE_RECORDS_DEFAULT 4096u
#define TRACE_BYTES_MAX (64u << 20)
/* Commands whose completion records the file shows at most. */
#define TRACE_CMDS_MAX 65536u

struct hp_trace_state {
	hp_buffer buf;
	uint64_t size;
	uint32_t gen;
	double on_us, on_err_us; /* host µs at t_on, and how far off */
};

#define HDR(d, field) ((d)->t->mbox_addr + offsetof(hp_mbox_header, field))

/* Ask the device to apply trace_buf = @p buf, trace_size = @p size with a
 * new generation; wait for its answer. *at_us and *err_us get the
 * handshake's midpoint and half its length (host µs). 0, the device's
 * refusal (its status), or an error of the link. */
static int handshake(hp_device *d, uint64_t buf, uint64_t size, uint32_t *gen,
		     double *at_us, double *err_us)
{
	uint32_t g = 0, ack = 0;
	int rc = hp_dev_read(d, HDR(d, trace_gen), &g, sizeof(g));
	if (!rc)
		rc = hp_dev_read(d, HDR(d, trace_ack), &ack, sizeof(ack));
	if (rc)
		return rc;
	g = (g > ack ? g : ack) + 1;
	if (!g)
		g = 1;
	/* The buffer, its size and our session's token (the device checks
	 * the buffer is ours). */
	uint64_t bs[3] = {buf, size, d->token};
	_Static_assert(offsetof(hp_mbox_header, trace_owner) ==
			       offsetof(hp_mbox_header, trace_buf) + 16,
		       "trace words in a row");
	if ((rc = hp_dev_write(d, HDR(d, trace_buf), bs, sizeof(bs))))
		return rc;
	uint64_t t0 = hp_now_ns();
	if ((rc = hp_dev_write(d, HDR(d, trace_gen), &g, sizeof(g))))
		return rc;
	hp_dev_ring(d);
	for (unsigned n = 0;; hp_backoff(&n)) {
		struct {
			uint32_t ack;
			int32_t status;
		} a;
		if ((rc = hp_dev_read(d, HDR(d, trace_ack), &a, sizeof(a))))
			return rc;
		uint64_t t1 = hp_now_ns();
		if (a.ack == g) {
			*gen = g;
			*at_us = (double)(t0 + t1) / 2e3;
			*err_us = (double)(t1 - t0) / 2e3;
			return a.status ? hp_fail(a.status,
						  "the device refused the "
						  "trace buffer at 0x%llx "
						  "(%llu bytes)",
						  (unsigned long long)buf,
						  (unsigned long long)size)
					: 0;
		}
		/* Another host's request went in between: ours is gone. */
		if ((int32_t)(a.ack - g) > 0)
			return hp_fail(
				HP_DEVICE_NOT_AVAILABLE,
				"another host changed the trace at once");
		if ((n & 63) == 63) {
			if ((rc = hp_dev_serving(d)))
				return rc;
			hp_dev_ring(d); /* a ring lost to a full FIFO */
		}
		if (t1 - t0 > (uint64_t)d->timeout_ms * 1000000u)
			return hp_fail(HP_TIMEOUT,
				       "the device did not take the trace "
				       "request within %u ms",
				       d->timeout_ms);
	}
}

int hp_trace_start(hp_device *d, uint32_t records_per_hart)
{
	if (d->trace)
		return hp_fail(HP_INVALID_VALUE,
			       "a trace is already on (hp_trace_stop first)");
	uint64_t harts = d->hdr.info.harts ? d->hdr.info.harts : 1;
	uint64_t per =
		records_per_hart ? records_per_hart : TRACE_RECORDS_DEFAULT;
	uint64_t fixed =
		sizeof(hp_trace_header) + harts * sizeof(hp_trace_hart);
	if (fixed + harts * sizeof(hp_trace_rec) > TRACE_BYTES_MAX)
		return hp_fail(HP_OUT_OF_RESOURCES,
			       "no room for a trace of %llu harts",
			       (unsigned long long)harts);
	if (per > (TRACE_BYTES_MAX - fixed) / sizeof(hp_trace_rec) / harts)
		per = (TRACE_BYTES_MAX - fixed) / sizeof(hp_trace_rec) / harts;
	uint64_t size = fixed + harts * per * sizeof(hp_trace_rec);
	struct hp_trace_state *s = calloc(1, sizeof(*s));
	if (!s)
		return hp_fail(HP_OUT_OF_RESOURCES, "no host memory");
	int rc = hp_buffer_alloc(d, size, &s->buf);
	if (rc) {
		free(s);
		return rc;
	}
	s->size = size;
	rc = handshake(d, s->buf, size, &s->gen, &s->on_us, &s->on_err_us);
	if (rc) {
		char why[512];
		snprintf(why, sizeof(why), "%s", hp_last_error());
		hp_buffer_free(d, s->buf);
		free(s);
		return hp_fail(rc, "%s", why);
	}
	d->trace = s;
	return 0;
}

static const char *kernel_name(void *ctx, uint32_t kernel)
{
	static __thread char name[33];
	const hp_mbox_kernel *k = hp_kernel_at(ctx, kernel);
	if (!k || !k->name[0])
		return NULL;
	memcpy(name, k->name, 32);
	name[32] = 0;
	return name;
}

/* Read the rows' used parts into @p mem (the whole buffer's size, zeroed):
 * the header and counts first, then what each row says it holds, never
 * more than the buffer. */
static int read_rows(hp_device *d, const struct hp_trace_state *s, uint8_t *mem)
{
	hp_trace_header *h = (hp_trace_header *)mem;
	uint64_t harts = d->hdr.info.harts ? d->hdr.info.harts : 1;
	uint64_t fixed = sizeof(*h) + harts * sizeof(hp_trace_hart);
	int rc = hp_buffer_read(d, s->buf, 0, mem, fixed);
	if (rc)
		return rc;
	uint64_t per = h->per_hart;
	/* A header that does not describe this buffer: hp_trace_json()
	 * says so. */
	if (h->magic != HP_TRACE_MAGIC || h->harts != harts ||
	    per > (s->size - fixed) / sizeof(hp_trace_rec) / harts)
		return 0;
	const hp_trace_hart *rows = (const hp_trace_hart *)(h + 1);
	for (uint64_t i = 0; i < harts; i++) {
		uint64_t w = rows[i].written < per ? rows[i].written : per;
		uint64_t at = fixed + i * per * sizeof(hp_trace_rec);
		if (w && (rc = hp_buffer_read(d, s->buf, at, mem + at,
					      w * sizeof(hp_trace_rec))))
			return rc;
	}
	return 0;
}

/* The completion records of the commands the trace's packets name (those
 * not reused yet). */
static hp_trace_cmd *commands(hp_device *d, const uint8_t *mem, size_t size,
			      size_t *n)
{
	*n = 0;
	const hp_trace_header *h = (const hp_trace_header *)mem;
	uint64_t harts = h->harts, per = h->per_hart;
	uint64_t fixed = sizeof(*h) + harts * sizeof(hp_trace_hart);
	if (h->magic != HP_TRACE_MAGIC || !harts || fixed > size ||
	    per > (size - fixed) / sizeof(hp_trace_rec) / harts)
		return NULL;
	const hp_trace_hart *rows = (const hp_trace_hart *)(h + 1);
	const hp_trace_rec *rec = (const hp_trace_rec *)(rows + harts);
	hp_trace_cmd *c = calloc(TRACE_CMDS_MAX, sizeof(*c));
	if (!c)
		return NULL;
	char saved[512];
	snprintf(saved, sizeof(saved), "%s", hp_last_error());
	for (uint64_t i = 0; i < harts && *n < TRACE_CMDS_MAX; i++) {
		uint64_t w = rows[i].written < per ? rows[i].written : per;
		for (uint64_t k = 0; k < w && *n < TRACE_CMDS_MAX; k++) {
			const hp_trace_rec *r = &rec[i * per + k];
			hp_event_info info;
			if (r->kind != HP_TRACE_PACKET ||
			    hp_trace_rec_check(h, (unsigned)i, r) ||
			    hp_event_query(d, r->cmd, &info))
				continue;
			c[(*n)++] = (hp_trace_cmd){
				.cmd = r->cmd,
				.queued_us = info.queued_us,
				.submit_us = info.submit_us,
				.start_us = info.start_us,
				.end_us = info.end_us,
				.status = info.status,
				.groups = info.groups,
			};
		}
	}
	hp_fail(0, "%s", saved); /* records gone are no error */
	return c;
}

int hp_trace_stop(hp_device *d, const char *path, hp_trace_stats *stats)
{
	struct hp_trace_state *s = d->trace;
	if (!s)
		return hp_fail(HP_INVALID_VALUE, "no trace is on");
	d->trace = NULL;
	hp_trace_meta m = {
		.board = d->hdr.info.board,
		.first_worker = d->hdr.info.harts > 1,
		.host_on_us = s->on_us,
		.host_on_err_us = s->on_err_us,
		.kernel_name = kernel_name,
		.ctx = d,
	};
	/* End it, unless a later start (another host's) already did. */
	uint32_t ack = 0, g;
	int rc = hp_dev_read(d, HDR(d, trace_ack), &ack, sizeof(ack));
	if (!rc && ack == s->gen)
		rc = handshake(d, 0, 0, &g, &m.host_off_us, &m.host_off_err_us);
	uint8_t *mem = NULL;
	hp_trace_cmd *cmds = NULL;
	if (!rc && path) {
		mem = calloc(1, s->size);
		if (!mem)
			rc = hp_fail(HP_OUT_OF_RESOURCES,
				     "no host memory for %llu bytes of trace",
				     (unsigned long long)s->size);
	}
	if (!rc && mem)
		rc = read_rows(d, s, mem);
	if (!rc && mem) {
		hp_dev_kernels_refresh(d);
		cmds = commands(d, mem, s->size, &m.num_cmds);
		m.cmds = cmds;
		FILE *f = fopen(path, "w");
		char why[200] = "";
		if (!f) {
			rc = hp_fail(HP_INVALID_VALUE, "cannot write %s: %s",
				     path, strerror(errno));
		} else {
			rc = hp_trace_json(mem, s->size, &m, f, stats, why,
					   sizeof(why));
			if (fclose(f) && !rc) {
				rc = HP_OUT_OF_RESOURCES;
				snprintf(why, sizeof(why), "%s",
					 strerror(errno));
			}
			if (rc)
				hp_fail(rc, "trace %s: %s", path, why);
		}
	}
	free(cmds);
	free(mem);
	/* The device writes the buffer no more once it answered (or a later
	 * trace replaced ours). */
	int rc2 = hp_buffer_free(d, s->buf);
	free(s);
	return rc ? rc : rc2;
}

void hp_trace_close(hp_device *d)
{
	if (d->trace)
		hp_trace_stop(d, NULL, NULL);
}
