/* SPDX-License-Identifier: MIT */
/**
 * @file The mailbox protocol between host and device (docs/mailbox.md): one
 * header for the firmware and the host tools. docs/mailbox.md explains it
 * with pictures; this file is the contract.
 *
 * Memory. The device shares part of its memory with the host: the mailbox
 * (this header's structures) and the buffer heap. The host reaches it
 * through a transport (QEMU's guest-RAM file mapped with mmap, or read and
 * write requests over a serial link); all addresses in the protocol are
 * device addresses (uint64_t, whatever the device's XLEN). Multi-byte
 * values are little-endian (RISC-V and x86-64 both are).
 *
 * Finding it. Under QEMU the mailbox header sits at file offset
 * HP_MBOX_QEMU_OFFSET of the RAM file; over a serial link the HELLO reply
 * gives its address. The firmware fills the header at boot and stores
 * `magic` last (release); a host checks magic and version before anything
 * else and refuses a mismatch.
 *
 * Queues. HP_MBOX_QUEUES queues, each a ring of `ring_size` 64-byte packets
 * with one producer (a host) and one consumer (the firmware's dispatcher).
 * Indices are monotonic 64-bit packet counts; packet i lives in slot
 * i % ring_size of the ring, of the kernarg array and of the completion
 * array. Ownership, per slot:
 *   1. The host may write slot s for packet i only once the completion
 *      record of slot s says packet i - ring_size is complete (or
 *      i < ring_size). So a full ring never overwrites anything: the host
 *      waits, or reports HP_OUT_OF_RESOURCES ("queue full").
 *   2. The host writes the packet body and the slot's kernarg block, then
 *      the packet header (release: type != HP_PKT_INVALID makes the packet
 *      valid), then `write_index` = i + 1 (release). That store is the
 *      doorbell: the dispatcher polls write indices every `poll_us` µs at
 *      most while it sleeps, and a UART byte wakes it at once.
 *   3. The dispatcher reads the packet (acquire on the header), copies what
 *      it needs, sets the header back to HP_PKT_INVALID and advances
 *      `read_index`. From then on the firmware never reads the slot's
 *      packet or kernarg block again: a host that rewrites them changes
 *      nothing.
 *   4. When the command ends, the firmware writes the slot's completion
 *      record and stores `done` = i + 1 last (release). The record belongs
 *      to the host from then until it writes packet i + ring_size.
 *
 * Events. An event names a packet: HP_EVENT(queue, index). A dependency
 * may name any packet of any queue that the host has submitted (index <
 * that queue's write_index) and whose slot has not been reused yet; others
 * are HP_INVALID_EVENT_WAIT_LIST. A host drops dependencies it already saw
 * complete successfully. Name only packets submitted before the naming
 * one: one submitted later (possible with raw packets) may make the
 * dispatcher read its queue ahead, and a packet there that waits for a
 * later packet of the naming packet's queue then fails as a "circular
 * dependency between queues", however valid by itself.
 *
 * Order. Commands of a queue start as soon as their dependencies allow
 * (out of order). The header's HP_PKT_BARRIER bit makes a packet wait for
 * every earlier packet of its queue, and every later packet of the queue
 * wait for it (clEnqueueBarrierWithWaitList); an in-order queue is a
 * queue whose every packet has the bit. A command whose dependency failed
 * ends with HP_ABORTED; the barrier bit only orders (no failure passes
 * through it, so one fault does not poison a long-lived queue).
 *
 * Bad packets. Every field is validated before it touches any state. A
 * malformed packet completes with an HP_ error and a one-line detail; the
 * queue and the firmware keep serving.
 *
 * Sessions. Everything a host creates on the device belongs to its
 * session (hp_mbox_session): the queues it claims (their `owner` is the
 * session's token), the buffers allocated and the kernel objects loaded
 * through them, the commands read from them. A packet acts only on its own
 * session's things: buffers (arguments, copies, printf and INFO buffers,
 * object files), kernels of objects it loaded, events of its own queues;
 * a kernel reaches only its session's buffers (a stray access faults:
 * HP_KERNEL_FAULT). Opening: the host claims a free session slot by
 * compare-and-swap of `owner` from 0 to its token (pid << 32 | a nonce;
 * over serial the agent checks the token the HELLO gave), fills the other
 * host words, and waits for the device to answer `state` =
 * HP_SESSION_OPEN with `dev_owner` = its token; then it claims queues with
 * the same token. Ending: `end_request` = 1, by the owner (closing) or by
 * any host that found the owner process dead; or, over serial, a HELLO with
 * another token ends the sessions of the link's previous host. The device
 * then stops reading the session's queues, cancels its pending commands
 * and stops its running kernels (HP_ABORTED: "its session ended"), and once
 * none is left frees its buffers, unloads its objects, gives its queues
 * back (owner 0, every slot complete) and the slot itself (state FREE,
 * owner 0). Quotas: on a shared device each session takes at most
 * quota_max of each enum hp_quota_res and a take must leave the floors
 * of the others and of one newcomer free (hp_mbox_header.quota_*;
 * docs/sessions.md, "Quotas"); over it, ALLOC and LOAD complete with
 * HP_OUT_OF_RESOURCES, a queue's packets too, and packets over the
 * commands-in-flight quota wait to be read.
 */
