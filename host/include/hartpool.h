/* SPDX-License-Identifier: MIT */
/**
 * @file libhartpool: run kernels on a hartpool device from a host program.
 *
 *     hp_device *d;
 *     hp_open_options o = {.harts = 8};        // boots QEMU itself
 *     if (hp_open(&o, &d)) { puts(hp_last_error()); ... }
 *     hp_queue *q;
 *     hp_queue_create(d, HP_QUEUE_IN_ORDER, &q);
 *     hp_buffer buf;
 *     hp_buffer_alloc(d, 4096, &buf);
 *     hp_ndrange r = {.work_dim = 1, .global = {1024}};
 *     hp_event ev;
 *     hp_enqueue_kernel(q, kernel_id, &r, &args, sizeof(args), NULL, 0, &ev);
 *     hp_event_info info;
 *     hp_event_wait(d, ev, &info);             // info.status: 0 or HP_...
 *     hp_buffer_read(d, buf, 0, host, 4096);
 *     hp_close(d);
 *
 * Every function returns 0 or an HP_ error code (hartpool/error.h); the
 * calling thread's hp_last_error() then says what went wrong in a sentence.
 * A device handle and its queues are used by one thread at a time.
 */
#ifndef HARTPOOL_H
#define HARTPOOL_H

#include <hartpool/device_info.h>
#include <hartpool/error.h>
#include <hartpool/trace.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct hp_device hp_device;
typedef struct hp_queue hp_queue;
/** A command: HP_EVENT(queue, packet index). */
typedef uint64_t hp_event;
/** A device buffer: its device address (usable inside kernel arguments). */
typedef uint64_t hp_buffer;

typedef struct hp_open_options {
	/** "shm:PATH" or "serial:DEV[,baud=N][,flow=rtscts]" to connect to
	 * a running device; NULL boots one in QEMU, stopped again by
	 * hp_close(). A tty is set to raw 8N1 at N baud (115200 if not
	 * given); a socket with a baud rate is paced to it. A malformed
	 * string or a rate that is not a standard one (9600 .. 4000000) is
	 * HP_INVALID_VALUE. */
	const char *connect;
	const char *board; /**< boot: board folder (default qemu-virt) */
	unsigned harts;	   /**< boot: harts (default 8, or the board's
			      fixed count: QEMU_SMP in its board.mk) */
	/** boot: how QEMU starts the firmware: "direct" (NULL: the ELF) or
	 * "uboot" (the board's OpenSBI and U-Boot, which boots
	 * build/BOARD/sdcard.img from `make image`: docs/qemu.md). Not with
	 * connect. */
	const char *boot;
	const char
		*append; /**< boot: extra bootargs (e.g. hartpool.poll_us=50) */
	uint64_t mem_size; /**< boot: DRAM bytes (0: the board's default,
			      QEMU_MEM); a whole number of MiB within the
			      board's QEMU_MEM_MIN..QEMU_MEM_MAX (board.mk),
			      else HP_INVALID_VALUE. Not with connect. */
	/** boot: keep the device running after hp_close() (`hartpool up`). */
	bool detach;
	/** boot: exact per-hart instruction counts into this file (QEMU's
	 * counting plugin at -icount shift=10, docs/counting.md; a "%u"
	 * becomes the process's boot number 0, 1, ...); NULL: none. The
	 * CLI and the ICD take it from HP_QEMU_COUNT. */
	const char *count_file;
	/** Longest wait for any one reply or completion, ms (default 60000;
	 * the device's death is noticed sooner). */
	unsigned timeout_ms;
	/** Connect without a session (connect only): the handle reads the
	 * device's tables (hp_sessions, hp_device_usage_get, hp_info) and
	 * ends dead hosts' sessions (hp_sessions_reap), nothing else. */
	bool monitor;
	/** Connect to end the device (`hartpool down`; implies monitor): a
	 * device whose firmware has stopped while its QEMU still runs (a
	 * machine it shares with Linux: board qemu-virt-amp) opens too, so
	 * that hp_down() can end its QEMU. */
	bool ending;
	/** Device console lines (boot messages; serial links): NULL drops. */
	void (*console)(void *ctx, const char *text, size_t len);
	void *console_ctx;
} hp_open_options;

