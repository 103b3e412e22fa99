// SPDX-License-Identifier: MIT
/*
 * libhartpool (host/include/hartpool.h): the host side of the mailbox
 * protocol of include/hartpool/mbox.h, over any transport (transport.h).
 * Booting a device means running qemu/hp-qemu with the guest RAM in a
 * /dev/shm file and the UART on a Unix socket next to it:
 *   PATH       guest RAM (shm transport)
 *   PATH.sock  the UART (serial transport)
 *   PATH.log   everything the UART sent (console)
 *   PATH.pid   QEMU's pid
 */
#define _GNU_SOURCE
#include "transport.h"
#include <errno.h>
#include <fcntl.h>
#include <hartpool.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef HP_ROOT
#define HP_ROOT "."
#endif

#define RING HP_MBOX_RING_SIZE

struct hp_queue {
	hp_device *d;
	unsigned id, flags;
	uint64_t next; /* index of the next packet */
	uint64_t qaddr, ring, kernarg, comp;
	uint64_t timeout_us; /* default time limit of its kernels */
};

struct hp_device {
	hp_transport *t;
	hp_mbox_header hdr;
	hp_mbox_kernel kernels[HP_MBOX_KERNELS_MAX];
	char path[256]; /* shm file (booted or connected), or "" */
	char connect[300];
	pid_t qemu;   /* QEMU's pid if known, else 0 */
	bool spawned; /* we started it: our child */
	bool detach;  /* leave it running at close */
	unsigned timeout_ms;
	uint64_t token;	   /* our queue-owner token */
	hp_queue *service; /* ALLOC / FREE / INFO */
	hp_queue *queues[HP_MBOX_QUEUES];
	/* The UART socket of a device we booted for ourselves: one byte on
	 * it wakes the dispatcher at once (docs/mailbox.md, doorbell). */
	int bell;
	uint64_t last_submit;
};

static __thread char last_error[512];

const char *hp_last_error(void)
{
	return last_error;
}