#ifndef HARTPOOL_MBOX_H
#define HARTPOOL_MBOX_H

#include <hartpool/device_info.h>
#include <stdint.h>

#define HP_MBOX_MAGIC 0x4c4f4f5054524148ull /* "HARTPOOL" */
/** Incremented on every incompatible change of this file. */
#define HP_MBOX_VERSION 8u

/** Queues per device, packets per queue (a power of two). */
#define HP_MBOX_QUEUES 16u
#define HP_MBOX_RING_SIZE 256u
/** Dependencies of a dispatch/copy/fill packet (in its kernarg block). */
#define HP_MBOX_MAX_WAIT 8u
/** Dependencies a barrier-AND packet carries. */
#define HP_MBOX_BARRIER_DEPS 7u
/** Bytes of kernel arguments a launch carries. OpenCL's
 * CL_DEVICE_MAX_PARAMETER_SIZE is HP_MBOX_PARAMETER_SIZE (the FULL_PROFILE
 * minimum): arguments that add up to it, pointers counted at the device's
 * address width, fit with room to spare for what the block adds (every
 * pointer an 8-byte word, on rv32 too; a struct's alignment). */
#define HP_MBOX_ARGS_MAX 1536u
#define HP_MBOX_PARAMETER_SIZE 1024u
/** Kernels the device table lists at most (built-in and loaded). */
#define HP_MBOX_KERNELS_MAX 512u
/** Kernel objects loaded at once (HP_PKT_LOAD), all sessions. */
#define HP_MBOX_OBJECTS_MAX 64u
/** Buffers the device heap holds at most, all sessions. */
#define HP_MBOX_BUFFERS_MAX 65536u
/** Host sessions open at once (hp_mbox_session; every session holds at
 * least one queue, so no more than queues). */
#define HP_MBOX_SESSIONS HP_MBOX_QUEUES
/** Buffer alignment (and the granule of the heap). */
#define HP_MBOX_BUFFER_ALIGN 128u
/** Longest time limit a dispatch may ask for (hp_kernarg.timeout_us): one
 * hour. */
#define HP_MBOX_TIMEOUT_MAX_US 3600000000ull

/** QEMU transport: file offset of the mailbox header in the RAM file. */
#define HP_MBOX_QEMU_OFFSET 0x10000000ull

/** An event: packet @p index of queue @p q. */
#define HP_EVENT(q, index) ((uint64_t)(q) << 56 | (uint64_t)(index))
#define HP_EVENT_QUEUE(e) ((unsigned)((e) >> 56))
#define HP_EVENT_INDEX(e) ((e)&0x00ffffffffffffffull)

/* ---- packets (64 bytes) ---- */

enum hp_packet_type {
	HP_PKT_INVALID = 0,	    /**< slot empty (not yet written) */
	HP_PKT_KERNEL_DISPATCH = 1, /**< run a kernel over an NDRange */
	HP_PKT_BARRIER_AND = 2,	    /**< complete when all deps are complete */
	HP_PKT_MARKER = 3,	    /**< complete when the earlier ones are */
	HP_PKT_COPY = 4,	    /**< copy device memory */
	HP_PKT_FILL = 5,	    /**< fill device memory with a pattern */
	HP_PKT_INFO = 6,	    /**< write hp_device_info to a buffer */
	HP_PKT_ALLOC = 7,   /**< allocate a buffer (address in result) */
	HP_PKT_FREE = 8,    /**< free a buffer */
	HP_PKT_LOAD = 9,    /**< load a kernel object (hartpool/object.h) */
	HP_PKT_UNLOAD = 10, /**< unload a kernel object */
	HP_PKT_TYPES
};