/** The calling thread's last error message. */
const char *hp_last_error(void);

/** Boot a device (o->connect NULL) or connect to a running one. A booted
 * QEMU stops when the thread that booted it ends (the kernel's
 * parent-death signal follows the thread): boot from a thread that lives
 * as long as the device. Errors of
 * a connect: HP_DEVICE_NOT_FOUND when there is no device (no such file or
 * socket, not a hartpool mailbox, the device stopped, its QEMU gone, a
 * serial link that does not answer), HP_INVALID_VALUE for a device of
 * another protocol version (both versions in hp_last_error()). A device
 * that stops or goes away while in use makes the waiting calls return
 * HP_DEVICE_NOT_AVAILABLE. */
int hp_open(const hp_open_options *o, hp_device **out);
/** Close: the handle's session ends: the device cancels its commands that
 * are not complete (HP_ABORTED; a running kernel is stopped) and gives
 * back its queues, buffers and kernel objects; hp_close returns once it
 * has. A device this handle booted (and did not detach) is stopped. */
int hp_close(hp_device *d);
/** Ask the device to finish its commands and stop, without waiting. */
int hp_stop(hp_device *d);
/** `hartpool down`: stop the device, wait for QEMU to end (killing it
 * after 10 s) and remove its files. hp_close() the handle afterwards. */
int hp_down(hp_device *d);

/** "shm:/dev/shm/hartpool-..." for another process to connect. */
const char *hp_connect_string(const hp_device *d);
/** The device description the device published at boot. */
const hp_device_info *hp_info(const hp_device *d);
/** Ask the device for its description now (an INFO packet). */
int hp_device_query(hp_device *d, hp_device_info *out);
/** Packets read and of those rejected, by the device. */
int hp_counters(hp_device *d, uint64_t *packets, uint64_t *bad);
/** Doorbell rings the device's dispatcher woke to (a device with
 * HP_DEV_HAS_DOORBELL; 0 on others). 0 or an HP_ error. */
int hp_doorbell_rings(hp_device *d, uint64_t *rings);

/** What the link to the device has carried since hp_open(). On a serial
 * link: the bytes on the wire each way (frames with their escapes, console
 * text, flow control's CREDIT frames), the request frames sent
 * (retransmissions included; CREDITs are not requests) and of those the
 * retransmissions, and the link's rate (a tty's; a socket's from
 * "serial:PATH,baud=N", which paces it; 0: unlimited). All 0 on shared
 * memory. */
typedef struct hp_link_stats {
	uint64_t bytes_sent, bytes_received;
	uint64_t requests, retransmissions;
	uint32_t baud;
} hp_link_stats;
void hp_link_stats_get(const hp_device *d, hp_link_stats *out);
/** The device's bell this handle's waits sleep on (a Linux beside the
 * firmware: "uio0", its /dev name), or NULL: its waits poll. */
const char *hp_host_bell_of(const hp_device *d);

/* ---- sessions (include/hartpool/mbox.h, "Sessions") ---- */

/** A session on the device: a host's handle and what it holds. */
typedef struct hp_session_info {
	unsigned slot;
	int state;   /**< HP_SESSION_OPEN or HP_SESSION_ENDING */
	int pid;     /**< of the owner process */
	bool serial; /**< opened over a serial link */
	bool self;   /**< this handle's */
	/** Its host waits on the device's bell (HP_DEV_HAS_HOST_BELL), and
	 * the bells the device rang for it. */
	bool host_bell;
	uint32_t bells;
	char name[32];
	uint64_t buffers, bytes; /**< buffers it holds and their bytes */
	uint64_t commands;	 /**< commands read and not complete */
	uint64_t cancelled;	 /**< commands its ending cancelled */
	uint32_t objects, kernels, queues;
	uint32_t regions; /**< address ranges its kernels may reach */
	/** Its use of what the quotas limit, by enum hp_quota_res
	 * (HP_QUOTA_HEAP: bytes, ...; the figures above, in quota order);
	 * the quotas are hp_device_usage's. */
	uint64_t quota_use[HP_QUOTAS];
} hp_session_info;