static int fail(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int fail(int code, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(last_error, sizeof(last_error), fmt, ap);
	va_end(ap);
	return code;
}

static uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ---- device memory ---- */

static int dread(hp_device *d, uint64_t addr, void *buf, size_t len)
{
	int rc = d->t->ops->read(d->t, addr, buf, len);
	return rc ? fail(rc, "%s", d->t->err) : 0;
}

static int dwrite(hp_device *d, uint64_t addr, const void *buf, size_t len)
{
	int rc = d->t->ops->write(d->t, addr, buf, len);
	return rc ? fail(rc, "%s", d->t->err) : 0;
}

static int dread64(hp_device *d, uint64_t addr, uint64_t *v)
{
	return dread(d, addr, v, sizeof(*v));
}

/* Has process @p pid ended? A killed process counts as soon as it is
 * exiting (PF_EXITING) or a zombie not yet reaped, not only once gone. */
static bool pid_gone(pid_t pid)
{
	if (kill(pid, 0) != 0)
		return errno == ESRCH;
	char f[64], buf[512];
	snprintf(f, sizeof(f), "/proc/%d/stat", (int)pid);
	FILE *fp = fopen(f, "r");
	if (!fp)
		return false;
	size_t n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	buf[n] = 0;
	/* pid (comm) state ppid pgrp session tty tpgid flags ... */
	const char *p = strrchr(buf, ')');
	char state;
	unsigned long flags;
	if (!p ||
	    sscanf(p + 1, " %c %*d %*d %*d %*d %*d %lu", &state, &flags) != 2)
		return false;
	return state == 'Z' || state == 'X' || (flags & 0x4u /* PF_EXITING */);
}

/* Is the device's QEMU still there? 0, or HP_DEVICE_NOT_AVAILABLE naming
 * what happened (hp_open() makes it HP_DEVICE_NOT_FOUND for --connect). */
static int alive(hp_device *d)
{
	if (d->spawned) {
		int st;
		pid_t r = waitpid(d->qemu, &st, WNOHANG);
		if (r == d->qemu) {
			d->qemu = 0;
			d->spawned = false;
			return fail(HP_DEVICE_NOT_AVAILABLE,
				    "the device is gone: QEMU exited (%s %d)",
				    WIFEXITED(st) ? "status" : "signal",
				    WIFEXITED(st) ? WEXITSTATUS(st)
						  : WTERMSIG(st));
		}
	} else if (d->qemu > 0 && pid_gone(d->qemu)) {
		return fail(HP_DEVICE_NOT_AVAILABLE,
			    "the device is gone: QEMU (pid %d) is not running",
			    (int)d->qemu);
	}
	return 0;
}

/* alive(), and the device has not stopped (`hartpool down` from another
 * process, or the firmware ended its run): what a waiting host checks. */
static int serving(hp_device *d)
{
	int rc = alive(d);
	if (rc)
		return rc;
	uint32_t state;
	if ((rc = dread(d, d->t->mbox_addr + offsetof(hp_mbox_header, state),
			&state, sizeof(state))))
		return rc;
	if (state == HP_DEV_STOPPED)
		return fail(HP_DEVICE_NOT_AVAILABLE, "the device has stopped");
	return 0;
}

/* Back-off for polling device memory: yield first, then sleep longer and
 * longer (up to 1 ms), so a waiting host leaves the host cores to QEMU. */
static void backoff(unsigned *n)
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

/* ---- opening ---- */

static void set_path(hp_device *d, const char *path)
{
	snprintf(d->path, sizeof(d->path), "%s", path);
	snprintf(d->connect, sizeof(d->connect), "shm:%s", path);
}

static pid_t read_pid(const char *path)
{
	char f[300], buf[32] = {0};
	snprintf(f, sizeof(f), "%s.pid", path);
	FILE *fp = fopen(f, "r");
	if (!fp)
		return 0;
	if (!fgets(buf, sizeof(buf), fp))
		buf[0] = 0;
	fclose(fp);
	return (pid_t)atoi(buf);
}

static const char *root_dir(void)
{
	const char *r = getenv("HARTPOOL_ROOT");
	return r && *r ? r : HP_ROOT;
}

static void remove_files(const char *path);

static int spawn(hp_device *d, const hp_open_options *o)
{
	static unsigned seq;
	const char *board = o->board ? o->board : "qemu-virt";
	unsigned harts = o->harts ? o->harts : 8;
	char fw[512], launcher[512], harts_s[16], mem_s[24], path[256],
		sock[300], log[300], err[300];
	snprintf(fw, sizeof(fw), "%s/build/%s/hartpool.elf", root_dir(), board);
	snprintf(launcher, sizeof(launcher), "%s/qemu/hp-qemu", root_dir());
	if (access(fw, R_OK) != 0)
		return fail(HP_INVALID_VALUE,
			    "no firmware for board '%s' at %s (run `make "
			    "BOARD=%s` in %s)",
			    board, fw, board, root_dir());
	if (harts < 1 || harts > 512)
		return fail(HP_INVALID_VALUE, "--harts must be 1..512, not %u",
			    harts);
	snprintf(harts_s, sizeof(harts_s), "%u", harts);
	snprintf(mem_s, sizeof(mem_s), "%llu", (unsigned long long)o->mem_size);
	snprintf(path, sizeof(path), "/dev/shm/hartpool-%d-%u", (int)getpid(),
		 seq++);
	snprintf(sock, sizeof(sock), "%s.sock", path);
	snprintf(log, sizeof(log), "%s.log", path);
	snprintf(err, sizeof(err), "%s.err", path);
	unlink(path);
	unlink(sock);
	set_path(d, path);

	pid_t pid = fork();
	if (pid < 0)
		return fail(HP_OUT_OF_RESOURCES,
			    "cannot start QEMU: fork: %s (host processes or "
			    "memory)",
			    strerror(errno));
	if (pid == 0) {
		if (o->detach)
			setsid();
		else
			prctl(PR_SET_PDEATHSIG, SIGTERM);
		int in = open("/dev/null", O_RDONLY);
		int out = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (in >= 0)
			dup2(in, 0);
		if (out >= 0) {
			dup2(out, 1);
			dup2(out, 2);
		}
		const char *argv[20];
		unsigned n = 0;
		argv[n++] = launcher;
		argv[n++] = "--board";
		argv[n++] = board;
		argv[n++] = "--harts";
		argv[n++] = harts_s;
		argv[n++] = "--shm";
		argv[n++] = path;
		argv[n++] = "--serial-socket";
		argv[n++] = sock;
		argv[n++] = "--log";
		argv[n++] = log;
		if (o->append) {
			argv[n++] = "--append";
			argv[n++] = o->append;
		}
		if (o->mem_size) {
			argv[n++] = "--mem";
			argv[n++] = mem_s;
		}
		argv[n++] = fw;
		argv[n] = NULL;
		execv(launcher, (char *const *)argv);
		_exit(127);
	}
	d->qemu = pid;
	d->spawned = true;
	d->detach = o->detach;
	char pidf[300];
	snprintf(pidf, sizeof(pidf), "%s.pid", path);
	FILE *fp = fopen(pidf, "w");
	if (fp) {
		fprintf(fp, "%d\n", (int)pid);
		fclose(fp);
	}
	/* The RAM file appears once QEMU has started. */
	uint64_t t0 = now_ns();
	for (unsigned n = 0;; backoff(&n)) {
		struct stat st;
		if (stat(path, &st) == 0 &&
		    st.st_size > (off_t)HP_MBOX_QEMU_OFFSET)
			return 0;
		int status;
		if (waitpid(pid, &status, WNOHANG) == pid) {
			d->qemu = 0;
			d->spawned = false;
			char msg[300] = "";
			FILE *ef = fopen(err, "r");
			if (ef) {
				if (!fgets(msg, sizeof(msg), ef))
					msg[0] = 0;
				fclose(ef);
			}
			msg[strcspn(msg, "\n")] = 0;
			/* Exit status 2: hp-qemu refused its options (a --mem
			 * outside the board's range, ...); nothing to keep. */
			if (WIFEXITED(status) && WEXITSTATUS(status) == 2 &&
			    msg[0]) {
				remove_files(path);
				return fail(HP_INVALID_VALUE,
					    "cannot boot %s: %s", board, msg);
			}
			return fail(HP_DEVICE_NOT_AVAILABLE,
				    "QEMU did not start (%s %d): %s (see %s)",
				    WIFEXITED(status) ? "status" : "signal",
				    WIFEXITED(status) ? WEXITSTATUS(status)
						      : WTERMSIG(status),
				    msg[0] ? msg : "no message", err);
		}
		if (now_ns() - t0 > 30000000000ull)
			return fail(HP_TIMEOUT,
				    "QEMU did not create %s in 30 s", path);
	}
}

static void remove_files(const char *path)
{
	static const char *const ext[] = {"", ".sock", ".log", ".pid", ".err"};
	char f[320];
	for (unsigned i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		snprintf(f, sizeof(f), "%s%s", path, ext[i]);
		unlink(f);
	}
}

/* Wait for the header (magic last), check it, read the kernel table. A
 * device we booted gets 60 s to publish it; one we connect to must have
 * published it already, unless its QEMU is known to be running (booting). */
static int handshake(hp_device *d)
{
	uint64_t t0 = now_ns();
	hp_transport *t = d->t;
	bool booting = d->spawned || (d->qemu > 0 && !alive(d));
	uint64_t limit = booting ? 60000000000ull : 10000000000ull;
	for (unsigned n = 0;; backoff(&n)) {
		uint64_t magic = 0;
		int rc = dread64(d, t->mbox_addr, &magic);
		if (rc)
			return rc;
		if (magic == HP_MBOX_MAGIC)
			break;
		if ((rc = alive(d)))
			return rc;
		/* A boot writes the magic once, over zeroes: anything else
		 * is not a hartpool mailbox. */
		if (magic && !d->spawned)
			return fail(
				HP_DEVICE_NOT_FOUND,
				"no hartpool mailbox there (magic 0x%llx "
				"at device address 0x%llx, not \"HARTPOOL\")",
				(unsigned long long)magic,
				(unsigned long long)t->mbox_addr);
		if (now_ns() - t0 > limit)
			return fail(booting ? HP_TIMEOUT : HP_DEVICE_NOT_FOUND,
				    "the device did not publish its mailbox "
				    "within %llu s (magic 0x%llx)",
				    (unsigned long long)(limit / 1000000000u),
				    (unsigned long long)magic);
	}
	int rc = dread(d, t->mbox_addr, &d->hdr, sizeof(d->hdr));
	if (rc)
		return rc;
	if (d->hdr.version != HP_MBOX_VERSION)
		return fail(HP_INVALID_VALUE,
			    "mailbox protocol version mismatch: the device "
			    "speaks %u, this host tool %u",
			    d->hdr.version, HP_MBOX_VERSION);
	if (d->hdr.num_queues != HP_MBOX_QUEUES ||
	    d->hdr.ring_size != HP_MBOX_RING_SIZE ||
	    d->hdr.num_kernels > HP_MBOX_KERNELS_MAX)
		return fail(HP_INVALID_VALUE,
			    "the device's mailbox layout differs from this "
			    "host tool's (%u queues of %u)",
			    d->hdr.num_queues, d->hdr.ring_size);
	if (d->hdr.state == HP_DEV_STOPPED)
		return fail(HP_DEVICE_NOT_AVAILABLE, "the device has stopped");
	/* A mailbox left behind by a QEMU killed without `hartpool down`. */
	if ((rc = alive(d)))
		return rc;
	if (t->map) {
		/* Now that DRAM's base is known, addresses map one to one. */
		t->map_base = d->hdr.dram_base;
		t->mbox_addr = d->hdr.dram_base + HP_MBOX_QEMU_OFFSET;
	}
	return dread(d, d->hdr.kernels, d->kernels,
		     d->hdr.num_kernels * sizeof(hp_mbox_kernel));
}

/* Read the kernel table again (objects loaded or unloaded since). */
static int kernels_refresh(hp_device *d)
{
	uint64_t at = d->t->mbox_addr + offsetof(hp_mbox_header, num_kernels);
	uint32_t n;
	int rc = dread(d, at, &n, sizeof(n));
	if (rc)
		return rc;
	if (n > HP_MBOX_KERNELS_MAX)
		return fail(HP_INVALID_VALUE, "kernel table of %u rows", n);
	d->hdr.num_kernels = n;
	return dread(d, d->hdr.kernels, d->kernels, n * sizeof(hp_mbox_kernel));
}

/* Connect to the UART socket next to the RAM file, or -1. */
static int open_bell(const char *path)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	if (snprintf(sa.sun_path, sizeof(sa.sun_path), "%s.sock", path) >=
	    (int)sizeof(sa.sun_path))
		return -1;
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof(sa)) != 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