/* header: bits 0-7 type, bit 8 barrier, other bits 0 (else invalid). */
#define HP_PKT_TYPE(h) ((unsigned)(h)&0xffu)
#define HP_PKT_BARRIER 0x100u
#define HP_PKT_RESERVED 0xfe00u /**< header bits that must be 0 */

/* dispatch setup: bits 0-2 work_dim, bit 3 local size given, bit 4
 * uniform work-groups (-cl-uniform-work-group-size), others 0. */
#define HP_SETUP_DIM(s) ((unsigned)(s)&7u)
#define HP_SETUP_LOCAL 0x08u
#define HP_SETUP_UNIFORM 0x10u
#define HP_SETUP_RESERVED 0xffe0u /**< setup bits that must be 0 */

typedef struct hp_packet_dispatch {
	uint16_t header;
	uint16_t setup;
	/** Work-group size; values saturate at 65535 (the device limits are
	 * far below, so the device reports the same error). */
	uint16_t local[3];
	uint16_t reserved;
	uint32_t kernel;    /**< index in the device's kernel table */
	uint64_t global[3]; /**< grid size in work-items */
	uint64_t offset[3]; /**< global offset */
} hp_packet_dispatch;

typedef struct hp_packet_barrier {
	uint16_t header;
	uint16_t num_deps; /**< <= HP_MBOX_BARRIER_DEPS */
	uint32_t reserved;
	uint64_t deps[HP_MBOX_BARRIER_DEPS]; /**< events */
} hp_packet_barrier;

/** COPY: size bytes from src to dst. FILL: size bytes at dst with the
 * low pattern_size (1, 2, 4 or 8) bytes of pattern repeated. Both ranges
 * lie in allocated buffers; dependencies come from the kernarg block. */
typedef struct hp_packet_mem {
	uint16_t header;
	uint16_t pattern_size;
	uint32_t reserved;
	uint64_t dst;
	uint64_t src;
	uint64_t size;
	uint64_t pattern;
	uint64_t reserved2[3];
} hp_packet_mem;

/** COPY and FILL run the library's `copy` and `fill` kernels: one
 * work-item per HP_MEM_CHUNK bytes (the last piece may be shorter). A
 * multiple of every pattern size. */
#define HP_MEM_CHUNK 4096u

/** INFO: write sizeof(hp_device_info) bytes to dst (a buffer, aligned to
 * HP_INFO_ALIGN). ALLOC:
 * size bytes (result in the completion record); at exactly dst when dst
 * is not 0 (HP_MBOX_BUFFER_ALIGN-aligned, free, in no other session's
 * memory: else HP_OUT_OF_RESOURCES with the reason). FREE: the buffer at dst,
 * once the packet's dependencies are complete.
 * LOAD: the kernel object file of `size` bytes at `src` (inside one
 * allocated buffer, read only while the packet is read: the host may free
 * it once the packet completes). The object is checked, placed in the
 * device's code memory, relocated and its kernels added to the kernel
 * table; result = the object's handle, result2 = its load address (for
 * debuggers). UNLOAD: the object whose handle is `dst`: its kernels leave
 * the table at once (later dispatches of them fail with
 * HP_INVALID_KERNEL); its memory is reused once commands already accepted
 * for them are complete. Neither has dependencies. */
typedef hp_packet_mem hp_packet_info;

/** INFO's dst alignment: hp_device_info has 64-bit fields. */
#define HP_INFO_ALIGN 8u

typedef union hp_packet {
	uint16_t header;
	hp_packet_dispatch dispatch;
	hp_packet_barrier barrier;
	hp_packet_mem mem;
	uint8_t bytes[64];
} hp_packet;

/** What a dispatch (or copy/fill/free) packet carries beyond 64 bytes: the
 * slot's kernarg block, written by the host before the packet header. */