/** The sessions the device holds (every slot not free), at most @p max
 * into @p out; @p count gets how many there are. */
int hp_sessions(hp_device *d, hp_session_info *out, unsigned max,
		unsigned *count);

/** What is in use on the device, all sessions together (the device
 * publishes the figures when asked, so they are current). */
typedef struct hp_device_usage {
	uint64_t heap_size, heap_used, heap_free;
	uint64_t heap_largest; /**< largest block no session holds */
	uint32_t buffers, buffers_max;
	uint32_t objects, objects_max;
	uint32_t kernel_rows, kernel_rows_max; /**< built-in ones too */
	uint32_t code_used;		       /**< code memory of objects */
	uint64_t code_size;
	uint32_t sessions, sessions_max, sessions_ended;
	/** Per-session quotas (docs/sessions.md, "Quotas"), by enum
	 * hp_quota_res: the capacity, a session's most and its floor (a
	 * floor is quota_min, or quota_cap / (sessions + 1) when that is
	 * less). shared false: a device booted for one process, no quotas
	 * (max = cap, min = 0). */
	bool shared;
	uint64_t quota_cap[HP_QUOTAS], quota_max[HP_QUOTAS];
	uint64_t quota_min[HP_QUOTAS];
} hp_device_usage;
int hp_device_usage_get(hp_device *d, hp_device_usage *u);

/** Is the device still serving? 0, or HP_DEVICE_NOT_AVAILABLE (stopped,
 * or its QEMU gone) with what happened in hp_last_error(). */
int hp_ping(hp_device *d);

/** End the sessions of host processes that are gone (on this machine:
 * shared memory only); @p ended (may be NULL) gets how many. The device
 * then cancels their commands and gives back what they held. Every
 * handle does this when it opens and now and then while it waits. */
int hp_sessions_reap(hp_device *d, unsigned *ended);

/* ---- kernels ---- */

/** Rows of the kernel table (built-in kernels, then loaded ones; a row of
 * an unloaded object is empty: hp_kernel_at() returns NULL). */
unsigned hp_kernel_count(const hp_device *d);
/** The kernel of id (or row) @p id, or NULL. */
const hp_kernel_info *hp_kernel_at(const hp_device *d, unsigned id);
/** The id of the kernel called @p name, built-in or loaded by anyone
 * (HP_INVALID_KERNEL if none). */
int hp_kernel_find(hp_device *d, const char *name, uint32_t *id);
/** The largest work-group kernel @p kernel runs with on this device, like
 * CL_KERNEL_WORK_GROUP_SIZE: the device's limit, the kernel's declared
 * max_work_group_size / reqd_work_group_size and what its fibers' stacks
 * and local memory allow, all counted (hp_kernel_info.work_group_size). A
 * local size with more work-items fails with HP_INVALID_WORK_GROUP_SIZE;
 * with no local size given the device chooses one within it. 0: the
 * kernel cannot run on this device at all. HP_INVALID_KERNEL for an id of
 * no kernel (or of an unloaded object). */
int hp_kernel_work_group_size(hp_device *d, uint32_t kernel, uint32_t *out);

/* ---- kernel objects (`hartpool build`, docs/kernel-objects.md) ---- */

/** A loaded kernel object. */
typedef uint64_t hp_object;

/** Upload the kernel object of @p size bytes at @p data (a .hpk file) and
 * load it: the device checks it (HP_INVALID_BINARY and why otherwise),
 * relocates it and adds its kernels. @p load_addr (may be NULL) gets its
 * address on the device (for gdb's add-symbol-file). */
int hp_object_load(hp_device *d, const void *data, size_t size, hp_object *out,
		   uint64_t *load_addr);