int hp_open(const hp_open_options *o, hp_device **out)
{
	static const hp_open_options none;
	if (!o)
		o = &none;
	*out = NULL;
	if (o->mem_size && o->connect)
		return fail(HP_INVALID_VALUE,
			    "mem_size (--mem) is for a device this call boots; "
			    "%s is running with the memory it has",
			    o->connect);
	if (o->mem_size % (1u << 20))
		return fail(
			HP_INVALID_VALUE,
			"mem_size (--mem) must be a whole number of MiB, not "
			"%llu bytes",
			(unsigned long long)o->mem_size);
	hp_device *d = calloc(1, sizeof(*d));
	if (!d)
		return fail(HP_OUT_OF_RESOURCES,
			    "out of host memory (%zu bytes for the device "
			    "handle)",
			    sizeof(*d));
	/* Short sleeps in the wait loops should be short. */
	prctl(PR_SET_TIMERSLACK, 1000UL);
	d->timeout_ms = o->timeout_ms ? o->timeout_ms : 60000;
	d->bell = -1;
	d->token =
		(uint64_t)getpid() << 32 | ((uint64_t)now_ns() & 0xffffffffu);
	char err[256];
	int rc = 0;
	if (!o->connect) {
		rc = spawn(d, o);
		if (!rc && (rc = hp_transport_shm_open(d->path, 0, &d->t, err,
						       sizeof(err))))
			fail(rc, "%s", err);
	} else if (strncmp(o->connect, "shm:", 4) == 0) {
		set_path(d, o->connect + 4);
		d->qemu = read_pid(d->path);
		if ((rc = hp_transport_shm_open(d->path, 0, &d->t, err,
						sizeof(err))))
			fail(rc, "%s", err);
	} else if (strncmp(o->connect, "serial:", 7) == 0) {
		snprintf(d->connect, sizeof(d->connect), "%s", o->connect);
		if ((rc = hp_transport_serial_open(o->connect + 7, o->console,
						   o->console_ctx, &d->t, err,
						   sizeof(err))))
			fail(rc, "%s", err);
	} else {
		rc = fail(HP_INVALID_VALUE,
			  "--connect wants shm:PATH or serial:DEV, not '%s'",
			  o->connect);
	}
	if (!rc)
		rc = handshake(d);
	/* At --connect, a device that is gone or stopped is not there. */
	if (o->connect &&
	    (rc == HP_DEVICE_NOT_AVAILABLE || rc == HP_DEVICE_NOT_FOUND)) {
		char why[sizeof(last_error)];
		snprintf(why, sizeof(why), "%s", last_error);
		rc = fail(HP_DEVICE_NOT_FOUND, "no device at %s: %s",
			  o->connect, why);
	}
	if (!rc)
		rc = hp_queue_create(d, HP_QUEUE_IN_ORDER, &d->service);
	if (!rc && d->spawned && !d->detach)
		d->bell = open_bell(d->path);
	if (rc) {
		char keep[sizeof(last_error)];
		memcpy(keep, last_error, sizeof(keep));
		d->detach = false;
		hp_close(d);
		memcpy(last_error, keep, sizeof(keep));
		return rc;
	}
	*out = d;
	return 0;
}

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
	int rc = dread64(d, a + offsetof(hp_mbox_header, packets), packets);
	return rc ? rc
		  : dread64(d, a + offsetof(hp_mbox_header, bad_packets), bad);
}