typedef struct hp_kernarg {
	uint32_t args_size;	 /**< bytes of args used */
	uint16_t num_wait;	 /**< entries of wait[] used */
	uint16_t sub_group_size; /**< 0: the kernel's or the board's */
	uint32_t reqd[3];	 /**< as if reqd_work_group_size; 0: no */
	uint32_t team_size;	 /**< harts sharing a work-group (0, 1) */
	/** Time limit from the start of the kernel's first work-group; 0:
	 * none; at most HP_MBOX_TIMEOUT_MAX_US. Past it the harts running
	 * the kernel are interrupted and the command completes with
	 * HP_TIMEOUT. */
	uint64_t timeout_us;
	uint64_t wait[HP_MBOX_MAX_WAIT]; /**< events to wait for */
	/** hp_printf() output: a buffer of printf_size bytes (an
	 * hp_printf_header and records, below) inside one allocated buffer;
	 * 0: hp_printf() prints nothing. The device resets the header when
	 * it accepts the packet. */
	uint64_t printf_buf;
	uint32_t printf_size;
	/** Dynamic local memory: bytes each work-group gets after the
	 * kernel's own (OpenCL __local arguments); 0: none. */
	uint32_t local_mem_bytes;
	uint8_t reserved[16];
	uint8_t args[HP_MBOX_ARGS_MAX];
} hp_kernarg;

/* ---- hp_printf() buffers ---- */

/** Start of a printf buffer. Records follow, each 8-byte aligned; a record
 * with len 0 (or the end of the space) ends them. */
typedef struct hp_printf_header {
	uint32_t used;	  /**< bytes claimed (may pass size once full) */
	uint32_t dropped; /**< hp_printf() calls that did not fit */
	uint32_t size;	  /**< bytes of record space after the header */
	uint32_t reserved;
} hp_printf_header;

typedef struct hp_printf_record {
	uint32_t len;	   /**< the whole record, a multiple of 8 */
	uint32_t text_len; /**< bytes of text after the record header */
	uint64_t gid[3];   /**< global id of the work-item that printed */
} hp_printf_record;

/** Longest text of one hp_printf() call (longer text is cut). */
#define HP_PRINTF_MAX 256u
/** Smallest printf buffer the device accepts. */
#define HP_PRINTF_MIN_SIZE 64u
/** Alignment of a printf buffer's address and size (and of its records). */
#define HP_PRINTF_ALIGN 8u

/* ---- completion records (256 bytes) ---- */

typedef struct hp_completion {
	/** packet index + 1 once complete; stored last, with release. */
	uint64_t done;
	int32_t status;	   /**< 0 or an HP_ error (hartpool/error.h) */
	uint32_t hart;	   /**< hart that completed it */
	uint64_t t_queued; /**< device ticks (info.timer_hz): read */
	uint64_t t_submit; /**< dependencies met */
	uint64_t t_start;  /**< first work-group could start */
	uint64_t t_end;	   /**< complete */
	uint64_t result;   /**< ALLOC: the buffer's address */
	uint64_t groups;   /**< work-groups of the launch */
	uint32_t local[3]; /**< the work-group size used */
	uint32_t reserved;
	char detail[112]; /**< what was wrong, NUL-terminated, or "" */
	/* HP_KERNEL_FAULT and HP_TIMEOUT: where the kernel was stopped (the
	 * first fault of the command; the other harts' work is cancelled). */
	uint64_t fault_pc;    /**< address of the faulting instruction */
	uint64_t fault_addr;  /**< mtval: the bad address, or 0 */
	uint32_t fault_cause; /**< mcause (HP_FAULT_INTERRUPT: an interrupt) */
	uint32_t fault_hart;  /**< hart index it happened on */
	uint32_t fault_group[3]; /**< work-group id */
	uint32_t fault_reserved;
	uint64_t result2; /**< LOAD: the object's load address */
	uint8_t reserved2[16];
} hp_completion;

/** hp_completion.fault_cause: the cause is an interrupt (mcause's top bit,
 * moved to bit 31 on any XLEN). */
#define HP_FAULT_INTERRUPT 0x80000000u

/* ---- device description (hartpool/device_info.h) ---- */

/** A row of the kernel table, as the mailbox carries it. */
typedef hp_kernel_info hp_mbox_kernel;

/* A dispatch packet's `kernel`: the row of the kernel table in bits 0-15;
 * for a loaded kernel its object's generation in bits 16-31 (0 for
 * built-in kernels), so a row reused by a later object is never run by
 * mistake. An object handle (LOAD's result, UNLOAD's dst): slot in bits
 * 0-15, generation in 16-31. */
#define HP_KERNEL_ID(row, gen) ((uint32_t)(row) | (uint32_t)(gen) << 16)
#define HP_KERNEL_ROW(id) ((id)&0xffffu)
#define HP_KERNEL_GEN(id) ((id) >> 16)
#define HP_OBJECT_HANDLE(slot, gen) HP_KERNEL_ID(slot, gen)
#define HP_OBJECT_SLOT(handle) HP_KERNEL_ROW(handle)
#define HP_OBJECT_GEN(handle) HP_KERNEL_GEN(handle)