/** hp_object_load() of the file at @p path. */
int hp_object_load_file(hp_device *d, const char *path, hp_object *out,
			uint64_t *load_addr);
/** Unload: its kernels can no longer be launched (commands already
 * enqueued still run); HP_INVALID_PROGRAM if it is not loaded. */
int hp_object_unload(hp_device *d, hp_object obj);
/** The id of kernel @p name of object @p obj. */
int hp_object_kernel(hp_device *d, hp_object obj, const char *name,
		     uint32_t *id);

/* ---- queues ---- */

#define HP_QUEUE_IN_ORDER 1u
/** Enqueue fails with HP_OUT_OF_RESOURCES when the ring is full, instead
 * of waiting for a slot. */
#define HP_QUEUE_NO_WAIT 2u

/** Claim a free device queue (one left by a dead process counts as free). */
int hp_queue_create(hp_device *d, unsigned flags, hp_queue **out);
/** Time limit for every kernel enqueued on @p q from now on whose
 * hp_ndrange.timeout_us is 0 (0: none, the default). A kernel still
 * running past it is stopped on the device and ends with HP_TIMEOUT. */
void hp_queue_set_timeout(hp_queue *q, uint64_t timeout_us);
/** Wait for the queue's commands, then give it back. */
int hp_queue_release(hp_queue *q);
unsigned hp_queue_id(const hp_queue *q);

typedef struct hp_ndrange {
	unsigned work_dim;
	uint64_t global[3];
	uint64_t offset[3];
	uint64_t local[3];
	bool local_given; /**< else the device chooses */
	bool uniform;	  /**< -cl-uniform-work-group-size */
	uint32_t reqd[3]; /**< as if reqd_work_group_size(); 0 = no */
	uint32_t sub_group_size;
	uint32_t team_size;
	/** Time limit in microseconds from the start of the kernel's first
	 * work-group (HP_TIMEOUT past it); 0: the queue's default. */
	uint64_t timeout_us;
	/** hp_printf() output of the kernel: printf_size bytes (at least
	 * 64, a multiple of 8) at the start of printf_buf; read it with
	 * hp_printf_read() after completion. 0: hp_printf() prints nothing. */
	hp_buffer printf_buf;
	uint32_t printf_size;
	/** Dynamic local memory (OpenCL __local kernel arguments): bytes
	 * each work-group gets after the kernel's own local memory; the two
	 * together at most hp_device_info.local_mem_size, else the command
	 * fails with HP_OUT_OF_RESOURCES. */
	uint32_t local_mem_bytes;
} hp_ndrange;

/** Launch @p kernel over @p r with the argument block @p args. The event
 * is returned even for a command the device will reject: its status says
 * why. */
int hp_enqueue_kernel(hp_queue *q, uint32_t kernel, const hp_ndrange *r,
		      const void *args, uint32_t args_size,
		      const hp_event *wait, unsigned num_wait, hp_event *ev);
/** One line of hp_printf() output: the work-item's global id and its text
 * (@p n bytes, not NUL-terminated, usually ending in a newline). */
typedef void (*hp_printf_fn)(void *ctx, const uint64_t gid[3], const char *text,
			     size_t n);
/** Read the printf buffer of a completed kernel (hp_ndrange.printf_buf,
 * printf_size) and call @p fn for every record in the order the device
 * wrote them; @p dropped (may be NULL) gets the number of hp_printf()
 * calls that did not fit. */
int hp_printf_read(hp_device *d, hp_buffer buf, uint32_t size, hp_printf_fn fn,
		   void *ctx, uint32_t *dropped);

/** Most dependencies of one hp_enqueue_barrier_and(). */
#define HP_BARRIER_DEPS_MAX 7u
/** Complete when @p deps (at most HP_BARRIER_DEPS_MAX) are. */
int hp_enqueue_barrier_and(hp_queue *q, const hp_event *deps, unsigned n,
			   hp_event *ev);
/** Complete when every earlier command of @p q is. */
int hp_enqueue_marker(hp_queue *q, hp_event *ev);
int hp_enqueue_copy(hp_queue *q, hp_buffer dst, hp_buffer src, uint64_t size,
		    const hp_event *wait, unsigned num_wait, hp_event *ev);