int hp_stop(hp_device *d)
{
	uint32_t one = 1;
	return dwrite(d,
		      d->t->mbox_addr + offsetof(hp_mbox_header, stop_request),
		      &one, sizeof(one));
}

/* Wait up to `ms` for QEMU to end; true if it did. */
static bool wait_exit(hp_device *d, unsigned ms)
{
	uint64_t t0 = now_ns();
	for (unsigned n = 0; now_ns() - t0 < (uint64_t)ms * 1000000u;
	     backoff(&n)) {
		if (d->spawned) {
			if (waitpid(d->qemu, NULL, WNOHANG) == d->qemu)
				return true;
		} else if (kill(d->qemu, 0) != 0) {
			/* Gone, not only exiting: `down` leaves no QEMU. */
			return true;
		}
	}
	return false;
}

int hp_close(hp_device *d)
{
	if (!d)
		return 0;
	for (unsigned k = 0; k < HP_MBOX_QUEUES; k++)
		if (d->queues[k] && d->t)
			hp_queue_release(d->queues[k]);
	bool stop = d->spawned && !d->detach;
	if (stop && d->t) {
		hp_stop(d);
		if (!wait_exit(d, 10000))
			kill(d->qemu, SIGKILL), waitpid(d->qemu, NULL, 0);
	} else if (stop) {
		kill(d->qemu, SIGKILL);
		waitpid(d->qemu, NULL, 0);
	}
	if (d->t)
		d->t->ops->close(d->t);
	if (d->bell >= 0)
		close(d->bell);
	if (stop)
		remove_files(d->path);
	free(d);
	return 0;
}

int hp_down(hp_device *d)
{
	int rc = hp_stop(d);
	if (rc)
		return rc;
	if (d->qemu > 0 && !wait_exit(d, 10000)) {
		kill(d->qemu, SIGKILL);
		wait_exit(d, 2000);
	}
	if (d->path[0])
		remove_files(d->path);
	return 0;
}

/* ---- kernels ---- */

unsigned hp_kernel_count(const hp_device *d)
{
	return d->hdr.num_kernels;
}

const hp_mbox_kernel *hp_kernel_at(const hp_device *d, unsigned id)
{
	unsigned row = HP_KERNEL_ROW(id);
	return row < d->hdr.num_kernels && d->kernels[row].name[0]
		       ? &d->kernels[row]
		       : NULL;
}

/* Row `row` as a kernel id (with its object's generation). */
static uint32_t row_id(const hp_device *d, unsigned row)
{
	uint32_t f = d->kernels[row].flags;
	return HP_KERNEL_ID(row, f & HP_KFLAG_LOADED ? HP_KFLAG_GEN(f) : 0);
}

/* The row called `name` (of object `obj` if `scoped`), or -1. */
static int find_row(const hp_device *d, const char *name, bool scoped,
		    hp_object obj)
{
	for (unsigned i = 0; i < d->hdr.num_kernels; i++) {
		const hp_mbox_kernel *k = &d->kernels[i];
		if (!k->name[0] || strncmp(k->name, name, sizeof(k->name)) != 0)
			continue;
		if (!scoped || ((k->flags & HP_KFLAG_LOADED) &&
				HP_KFLAG_SLOT(k->flags) == HP_KERNEL_ROW(obj) &&
				HP_KFLAG_GEN(k->flags) == HP_KERNEL_GEN(obj)))
			return (int)i;
	}
	return -1;
}

int hp_kernel_find(hp_device *d, const char *name, uint32_t *id)
{
	int row = find_row(d, name, false, 0);
	if (row < 0 && !kernels_refresh(d))
		row = find_row(d, name, false, 0);
	if (row < 0)
		return fail(HP_INVALID_KERNEL,
			    "the device has no kernel called '%s'", name);
	*id = row_id(d, (unsigned)row);
	return 0;
}

/* The row of kernel id @p id (its object's generation checked), or NULL. */
static const hp_mbox_kernel *kernel_row(const hp_device *d, uint32_t id)
{
	const hp_mbox_kernel *k = hp_kernel_at(d, id);
	if (!k)
		return NULL;
	uint32_t gen = k->flags & HP_KFLAG_LOADED ? HP_KFLAG_GEN(k->flags) : 0;
	return gen == HP_KERNEL_GEN(id) ? k : NULL;
}

int hp_kernel_work_group_size(hp_device *d, uint32_t kernel, uint32_t *out)
{
	const hp_mbox_kernel *k = kernel_row(d, kernel);
	if (!k && !kernels_refresh(d))
		k = kernel_row(d, kernel);
	if (!k)
		return fail(HP_INVALID_KERNEL,
			    "no kernel of id %#x on the device (row %u of %u)",
			    kernel, HP_KERNEL_ROW(kernel), d->hdr.num_kernels);
	*out = k->work_group_size;
	return 0;
}

/* ---- kernel objects ---- */

static int service(hp_device *d, hp_packet *p, hp_event_info *info);