/* ---- queues and the header ---- */

typedef struct hp_mbox_queue {
	/* Host-owned. */
	uint64_t write_index; /**< packets submitted; release */
	/** The token of the session using it; 0 = free. Claimed by
	 * compare-and-swap from 0; the device resets it to 0 when the
	 * session ends. */
	uint64_t owner;
	uint64_t host_reserved[6];
	/* Device-owned. */
	uint64_t read_index; /**< packets read by the dispatcher */
	uint64_t ring;	     /**< hp_packet[ring_size] */
	uint64_t kernarg;    /**< hp_kernarg[ring_size] */
	uint64_t completion; /**< hp_completion[ring_size] */
	uint64_t dev_reserved[4];
} hp_mbox_queue;

/** hp_mbox_session.state (device-owned). */
enum hp_session_state {
	HP_SESSION_FREE = 0,   /**< claimable (owner 0) */
	HP_SESSION_OPEN = 1,   /**< serving its owner */
	HP_SESSION_ENDING = 2, /**< cancelling and reclaiming */
};

/** hp_mbox_session.host_flags: opened over a serial link (a HELLO with
 * another token ends it; no host can check its process). */
#define HP_SESSION_SERIAL 1u
/** hp_mbox_session.host_flags: ring the host's bell (HP_DEV_HAS_HOST_BELL)
 * after each completion record of the session's commands is written. */
#define HP_SESSION_BELL 2u

/** A host's session (HP_MBOX_SESSIONS of them; mbox.h's "Sessions"). */
typedef struct hp_mbox_session {
	/* Host-owned. */
	uint64_t owner;	      /**< 0: free; else the owner's token (CAS) */
	uint64_t host_start;  /**< the owner process's start time (Linux:
				 /proc/PID/stat's starttime), 0: unknown;
				 with the pid in the token, a host tells a
				 dead owner from a reused pid */
	uint32_t end_request; /**< 1: end the session */
	uint32_t host_flags;  /**< HP_SESSION_* */
	char name[32];	      /**< the host program (hartpool info) */
	uint64_t host_os;     /**< the owner's operating system instance (a hash
				 of Linux's boot_id), 0: unknown; only a host of
				 the same one judges the pid (a Linux beside the
				 firmware and the machine QEMU runs on both
				 reach the device) */
	uint64_t host_reserved;
	/* Device-owned. */
	uint32_t state;	    /**< enum hp_session_state */
	uint32_t opens;	    /**< sessions this slot has served */
	uint64_t dev_owner; /**< the token the device serves (OPEN, ENDING) */
	uint64_t buffers;   /**< buffers it holds */
	uint64_t bytes;	    /**< their bytes */
	uint64_t commands;  /**< commands read and not complete */
	uint32_t objects;   /**< kernel objects it has loaded */
	uint32_t kernels;   /**< table rows of those */
	uint32_t queues;    /**< queues bound to it */
	uint32_t regions;   /**< address ranges its kernels may reach */
	uint64_t cancelled; /**< commands ended by its ending */
	uint32_t bells;	    /**< host bells rung for it (HP_SESSION_BELL) */
	uint32_t bell_reserved;
	uint64_t dev_reserved[2];
} hp_mbox_session;

enum hp_device_state {
	HP_DEV_BOOTING = 0,
	HP_DEV_READY = 1,
	HP_DEV_STOPPED = 2,
};

