// SPDX-License-Identifier: MIT
/*
 * libhartpool's sessions (internal.h; include/hartpool/mbox.h, "Sessions"):
 * every device handle holds one session, which owns its queues, buffers and
 * kernel objects on the device. Opening claims a free slot of the device's
 * session table and waits for the device to serve it; closing asks the
 * device to end it, and the device gives back everything it held.
 *
 * A host that dies cannot close its session. Any other host on the same
 * machine that uses the device ends such sessions (hp_sessions_reap): a
 * session's token carries its owner's pid and the slot its start time and
 * operating system instance, so a dead process (or a zombie, or a pid now
 * used by another process) is told from a living one by a host of the same
 * system (a Linux beside the firmware reaps its own processes' sessions,
 * the machine QEMU runs on its own). It does so when it opens the device, when
 * it needs a slot or a queue, and every HP_REAP_NS while it waits; `hartpool
 * up` leaves a keeper process that does it for a device nobody else is
 * using (host/cli).
 */
#include "internal.h"
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SESS(d, s, field)                                                      \
	((d)->hdr.sessions + (s) * sizeof(hp_mbox_session) +                   \
	 offsetof(hp_mbox_session, field))

/* How often a waiting host looks for dead sessions (ns). */
#define HP_REAP_NS 250000000ull

/* ---- processes ---- */

/* State and start time of process @p pid from /proc (field 3 and 22 of
 * its stat line); false if it has none. */