int hp_object_load(hp_device *d, const void *data, size_t size, hp_object *out,
		   uint64_t *load_addr)
{
	hp_buffer b;
	int rc = hp_buffer_alloc(d, size ? size : 1, &b);
	if (rc)
		return rc;
	rc = hp_buffer_write(d, b, 0, data, size);
	hp_event_info info;
	if (!rc) {
		hp_packet p;
		memset(&p, 0, sizeof(p));
		p.mem.header = HP_PKT_LOAD;
		p.mem.src = b;
		p.mem.size = size;
		rc = service(d, &p, &info);
	}
	/* The device copied what it needed: the staging buffer can go. */
	char msg[sizeof(last_error)];
	snprintf(msg, sizeof(msg), "%s", hp_last_error());
	int rc2 = hp_buffer_free(d, b);
	if (rc) {
		fail(rc, "%s", msg);
		return rc;
	}
	if (rc2)
		return rc2;
	*out = info.result;
	if (load_addr)
		*load_addr = info.result2;
	return kernels_refresh(d);
}

int hp_object_load_file(hp_device *d, const char *path, hp_object *out,
			uint64_t *load_addr)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return fail(HP_INVALID_VALUE, "cannot open %s: %s", path,
			    strerror(errno));
	/* Read it all (a kernel object is at most a few MiB). */
	size_t cap = 1 << 16, n = 0;
	uint8_t *buf = malloc(cap);
	for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
		n += got;
		if (n == cap) {
			if (cap >= (64u << 20))
				break;
			uint8_t *nb = realloc(buf, cap *= 2);
			if (!nb) {
				free(buf);
				buf = NULL;
			}
			buf = nb;
		}
	}
	bool err = ferror(f);
	fclose(f);
	if (!buf || err) {
		free(buf);
		return fail(HP_INVALID_VALUE, "cannot read %s", path);
	}
	int rc = hp_object_load(d, buf, n, out, load_addr);
	free(buf);
	if (rc) {
		char msg[sizeof(last_error)];
		snprintf(msg, sizeof(msg), "%s", hp_last_error());
		return fail(rc, "%s: %s", path, msg);
	}
	return 0;
}

int hp_object_unload(hp_device *d, hp_object obj)
{
	hp_packet p;
	memset(&p, 0, sizeof(p));
	p.mem.header = HP_PKT_UNLOAD;
	p.mem.dst = obj;
	hp_event_info info;
	int rc = service(d, &p, &info);
	return rc ? rc : kernels_refresh(d);
}

int hp_object_kernel(hp_device *d, hp_object obj, const char *name,
		     uint32_t *id)
{
	int row = find_row(d, name, true, obj);
	if (row < 0 && !kernels_refresh(d))
		row = find_row(d, name, true, obj);
	if (row < 0)
		return fail(HP_INVALID_KERNEL,
			    "the kernel object (handle %#llx) has no kernel "
			    "called '%s'",
			    (unsigned long long)obj, name);
	*id = row_id(d, (unsigned)row);
	return 0;
}

/* ---- queues ---- */

static bool owner_dead(uint64_t owner)
{
	pid_t pid = (pid_t)(owner >> 32);
	return pid > 0 && pid_gone(pid);
}

/* Claim queue k for us: compare-and-swap on shared memory, or (serial:
 * one host) a plain write. */
static bool claim(hp_device *d, unsigned k, uint64_t seen)
{
	uint64_t a = d->hdr.queues + k * sizeof(hp_mbox_queue) +
		     offsetof(hp_mbox_queue, owner);
	if (d->t->map) {
		uint64_t *p = (uint64_t *)(d->t->map + (a - d->t->map_base));
		return __atomic_compare_exchange_n(p, &seen, d->token, false,
						   __ATOMIC_ACQ_REL,
						   __ATOMIC_ACQUIRE);
	}
	return dwrite(d, a, &d->token, sizeof(d->token)) == 0;
}

int hp_queue_create(hp_device *d, unsigned flags, hp_queue **out)
{
	*out = NULL;
	for (int pass = 0; pass < 2; pass++)
		for (unsigned k = 0; k < HP_MBOX_QUEUES; k++) {
			hp_mbox_queue mq;
			uint64_t qa = d->hdr.queues + k * sizeof(mq);
			int rc = dread(d, qa, &mq, sizeof(mq));
			if (rc)
				return rc;
			/* Pass 0 takes free queues, pass 1 those of dead
			 * processes. */
			if (pass == 0 ? mq.owner != 0 : !owner_dead(mq.owner))
				continue;
			if (!claim(d, k, mq.owner))
				continue;
			hp_queue *q = calloc(1, sizeof(*q));
			if (!q)
				return fail(HP_OUT_OF_RESOURCES,
					    "out of host memory (%zu bytes for "
					    "a queue)",
					    sizeof(*q));
			q->d = d;
			q->id = k;
			q->flags = flags;
			q->qaddr = qa;
			q->ring = mq.ring;
			q->kernarg = mq.kernarg;
			q->comp = mq.completion;
			/* Go on from where the last owner stopped. */
			q->next = mq.write_index;
			d->queues[k] = q;
			*out = q;
			return 0;
		}
	return fail(HP_OUT_OF_RESOURCES,
		    "all %u device queues are in use by running processes",
		    HP_MBOX_QUEUES);
}

unsigned hp_queue_id(const hp_queue *q)
{
	return q->id;
}

void hp_queue_set_timeout(hp_queue *q, uint64_t timeout_us)
{
	q->timeout_us = timeout_us;
}

int hp_queue_release(hp_queue *q)
{
	hp_device *d = q->d;
	int rc = hp_queue_finish(q);
	uint64_t zero = 0;
	dwrite(d, q->qaddr + offsetof(hp_mbox_queue, owner), &zero,
	       sizeof(zero));
	d->queues[q->id] = NULL;
	if (d->service == q)
		d->service = NULL;
	free(q);
	return rc;
}

/* ---- events ---- */