int hp_enqueue_fill(hp_queue *q, hp_buffer dst, uint64_t size, uint64_t pattern,
		    unsigned pattern_size, const hp_event *wait,
		    unsigned num_wait, hp_event *ev);

typedef struct hp_event_info {
	int status; /**< 0 or the HP_ error of the command */
	char detail[112];
	double queued_us, submit_us, start_us, end_us; /**< device time */
	uint64_t groups;
	uint32_t local[3];
	uint32_t hart;
	uint64_t result;
	uint64_t result2; /**< LOAD: the object's load address */
	/** HP_KERNEL_FAULT / HP_TIMEOUT: where the device stopped the kernel
	 * (the first fault). */
	uint64_t fault_pc, fault_addr;
	uint32_t fault_cause; /**< mcause; bit 31: an interrupt (timer) */
	uint32_t fault_hart;
	uint32_t fault_group[3];
} hp_event_info;

/** 0 with @p info filled if @p ev is complete, 1 if it is not yet, or an
 * HP_ error (e.g. the event is too old: its record was reused). */
int hp_event_query(hp_device *d, hp_event ev, hp_event_info *info);
/** Wait for @p ev; 0 with @p info (may be NULL) filled, or an error of the
 * waiting itself (device gone, timeout). The command's own status is
 * info->status. */
int hp_event_wait(hp_device *d, hp_event ev, hp_event_info *info);
/** Wait for every command enqueued on @p q so far. */
int hp_queue_finish(hp_queue *q);

/* ---- buffers ---- */

int hp_buffer_alloc(hp_device *d, uint64_t size, hp_buffer *out);
/** A buffer at exactly device address @p addr (HP_MBOX_BUFFER_ALIGN-aligned):
 * the same range on every device of a set. HP_OUT_OF_RESOURCES with the
 * reason when the range is not free for this session. */
int hp_buffer_alloc_at(hp_device *d, uint64_t addr, uint64_t size,
		       hp_buffer *out);
int hp_buffer_free(hp_device *d, hp_buffer b);
/** Buffer @p b (one of this handle's) as a pointer of this process, when
 * the transport maps device memory at the device's own addresses (shm and
 * devmem, when that range of the host's address space was free: then the
 * pointer is the number @p b, and host and device atomics on it meet);
 * else NULL (reach it with hp_buffer_read and hp_buffer_write). */
void *hp_buffer_host_ptr(hp_device *d, hp_buffer b);
/** Are this handle's device addresses pointers of this process
 * (hp_buffer_host_ptr)? */
bool hp_device_shares_addresses(hp_device *d);
int hp_buffer_write(hp_device *d, hp_buffer b, uint64_t offset, const void *src,
		    size_t len);
int hp_buffer_read(hp_device *d, hp_buffer b, uint64_t offset, void *dst,
		   size_t len);

/* ---- timelines (docs/trace.md) ---- */

/** Start tracing on the device: every hart records its chunks of
 * work-groups, team-barrier waits, sleeps and wake-ups, the dispatcher its
 * packets, into a device buffer of @p records_per_hart records per hart
 * (0: 4096; at most 64 MiB in all). A full hart drops its further records
 * and counts them. One trace per device at a time: a later start (from any
 * host) ends the earlier one. HP_OUT_OF_RESOURCES if the buffer does not
 * fit on the device. */
int hp_trace_start(hp_device *d, uint32_t records_per_hart);
/** Stop tracing and write what was recorded to @p path (NULL: nothing is
 * written; hp_trace_stats in hartpool/trace.h) as a Chrome / Perfetto trace
 * (Trace Event Format JSON): one track per hart, one per queue, device times
 * placed on the host's CLOCK_MONOTONIC in µs. @p stats may be NULL. Also ends a
 * trace that another host's start has ended (its records are still written). */
int hp_trace_stop(hp_device *d, const char *path, hp_trace_stats *stats);

#endif