static bool proc_stat(pid_t pid, char *state, uint64_t *start)
{
	char path[64], line[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	size_t n = fread(line, 1, sizeof(line) - 1, f);
	fclose(f);
	line[n] = 0;
	/* The command name may hold spaces and parentheses: fields count
	 * from its last ')'. */
	char *p = strrchr(line, ')');
	if (!p || p[1] != ' ')
		return false;
	*state = p[2];
	p += 2;
	for (int field = 3; field < 22 && p; field++) {
		p = strchr(p, ' ');
		if (p)
			p++;
	}
	*start = p ? strtoull(p, NULL, 10) : 0;
	return true;
}

uint64_t hp_proc_start(pid_t pid)
{
	char st;
	uint64_t start;
	return proc_stat(pid, &st, &start) ? start : 0;
}

/* This operating system instance: FNV-1a of Linux's boot_id, 0 if it
 * cannot be read. */
static uint64_t host_os(void)
{
	static uint64_t id;
	static bool done;
	if (__atomic_load_n(&done, __ATOMIC_ACQUIRE))
		return id;
	char buf[64] = {0};
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
	uint64_t h = 0;
	if (f) {
		if (fgets(buf, sizeof(buf), f)) {
			h = 14695981039346656037ull;
			for (const char *c = buf; *c && *c != '\n'; c++)
				h = (h ^ (unsigned char)*c) * 1099511628211ull;
		}
		fclose(f);
	}
	id = h;
	__atomic_store_n(&done, true, __ATOMIC_RELEASE);
	return id;
}

/* Is the process behind a session token gone: no such process, a zombie,
 * or another process under its pid? */
static bool owner_dead(uint64_t token, uint64_t host_start)
{
	pid_t pid = (pid_t)(token >> 32);
	if (pid <= 0)
		return false;
	if (kill(pid, 0) != 0 && errno == ESRCH)
		return true;
	char state;
	uint64_t start;
	if (!proc_stat(pid, &state, &start))
		return false; /* no /proc here: the signal says alive */
	return state == 'Z' || state == 'X' ||
	       (host_start && start != host_start);
}

/* ---- reaping ---- */

int hp_sessions_reap(hp_device *d, unsigned *ended)
{
	if (ended)
		*ended = 0;
	/* Only hosts that share the device's machine (shared memory) can
	 * tell a process's death; a serial link's host may be elsewhere. */
	if (!d->t->map)
		return 0;
	d->last_reap = hp_now_ns();
	for (unsigned s = 0; s < d->hdr.num_sessions; s++) {
		hp_mbox_session m;
		int rc = hp_dev_read(d, SESS(d, s, owner), &m, sizeof(m));
		if (rc)
			return rc;
		/* a pid means something on its own system only */
		bool other_os =
			m.host_os && host_os() && m.host_os != host_os();
		if (!m.owner || m.owner == d->token || m.end_request ||
		    (m.host_flags & HP_SESSION_SERIAL) || other_os ||
		    !owner_dead(m.owner, m.host_start))
			continue;
		/* Still the same owner (it may have closed meanwhile and the
		 * slot found a new one, which fills host_start after its
		 * claim: a start time read with another owner proves
		 * nothing). */
		hp_mbox_session again;
		if ((rc = hp_dev_read(d, SESS(d, s, owner), &again,
				      sizeof(again))))
			return rc;
		if (again.owner != m.owner || again.host_start != m.host_start)
			continue;
		uint32_t one = 1;
		if ((rc = hp_dev_write(d, SESS(d, s, end_request), &one,
				       sizeof(one))))
			return rc;
		if (ended)
			(*ended)++;
	}
	hp_dev_ring(d);
	return 0;
}

void hp_sessions_reap_due(hp_device *d)
{
	if (d->t && d->t->map && hp_now_ns() - d->last_reap >= HP_REAP_NS)
		hp_sessions_reap(d, NULL);
}

/* ---- opening and closing ---- */

static int wait_open(hp_device *d, unsigned s)
{
	uint64_t t0 = hp_now_ns();
	for (unsigned n = 0;; hp_backoff(&n)) {
		hp_mbox_session m;
		int rc = hp_dev_read(d, SESS(d, s, owner), &m, sizeof(m));
		if (rc)
			return rc;
		if (m.state == HP_SESSION_OPEN && m.dev_owner == d->token)
			return 0;
		if (m.owner != d->token ||
		    (m.state != HP_SESSION_FREE && m.dev_owner != d->token))
			return 1;
		if ((n & 63) == 63 && (rc = hp_dev_serving(d)))
			return rc;
		if (hp_now_ns() - t0 > (uint64_t)d->timeout_ms * 1000000u)
			return hp_fail(HP_TIMEOUT,
				       "the device did not open session %u "
				       "within %u ms",
				       s, d->timeout_ms);
	}
}

/* Fill our half of slot s (owner already ours). */
static int describe(hp_device *d, unsigned s, const char *name)
{
	struct {
		uint64_t host_start;
		uint32_t end_request, host_flags;
		char name[32];
		uint64_t host_os;
	} h;
	_Static_assert(
		offsetof(hp_mbox_session, name) -
					offsetof(hp_mbox_session, host_start) ==
				16 &&
			offsetof(hp_mbox_session, host_os) -
					offsetof(hp_mbox_session, host_start) ==
				48,
		"session host words");
	memset(&h, 0, sizeof(h));
	h.host_start = d->t->map ? hp_proc_start(getpid()) : 0;
	h.host_os = d->t->map ? host_os() : 0;
	h.host_flags = (d->t->map ? 0 : HP_SESSION_SERIAL) |
		       (d->t->host_bell ? HP_SESSION_BELL : 0);
	snprintf(h.name, sizeof(h.name), "%s", name ? name : "");
	return hp_dev_write(d, SESS(d, s, host_start), &h, sizeof(h));
}

static const char *program_name(void)
{
	static __thread char comm[32];
	FILE *f = fopen("/proc/self/comm", "r");
	comm[0] = 0;
	if (f) {
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = 0;
		fclose(f);
	}
	return comm;
}

int hp_session_open(hp_device *d)
{
	d->sess = -1;
	if (!d->hdr.sessions || d->hdr.num_sessions > HP_MBOX_SESSIONS)
		return hp_fail(HP_INVALID_VALUE,
			       "the device's mailbox has no session table");
	hp_sessions_reap(d, NULL);
	uint64_t t0 = hp_now_ns();
	for (unsigned n = 0;; hp_backoff(&n)) {
		for (unsigned s = 0; s < d->hdr.num_sessions; s++) {
			uint64_t owner;
			int rc = hp_dev_read64(d, SESS(d, s, owner), &owner);
			if (rc)
				return rc;
			if (owner || !hp_dev_claim(d, SESS(d, s, owner)))
				continue;
			if ((rc = describe(d, s, program_name())))
				return rc;
			hp_dev_ring(d);
			rc = wait_open(d, s);
			if (rc == 0) {
				d->sess = (int)s;
				return 0;
			}
			if (rc != 1)
				return rc;
		}
		/* None free: sessions of dead processes are ended now and
		 * come free once the device has reclaimed them. */
		unsigned ended = 0;
		int rc = hp_sessions_reap(d, &ended);
		if (rc)
			return rc;
		if ((n & 63) == 63 && (rc = hp_dev_serving(d)))
			return rc;
		if (!ended && hp_now_ns() - t0 > 2000000000ull)
			return hp_fail(HP_OUT_OF_RESOURCES,
				       "all %u device sessions are held by "
				       "running processes",
				       d->hdr.num_sessions);
		if (hp_now_ns() - t0 > (uint64_t)d->timeout_ms * 1000000u)
			return hp_fail(HP_TIMEOUT,
				       "no device session came free within "
				       "%u ms",
				       d->timeout_ms);
	}
}

int hp_session_close(hp_device *d, bool wait)
{
	if (d->sess < 0)
		return 0;
	unsigned s = (unsigned)d->sess;
	d->sess = -1;
	uint32_t one = 1;
	int rc = hp_dev_write(d, SESS(d, s, end_request), &one, sizeof(one));
	hp_dev_ring(d);
	if (rc || !wait)
		return rc;
	/* The device reclaims what the session held; a closed handle that
	 * returns has given it back (bounded: a device that stops meanwhile
	 * has nothing left to give back). */
	uint64_t t0 = hp_now_ns();
	for (unsigned n = 0;; hp_backoff(&n)) {
		hp_mbox_session m;
		if ((rc = hp_dev_read(d, SESS(d, s, owner), &m, sizeof(m))))
			return rc;
		if (m.owner != d->token || m.dev_owner != d->token)
			return 0;
		if ((n & 63) == 63 && hp_dev_serving(d))
			return 0;
		if (hp_now_ns() - t0 > (uint64_t)d->timeout_ms * 1000000u)
			return hp_fail(HP_TIMEOUT,
				       "the device did not end session %u "
				       "within %u ms",
				       s, d->timeout_ms);
	}
}

/* ---- what the device holds ---- */

int hp_sessions(hp_device *d, hp_session_info *out, unsigned max,
		unsigned *count)
{
	*count = 0;
	/* What it lists are live hosts' sessions (and those ending). */
	hp_sessions_reap_due(d);
	for (unsigned s = 0; s < d->hdr.num_sessions; s++) {
		hp_mbox_session m;
		int rc = hp_dev_read(d, SESS(d, s, owner), &m, sizeof(m));
		if (rc)
			return rc;
		if (m.state == HP_SESSION_FREE && !m.owner)
			continue;
		if (*count < max) {
			hp_session_info *i = &out[*count];
			memset(i, 0, sizeof(*i));
			i->slot = s;
			i->state = m.state;
			i->pid = (int)(m.owner >> 32);
			i->serial = (m.host_flags & HP_SESSION_SERIAL) != 0;
			i->host_bell = (m.host_flags & HP_SESSION_BELL) != 0;
			i->bells = m.bells;
			i->self = (int)s == d->sess;
			memcpy(i->name, m.name, sizeof(m.name));
			i->name[sizeof(i->name) - 1] = 0;
			i->buffers = m.buffers;
			i->bytes = m.bytes;
			i->commands = m.commands;
			i->cancelled = m.cancelled;
			i->objects = m.objects;
			i->kernels = m.kernels;
			i->queues = m.queues;
			i->regions = m.regions;
			i->quota_use[HP_QUOTA_HEAP] = m.bytes;
			i->quota_use[HP_QUOTA_BUFFERS] = m.buffers;
			i->quota_use[HP_QUOTA_OBJECTS] = m.objects;
			i->quota_use[HP_QUOTA_ROWS] = m.kernels;
			i->quota_use[HP_QUOTA_QUEUES] = m.queues;
			i->quota_use[HP_QUOTA_COMMANDS] = m.commands;
		}
		(*count)++;
	}
	return 0;
}

#define HDR(d, field) ((d)->t->mbox_addr + offsetof(hp_mbox_header, field))

/* Ask the device to publish its use figures now and wait (a little) for
 * its answer; a device that does not answer in time leaves them as they
 * were last published (at most a millisecond old while it is busy). */
static int fresh_figures(hp_device *d)
{
	uint32_t ack;
	int rc = hp_dev_read(d, HDR(d, usage_ack), &ack, sizeof(ack));
	if (rc)
		return rc;
	uint32_t req = ack + 1;
	if ((rc = hp_dev_write(d, HDR(d, usage_request), &req, sizeof(req))))
		return rc;
	hp_dev_ring(d);
	uint64_t t0 = hp_now_ns();
	for (unsigned n = 0; hp_now_ns() - t0 < 2000000000ull; hp_backoff(&n)) {
		if ((rc = hp_dev_read(d, HDR(d, usage_ack), &ack, sizeof(ack))))
			return rc;
		if (ack == req)
			return 0;
		if ((n & 63) == 63 && (rc = hp_dev_serving(d)))
			return rc;
	}
	return 0;
}

int hp_device_usage_get(hp_device *d, hp_device_usage *u)
{
	hp_sessions_reap_due(d);
	int rc = fresh_figures(d);
	if (rc)
		return rc;
	hp_mbox_header h;
	if ((rc = hp_dev_read(d, d->t->mbox_addr, &h, sizeof(h))))
		return rc;
	memset(u, 0, sizeof(*u));
	u->heap_size = h.buf_size;
	u->heap_used = h.heap_used;
	u->heap_free = h.heap_free;
	u->heap_largest = h.heap_largest;
	u->buffers = h.heap_buffers;
	u->buffers_max = HP_MBOX_BUFFERS_MAX;
	u->objects = h.objects;
	u->objects_max = HP_MBOX_OBJECTS_MAX;
	u->kernel_rows = h.kernel_rows;
	u->kernel_rows_max = HP_MBOX_KERNELS_MAX;
	u->code_used = h.code_used;
	u->code_size = h.code_size;
	u->sessions_max = h.num_sessions;
	u->sessions_ended = h.sessions_ended;
	u->shared = h.shared != 0;
	memcpy(u->quota_cap, h.quota_cap, sizeof(u->quota_cap));
	memcpy(u->quota_max, h.quota_max, sizeof(u->quota_max));
	memcpy(u->quota_min, h.quota_min, sizeof(u->quota_min));
	unsigned n;
	if ((rc = hp_sessions(d, NULL, 0, &n)))
		return rc;
	u->sessions = n;
	return 0;
}

int hp_ping(hp_device *d)
{
	return hp_dev_serving(d);
}