static uint64_t comp_addr(hp_device *d, unsigned qn, uint64_t idx)
{
	hp_queue *q = d->queues[qn];
	uint64_t base;
	if (q) {
		base = q->comp;
	} else {
		hp_mbox_queue mq;
		if (dread(d, d->hdr.queues + qn * sizeof(mq), &mq, sizeof(mq)))
			return 0;
		base = mq.completion;
	}
	return base + (idx % RING) * sizeof(hp_completion);
}

static double ticks_us(const hp_device *d, uint64_t t)
{
	return (double)t * 1e6 / (double)d->hdr.info.timer_hz;
}

int hp_event_query(hp_device *d, hp_event ev, hp_event_info *info)
{
	unsigned qn = HP_EVENT_QUEUE(ev);
	uint64_t idx = HP_EVENT_INDEX(ev);
	if (qn >= HP_MBOX_QUEUES)
		return fail(HP_INVALID_VALUE, "event names no queue");
	uint64_t a = comp_addr(d, qn, idx), done;
	if (!a)
		return HP_INVALID_VALUE;
	int rc = dread64(d, a, &done);
	if (rc)
		return rc;
	if (done < idx + 1)
		return 1;
	if (done > idx + 1)
		return fail(HP_INVALID_EVENT_WAIT_LIST,
			    "event %u:%llu is too old: its completion record "
			    "was reused",
			    qn, (unsigned long long)idx);
	hp_completion r;
	if ((rc = dread(d, a, &r, sizeof(r))))
		return rc;
	if (r.done != idx + 1)
		return 1;
	if (info) {
		memset(info, 0, sizeof(*info));
		info->status = r.status;
		memcpy(info->detail, r.detail, sizeof(info->detail));
		info->detail[sizeof(info->detail) - 1] = 0;
		info->queued_us = ticks_us(d, r.t_queued);
		info->submit_us = ticks_us(d, r.t_submit);
		info->start_us = ticks_us(d, r.t_start);
		info->end_us = ticks_us(d, r.t_end);
		info->groups = r.groups;
		memcpy(info->local, r.local, sizeof(info->local));
		info->hart = r.hart;
		info->result = r.result;
		info->result2 = r.result2;
		info->fault_pc = r.fault_pc;
		info->fault_addr = r.fault_addr;
		info->fault_cause = r.fault_cause;
		info->fault_hart = r.fault_hart;
		memcpy(info->fault_group, r.fault_group,
		       sizeof(info->fault_group));
	}
	return 0;
}

int hp_event_wait(hp_device *d, hp_event ev, hp_event_info *info)
{
	uint64_t t0 = now_ns();
	for (unsigned n = 0;; backoff(&n)) {
		int rc = hp_event_query(d, ev, info);
		if (rc != 1)
			return rc;
		if ((n & 63) == 63 && (rc = serving(d)))
			return rc;
		if (now_ns() - t0 > (uint64_t)d->timeout_ms * 1000000u)
			return fail(HP_TIMEOUT,
				    "event %u:%llu not complete after %u ms",
				    HP_EVENT_QUEUE(ev),
				    (unsigned long long)HP_EVENT_INDEX(ev),
				    d->timeout_ms);
	}
}

int hp_queue_finish(hp_queue *q)
{
	if (q->next == 0)
		return 0;
	/* Every packet's slot is reused only after completion, so waiting
	 * for the last ring's worth is waiting for all. */
	uint64_t first = q->next > RING ? q->next - RING : 0;
	for (uint64_t i = first; i < q->next; i++) {
		int rc = hp_event_wait(q->d, HP_EVENT(q->id, i), NULL);
		if (rc && rc != HP_INVALID_EVENT_WAIT_LIST)
			return rc;
	}
	return 0;
}

/* ---- enqueueing ---- */

/* Wait until the record of packet `idx` of q says it (or a later packet of
 * its slot) is complete; with `nowait`, fail at once instead. */
static int wait_record(hp_queue *q, uint64_t idx, bool nowait)
{
	hp_device *d = q->d;
	uint64_t a = q->comp + (idx % RING) * sizeof(hp_completion);
	uint64_t t0 = now_ns();
	for (unsigned n = 0;; backoff(&n)) {
		uint64_t done;
		int rc = dread64(d, a, &done);
		if (rc)
			return rc;
		if (done >= idx + 1)
			return 0;
		if (nowait)
			return fail(HP_OUT_OF_RESOURCES,
				    "queue %u is full: %u commands in flight",
				    q->id, RING);
		if ((n & 63) == 63 && (rc = serving(d)))
			return rc;
		if (now_ns() - t0 > (uint64_t)d->timeout_ms * 1000000u)
			return fail(HP_TIMEOUT,
				    "queue %u still full after %u ms", q->id,
				    d->timeout_ms);
	}
}

/* Wait until the slot for packet q->next is free (rule 1 of mbox.h). */
static int slot_free(hp_queue *q)
{
	if (q->next < RING)
		return 0;
	uint64_t old = q->next - RING;
	bool nowait = (q->flags & HP_QUEUE_NO_WAIT) != 0;
	int rc = wait_record(q, old, true);
	if (rc == 0 || nowait)
		return rc;
	/* Full: first wait until a quarter of the ring is done, so the next
	 * packets go in as a batch the dispatcher reads in one wake-up
	 * rather than one per wake-up; then for our own slot (on an
	 * out-of-order queue the later ones may finish first). */
	if ((rc = wait_record(q, old + RING / 4 - 1, false)))
		return rc;
	return wait_record(q, old, false);
}

/* Copy the wait list, leaving out events already complete without error
 * (the device only keeps a ring's worth of events per queue). */
static int prune_wait(hp_device *d, const hp_event *wait, unsigned n,
		      uint64_t *out, unsigned *m)
{
	*m = 0;
	if (n > HP_MBOX_MAX_WAIT)
		return fail(HP_INVALID_EVENT_WAIT_LIST,
			    "at most %u events to wait for, not %u",
			    HP_MBOX_MAX_WAIT, n);
	if (n && !wait)
		return fail(HP_INVALID_EVENT_WAIT_LIST, "no wait list given");
	for (unsigned i = 0; i < n; i++) {
		hp_event_info info;
		int rc = hp_event_query(d, wait[i], &info);
		if (rc == 0 && info.status == 0)
			continue;
		out[(*m)++] = wait[i];
	}
	return 0;
}