typedef struct hp_mbox_header {
	/* Device-owned. */
	uint64_t magic; /**< HP_MBOX_MAGIC, stored last at boot */
	uint32_t version;
	uint32_t state;	    /**< enum hp_device_state */
	uint64_t boot_id;   /**< differs between boots */
	uint64_t heartbeat; /**< device ticks at the dispatcher's last poll */
	uint64_t dram_base; /**< device address of DRAM (QEMU file offset 0) */
	uint64_t queues;    /**< hp_mbox_queue[num_queues] */
	uint64_t kernels;   /**< hp_mbox_kernel[num_kernels] */
	uint64_t buf_base;  /**< the buffer heap */
	uint64_t buf_size;
	uint32_t num_queues;
	uint32_t ring_size;
	uint32_t num_kernels; /**< rows up to the last used one; a free row
				 has name[0] == 0 (an unloaded object's) */
	uint32_t poll_us;     /**< longest doorbell latency while asleep */
	uint64_t packets;     /**< packets read, all queues */
	uint64_t bad_packets; /**< of those, rejected as malformed */
	uint64_t rings;	      /**< doorbell interrupts the dispatcher took */
	/* Tracing (hartpool/trace.h, docs/trace.md): the trace_gen the
	 * device applied last, and how (0 or an HP_ error). */
	uint32_t trace_ack;
	int32_t trace_status;
	uint64_t sessions; /**< hp_mbox_session[num_sessions] */
	uint32_t num_sessions;
	uint32_t sessions_ended; /**< sessions ended and reclaimed */
	/* What is in use (hartpool info), all sessions: */
	uint64_t heap_used;    /**< bytes in buffers */
	uint64_t heap_free;    /**< bytes in no buffer */
	uint64_t heap_largest; /**< the largest free block */
	uint32_t heap_buffers; /**< buffers allocated */
	uint32_t objects;      /**< kernel objects loaded */
	uint32_t kernel_rows;  /**< kernel table rows used (built-in too) */
	uint32_t code_used;    /**< bytes of code memory objects take */
	uint32_t usage_ack;    /**< the usage_request the figures answer */
	uint64_t code_size;    /**< bytes of code memory */
	hp_device_info info;
	/* Host-owned. */
	uint32_t stop_request; /**< 1: finish and end the run */
	/* Tracing: trace_buf (0: off), trace_size and trace_owner, then a
	 * new trace_gen (release) asks the device to apply them; it answers
	 * in trace_ack and trace_status. The buffer lies in one buffer of the
	 * session whose token trace_owner is; the trace ends with that
	 * session. */
	uint32_t trace_gen;
	uint64_t trace_buf;
	uint64_t trace_size;
	uint64_t trace_owner;
	/* A new usage_request asks the device to publish its use figures
	 * (heap_*, objects, kernel_rows, code_used, the sessions' counters)
	 * now; it answers with usage_ack = usage_request. */
	uint32_t usage_request;
	uint32_t host_reserved[7];
	/* Device-owned, set at boot: per-session quotas (docs/sessions.md,
	 * "Quotas"). A session's use is in its hp_mbox_session (bytes,
	 * buffers, objects, kernels, queues, commands). A private device
	 * (shared 0) has max = cap, min = 0. A session's floor is min, or
	 * cap / (open sessions + 1) when that is less. */
	uint32_t shared; /**< 1: hosts share the device (quotas apply) */
	uint32_t quota_reserved;
	uint64_t quota_cap[HP_QUOTAS]; /**< units on the device */
	uint64_t quota_max[HP_QUOTAS]; /**< a session's most */
	uint64_t quota_min[HP_QUOTAS]; /**< a session's guaranteed floor */
} hp_mbox_header;

#ifdef __cplusplus
#define HP_MBOX_ASSERT_ static_assert
#else
#define HP_MBOX_ASSERT_ _Static_assert
#endif
HP_MBOX_ASSERT_(sizeof(hp_packet) == 64, "packets are 64 bytes");
HP_MBOX_ASSERT_(sizeof(hp_packet_dispatch) == 64, "dispatch packet size");
HP_MBOX_ASSERT_(sizeof(hp_packet_barrier) == 64, "barrier packet size");
HP_MBOX_ASSERT_(sizeof(hp_packet_mem) == 64, "memory packet size");
HP_MBOX_ASSERT_(sizeof(hp_completion) == 256, "completion record size");
HP_MBOX_ASSERT_(sizeof(hp_kernarg) == 1664, "kernarg block size");
HP_MBOX_ASSERT_(sizeof(hp_mbox_queue) == 128, "queue size");
HP_MBOX_ASSERT_(sizeof(hp_mbox_session) == 160, "session size");
HP_MBOX_ASSERT_(sizeof(hp_mbox_kernel) == 64, "kernel row size");
HP_MBOX_ASSERT_(sizeof(hp_mbox_header) <= 4096, "the header's page");
HP_MBOX_ASSERT_(__builtin_offsetof(hp_mbox_header, quota_cap) % 8 == 0,
		"quota words are 64-bit");
HP_MBOX_ASSERT_(__builtin_offsetof(hp_mbox_header, trace_buf) % 8 == 0,
		"trace_buf is a 64-bit word");
#undef HP_MBOX_ASSERT_

#endif