/* Publish packet `p` (+ kernarg bytes) at q->next. */
static int submit(hp_queue *q, const hp_packet *p, const hp_kernarg *ka,
		  size_t ka_bytes, hp_event *ev)
{
	hp_device *d = q->d;
	int rc = slot_free(q);
	if (rc)
		return rc;
	unsigned s = (unsigned)(q->next % RING);
	uint16_t header = p->header;
	if (q->flags & HP_QUEUE_IN_ORDER)
		header |= HP_PKT_BARRIER;
	if (ka && ka_bytes &&
	    (rc = dwrite(d, q->kernarg + s * sizeof(hp_kernarg), ka, ka_bytes)))
		return rc;
	uint64_t pa = q->ring + s * sizeof(hp_packet);
	if ((rc = dwrite(d, pa + 2, p->bytes + 2, sizeof(*p) - 2)) ||
	    (rc = dwrite(d, pa, &header, sizeof(header))))
		return rc;
	uint64_t w = q->next + 1;
	if ((rc = dwrite(d, q->qaddr + offsetof(hp_mbox_queue, write_index), &w,
			 sizeof(w))))
		return rc;
	if (ev)
		*ev = HP_EVENT(q->id, q->next);
	q->next = w;
	/* Ring the doorbell when the dispatcher may have gone back to its
	 * slow checks (it checks every 10 us for 5 ms after a packet). The
	 * byte is line noise to the serial agent; a full socket means a
	 * byte is already waiting. */
	uint64_t t = now_ns();
	if (d->bell >= 0 && t - d->last_submit > 3000000u)
		send(d->bell, "", 1, MSG_DONTWAIT | MSG_NOSIGNAL);
	d->last_submit = t;
	return 0;
}

int hp_enqueue_raw(hp_queue *q, const hp_packet *p, const hp_kernarg *ka,
		   hp_event *ev)
{
	return submit(q, p, ka, ka ? sizeof(*ka) : 0, ev);
}

static uint16_t sat16(uint64_t v)
{
	return v > 0xffff ? 0xffff : (uint16_t)v;
}

/* A kernarg block's header (no arguments yet) with the wait list. */
static int kernarg_init(hp_queue *q, const hp_event *wait, unsigned num_wait,
			hp_kernarg *ka)
{
	memset(ka, 0, offsetof(hp_kernarg, args));
	unsigned m;
	int rc = prune_wait(q->d, wait, num_wait, ka->wait, &m);
	ka->num_wait = (uint16_t)m;
	return rc;
}

int hp_printf_read(hp_device *d, hp_buffer buf, uint32_t size, hp_printf_fn fn,
		   void *ctx, uint32_t *dropped)
{
	if (size < sizeof(hp_printf_header))
		return fail(HP_INVALID_VALUE, "printf buffer of %u bytes",
			    size);
	uint8_t *b = malloc(size);
	if (!b)
		return fail(HP_OUT_OF_RESOURCES,
			    "out of host memory (%u bytes for a copy of the "
			    "printf buffer)",
			    size);
	int rc = hp_buffer_read(d, buf, 0, b, size);
	if (rc) {
		free(b);
		return rc;
	}
	hp_printf_header h;
	memcpy(&h, b, sizeof(h));
	uint32_t space = size - (uint32_t)sizeof(h);
	if (h.size < space)
		space = h.size;
	uint32_t end = h.used < space ? h.used : space;
	/* Records as the device wrote them; the device's text is data: only
	 * lengths inside the buffer are believed. */
	for (uint32_t at = 0; at + sizeof(hp_printf_record) <= end;) {
		hp_printf_record r;
		memcpy(&r, b + sizeof(h) + at, sizeof(r));
		if (r.len < sizeof(r) || r.len % 8 || r.len > end - at ||
		    r.text_len > r.len - sizeof(r))
			break;
		fn(ctx, r.gid, (const char *)b + sizeof(h) + at + sizeof(r),
		   r.text_len);
		at += r.len;
	}
	if (dropped)
		*dropped = h.dropped;
	free(b);
	return 0;
}

int hp_enqueue_kernel(hp_queue *q, uint32_t kernel, const hp_ndrange *r,
		      const void *args, uint32_t args_size,
		      const hp_event *wait, unsigned num_wait, hp_event *ev)
{
	if (args_size > HP_MBOX_ARGS_MAX)
		return fail(HP_INVALID_KERNEL_ARGS,
			    "argument block of %u bytes (at most %u)",
			    args_size, HP_MBOX_ARGS_MAX);
	if (r->work_dim > 7)
		return fail(HP_INVALID_WORK_DIMENSION,
			    "work_dim %u is not 1, 2 or 3", r->work_dim);
	hp_kernarg ka;
	int rc = kernarg_init(q, wait, num_wait, &ka);
	if (rc)
		return rc;
	ka.args_size = args_size;
	ka.sub_group_size = sat16(r->sub_group_size);
	ka.team_size = r->team_size;
	ka.timeout_us = r->timeout_us ? r->timeout_us : q->timeout_us;
	memcpy(ka.reqd, r->reqd, sizeof(ka.reqd));
	ka.printf_buf = r->printf_size ? r->printf_buf : 0;
	ka.printf_size = r->printf_buf ? r->printf_size : 0;
	if (args_size)
		memcpy(ka.args, args, args_size);
	hp_packet p;
	memset(&p, 0, sizeof(p));
	p.dispatch.header = HP_PKT_KERNEL_DISPATCH;
	p.dispatch.setup =
		(uint16_t)(r->work_dim | (r->local_given ? HP_SETUP_LOCAL : 0) |
			   (r->uniform ? HP_SETUP_UNIFORM : 0));
	p.dispatch.kernel = kernel;
	for (unsigned k = 0; k < 3; k++) {
		p.dispatch.local[k] = sat16(r->local[k]);
		p.dispatch.global[k] = r->global[k];
		p.dispatch.offset[k] = r->offset[k];
	}
	return submit(q, &p, &ka, offsetof(hp_kernarg, args) + args_size, ev);
}

int hp_enqueue_barrier_and(hp_queue *q, const hp_event *deps, unsigned n,
			   hp_event *ev)
{
	hp_packet p;
	memset(&p, 0, sizeof(p));
	if (n > HP_MBOX_BARRIER_DEPS)
		return fail(HP_INVALID_EVENT_WAIT_LIST,
			    "a barrier-AND packet waits for at most %u events",
			    HP_MBOX_BARRIER_DEPS);
	uint64_t kept[HP_MBOX_MAX_WAIT];
	unsigned m;
	int rc = prune_wait(q->d, deps, n, kept, &m);
	if (rc)
		return rc;
	p.barrier.header = HP_PKT_BARRIER_AND;
	p.barrier.num_deps = (uint16_t)m;
	memcpy(p.barrier.deps, kept, m * sizeof(uint64_t));
	return submit(q, &p, NULL, 0, ev);
}

int hp_enqueue_marker(hp_queue *q, hp_event *ev)
{
	hp_packet p;
	memset(&p, 0, sizeof(p));
	p.header = HP_PKT_MARKER;
	return submit(q, &p, NULL, 0, ev);
}

static int mem_packet(hp_queue *q, hp_packet *p, const hp_event *wait,
		      unsigned num_wait, hp_event *ev)
{
	hp_kernarg ka;
	int rc = kernarg_init(q, wait, num_wait, &ka);
	return rc ? rc : submit(q, p, &ka, offsetof(hp_kernarg, args), ev);
}

int hp_enqueue_copy(hp_queue *q, hp_buffer dst, hp_buffer src, uint64_t size,
		    const hp_event *wait, unsigned num_wait, hp_event *ev)
{
	hp_packet p;
	memset(&p, 0, sizeof(p));
	p.mem.header = HP_PKT_COPY;
	p.mem.dst = dst;
	p.mem.src = src;
	p.mem.size = size;
	return mem_packet(q, &p, wait, num_wait, ev);
}

int hp_enqueue_fill(hp_queue *q, hp_buffer dst, uint64_t size, uint64_t pattern,
		    unsigned pattern_size, const hp_event *wait,
		    unsigned num_wait, hp_event *ev)
{
	hp_packet p;
	memset(&p, 0, sizeof(p));
	p.mem.header = HP_PKT_FILL;
	p.mem.dst = dst;
	p.mem.size = size;
	p.mem.pattern = pattern;
	p.mem.pattern_size = (uint16_t)pattern_size;
	return mem_packet(q, &p, wait, num_wait, ev);
}

/* ---- buffers ---- */

/* Run one service packet to completion; its status is the result. */
static int service(hp_device *d, hp_packet *p, hp_event_info *info)
{
	if (!d->service)
		return fail(HP_INVALID_VALUE, "device is closing");
	hp_event ev;
	int rc = p->header == HP_PKT_FREE
			 ? mem_packet(d->service, p, NULL, 0, &ev)
			 : submit(d->service, p, NULL, 0, &ev);
	if (!rc)
		rc = hp_event_wait(d, ev, info);
	if (!rc && info->status)
		rc = fail(info->status, "%s: %s", hp_error_name(info->status),
			  info->detail);
	return rc;
}

int hp_buffer_alloc(hp_device *d, uint64_t size, hp_buffer *out)
{
	hp_packet p;
	memset(&p, 0, sizeof(p));
	p.mem.header = HP_PKT_ALLOC;
	p.mem.size = size;
	hp_event_info info;
	int rc = service(d, &p, &info);
	*out = rc ? 0 : info.result;
	return rc;
}

int hp_buffer_free(hp_device *d, hp_buffer b)
{
	hp_packet p;
	memset(&p, 0, sizeof(p));
	p.mem.header = HP_PKT_FREE;
	p.mem.dst = b;
	hp_event_info info;
	return service(d, &p, &info);
}

static int buf_range(hp_device *d, hp_buffer b, uint64_t off, size_t len)
{
	uint64_t base = d->hdr.buf_base, size = d->hdr.buf_size;
	if (b < base || b - base > size || off > size - (b - base) ||
	    len > size - (b - base) - off)
		return fail(HP_INVALID_VALUE,
			    "0x%llx+%llu (%zu bytes) is outside the device's "
			    "buffer heap",
			    (unsigned long long)b, (unsigned long long)off,
			    len);
	return 0;
}

int hp_buffer_write(hp_device *d, hp_buffer b, uint64_t offset, const void *src,
		    size_t len)
{
	int rc = buf_range(d, b, offset, len);
	return rc ? rc : dwrite(d, b + offset, src, len);
}

int hp_buffer_read(hp_device *d, hp_buffer b, uint64_t offset, void *dst,
		   size_t len)
{
	int rc = buf_range(d, b, offset, len);
	return rc ? rc : dread(d, b + offset, dst, len);
}

int hp_device_query(hp_device *d, hp_device_info *out)
{
	hp_buffer b;
	int rc = hp_buffer_alloc(d, sizeof(*out), &b);
	if (rc)
		return rc;
	hp_packet p;
	memset(&p, 0, sizeof(p));
	p.mem.header = HP_PKT_INFO;
	p.mem.dst = b;
	hp_event_info info;
	rc = service(d, &p, &info);
	if (!rc)
		rc = hp_buffer_read(d, b, 0, out, sizeof(*out));
	int rc2 = hp_buffer_free(d, b);
	return rc ? rc : rc2;
}
