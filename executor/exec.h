/* SPDX-License-Identifier: MIT */
/**
 * @file The executor's firmware-internal API: the device description, NDRange
 * validation, commands with wait lists and queues, and the work-pool that
 * every hart pulls work-groups from. The mailbox (host interface) and the
 * on-target tests sit on top of this.
 *
 * Life of a command: exec_enqueue() validates it (errors come back at once
 * and also complete the command) -> QUEUED until its wait list and, for an
 * in-order queue, its predecessor are complete -> SUBMITTED -> RUNNING once
 * its kernel instance is in the work-pool -> COMPLETE (0) or an HP_ error,
 * set by the hart that finished its last work-group.
 *
 * Markers (kernel NULL, .marker true) complete as soon as they may start;
 * barrier commands (.barrier true) start after every earlier command of
 * their queue and every later command of the queue starts after them
 * (clEnqueueBarrierWithWaitList; an in-order queue is a queue of barrier
 * commands).
 *
 * Errors and dependencies: a command whose wait list holds a failed
 * command completes with HP_ABORTED (and so on down the chain). The order
 * of an in-order queue is only an order: a failed command does not fail
 * the commands after it, so one fault does not poison a long-lived queue.
 */
#ifndef EXECUTOR_EXEC_H
#define EXECUTOR_EXEC_H

#include <hal/hartmask.h>
#include <hal/isolation.h>
#include <hartpool/error.h>
#include <hartpool/kernel.h>
#include <stdbool.h>
#include <stdint.h>

/* ---- the device ---- */

typedef struct exec_device {
	unsigned harts;
	/** 1 when hart 0 only drives (the mailbox dispatcher) and never
	 * pulls work-groups; workers are harts first_worker..harts-1. */
	unsigned first_worker;
	unsigned address_bits; /**< width of the device's size_t */
	uint32_t max_work_group_size;
	uint32_t max_work_item_sizes[3];
	uint32_t local_mem_size; /**< bytes per work-group */
	/** The device's global memory, where buffers are (the mailbox's
	 * buffer heap; 0 0: not said): hp_launch.global_base. */
	uint64_t global_base, global_size;
	uint32_t default_sub_group_size; /**< the board's lane count */
	uint32_t sub_group_sizes;	 /**< bit k set: size 1 << k allowed */
	uint32_t fiber_stack_default;	 /**< bytes per work-item */
	uint32_t fiber_arena_size;	 /**< fiber stacks per hart, bytes */
	/** Multiplies every fiber stack and the arena: 1 on the device; the
	 * host's sanitizer builds have far larger frames. */
	uint32_t fiber_stack_scale;
	/** Bytes of stack a kernel without barriers may need
	 * (hp_kernel.stack_bytes): HP_KERNEL_STACK_USE of the hart's
	 * kernel stack with isolation; less on the hart's own stack. */
	uint32_t kernel_stack;
	/** Kernels run with their loads and stores checked by the PMP
	 * (hal/isolation.h, docs/faults.md); on by default where the board
	 * has a PMP. Set before kernels run. */
	bool isolation;
	/** Time slice between isolation domains (sessions), in timer ticks:
	 * while kernels of more than one domain have work, a U-mode chunk
	 * of work-groups that runs longer is preempted on its hart and goes
	 * on later there (docs/executor.md, "Time slices"); 0: never. Set
	 * before kernels run. */
	uint64_t slice_ticks;
	/** EXEC_CAP_* bits of each hart index (from hal_hart_caps()), and
	 * how many harts lack EXEC_CAP_FPU (0: the checks skip their loops). */
	uint8_t caps[HAL_MAX_HARTS];
	unsigned without_fpu;
	/** Bytes of a vector register of the harts (vlenb; 0: no vector unit
	 * on, docs/vector.md). With one, the default sub-group is one
	 * register's 32-bit lanes. */
	unsigned vlenb;
} exec_device;

/** A hart has the FPU the firmware's code is built for (F, and D where
 * the build uses doubles): it may run kernels that use floating point
 * (docs/design.md, 34). */
#define EXEC_CAP_FPU 1u

extern exec_device exec_dev;

/** The device's defaults for @p harts harts (device.c; exec_init calls
 * it, before anything else). */
void exec_device_init(unsigned harts);

/** What kernel @p k needs from the hart that runs it: EXEC_CAP_FPU for a
 * kernel that uses floating point in a build that computes with an FPU
 * (soft-float builds: nothing), else 0. */
unsigned exec_kernel_needs(const hp_kernel *k);

/**
 * Is there a worker on @p dev that can run kernel @p k, with each
 * work-group on a team of @p team harts (0 or 1: one hart)? 0, or
 * HP_KERNEL_NOT_SUPPORTED with a sentence in @p why (may be NULL).
 */
int exec_kernel_supported(const exec_device *dev, const hp_kernel *k,
			  unsigned team, char *why, size_t why_size);

/* ---- NDRange ---- */

/** What the host asks for (OpenCL clEnqueueNDRangeKernel + build flags). */
typedef struct exec_range {
	unsigned work_dim;
	uint64_t global[3];
	uint64_t offset[3];
	uint64_t local[3];
	bool local_given;
	/** -cl-uniform-work-group-size: remainder groups are an error. */
	bool uniform;
	/** Behave as if the kernel had reqd_work_group_size(these); 0 = no. */
	uint32_t reqd[3];
	/** Required sub-group size; 0 = the kernel's or the board's. */
	uint32_t sub_group_size;
	/** Dynamic local memory (OpenCL __local arguments): bytes after the
	 * kernel's local_mem_bytes; the two together at most the device's
	 * local_mem_size. */
	uint32_t local_extra;
	/** Harts that share one work-group (0 or 1 = one hart). */
	uint32_t team_size;
	/** How harts claim work-groups: EXEC_SCHED_GUIDED (default: chunks
	 * of remaining / (2 * workers)), EXEC_SCHED_STATIC (worker r runs the
	 * r-th of W equal blocks, OpenMP's schedule(static)) or
	 * EXEC_SCHED_FIXED (chunks of `chunk` groups, schedule(dynamic,
	 * chunk)). For measuring the scheduler; teams always go one group
	 * at a time. */
	uint32_t schedule;
	uint32_t chunk;
} exec_range;

enum { EXEC_SCHED_GUIDED, EXEC_SCHED_STATIC, EXEC_SCHED_FIXED };

/**
 * Validate @p r for kernel @p k on @p dev and fill @p out (local size
 * chosen when none is given, see docs/ndrange.md). Returns 0 or an HP_
 * error, with a sentence naming the limit and the numbers in @p why (may
 * be NULL); never touches shared state.
 */
int exec_ndrange_setup(const exec_device *dev, const hp_kernel *k,
		       const exec_range *r, hp_launch *out, char *why,
		       size_t why_size);

/** What bounds a kernel's largest work-group. */
enum exec_group_limit {
	EXEC_LIMIT_DEVICE,	/**< the device's max_work_group_size */
	EXEC_LIMIT_KERNEL_MAX,	/**< the kernel's max_work_group_size */
	EXEC_LIMIT_KERNEL_REQD, /**< the kernel's reqd_work_group_size */
	EXEC_LIMIT_FIBERS,	/**< fiber stacks in one hart's arena */
	EXEC_LIMIT_LOCAL_MEM,	/**< local memory: it cannot run (0) */
	EXEC_LIMIT_STACK,	/**< its stack: it cannot run (0) */
};

/**
 * The largest work-group kernel @p k runs with on @p dev, with sub-group
 * size @p s and each work-group spread over @p team harts (1: one hart;
 * CL_KERNEL_WORK_GROUP_SIZE is the value for team 1 and the kernel's
 * sub-group size). 0 if it cannot run at all. @p why (may be NULL) gets
 * what bounds it. The device never chooses a larger local size, and an
 * explicit one above it is HP_INVALID_WORK_GROUP_SIZE.
 */
uint32_t exec_kernel_max_group(const exec_device *dev, const hp_kernel *k,
			       unsigned s, unsigned team,
			       enum exec_group_limit *why);

/** A barrier kernel's fiber stack per work-item (bytes, before the host's
 * fiber_stack_scale; 16-byte multiple). */
uint32_t exec_fiber_stack_bytes(const exec_device *dev, const hp_kernel *k);

/** Work-items of a launch (0 for an empty range). */
uint64_t exec_ndrange_items(const hp_launch *l);

/* ---- commands and queues ---- */

enum exec_status {
	EXEC_COMPLETE = 0,
	EXEC_RUNNING = 1,
	EXEC_SUBMITTED = 2,
	EXEC_QUEUED = 3,
};

#define EXEC_MAX_WAIT 16

struct exec_queue;

/** Where a kernel was stopped (HP_KERNEL_FAULT, HP_TIMEOUT). */
typedef struct exec_fault_info {
	unsigned long cause; /**< mcause */
	unsigned long pc;    /**< mepc: the faulting instruction */
	unsigned long addr;  /**< mtval */
	unsigned hart;	     /**< hart index */
	uint32_t group[3];   /**< work-group id */
} exec_fault_info;

typedef struct exec_cmd {
	/* Filled in by the caller; the command must stay alive until it is
	 * complete. */
	const hp_kernel *kernel;
	const void *args;
	uint32_t args_size;
	exec_range range;
	struct exec_cmd *const *wait_list;
	unsigned num_wait;
	/** No kernel: completes when it may start (clEnqueueMarker). */
	bool marker;
	/** Waits for every earlier command of its queue; later commands of
	 * the queue wait for it. Orders only, like an in-order queue. */
	bool barrier;
	/** Called once by the hart that completes the command, with the
	 * command lock held, after every result field is set and just before
	 * `status` is published: the last moment the command may be read on
	 * behalf of the executor. Must be short and must not call the
	 * executor. NULL: none. */
	void (*on_complete)(struct exec_cmd *c, int status);
	void *user; /**< for on_complete */
	/** Time limit in microseconds from the start of the kernel's first
	 * work-group; 0: none. Past it, the harts running it are
	 * interrupted and the command ends with HP_TIMEOUT. */
	uint64_t timeout_us;
	/** hp_printf() output (hp_printf_header + records, hartpool/mbox.h),
	 * header already reset; NULL: hp_printf() prints nothing. */
	void *printf_buf;
	uint32_t printf_size; /**< bytes, header included */
	/** What trace records call the command (executor/trace.h): its
	 * mailbox event + 1; 0: none. */
	uint64_t trace_id;
	/** The isolation domain its kernel runs in (exec_isolation_domain):
	 * with isolation on, the only device buffers the kernel reaches. */
	unsigned domain;

	/* Results (read with exec_status() / exec_wait()). */
	int status;		  /**< enum exec_status or an HP_ error (< 0) */
	const char *error_detail; /**< a sentence about the error, or NULL */
	hp_launch launch;	  /**< the validated launch */
	uint64_t t_queued, t_submit, t_start, t_end; /**< hal timer ticks */
	/** HP_KERNEL_FAULT / HP_TIMEOUT caught by a trap: where; valid only
	 * when @c fault_set (a command that completes otherwise leaves it as
	 * it was: not cleared per command, it is rarely needed). */
	exec_fault_info fault;
	bool fault_set;

	/* Executor bookkeeping. Once the status is final the executor never
	 * touches the command again, so the caller may reuse it at once. */
	unsigned magic; /* EXEC_CMD_MAGIC once enqueued */
	struct exec_queue *queue;
	struct exec_cmd *prev_in_queue; /* NULL once it completed */
	struct exec_cmd *fence;		/* queue's barrier before it */
	unsigned long seq;		/* enqueue order in its queue */
	unsigned earlier;		/* barrier: earlier ones not done */
	bool counted;			/* in its queue's `incomplete` */
	struct exec_cmd *next_pending;
	uint32_t deps_done; /* wait_list entries seen complete */
	bool deps_failed;   /* one of them failed */
} exec_cmd;

typedef struct exec_queue {
	bool in_order;
	exec_cmd *last;	     /* in-order: the last command */
	exec_cmd *fence;     /* the last barrier command, until complete */
	unsigned long seq;   /* commands enqueued */
	unsigned incomplete; /* enqueued and not complete */
} exec_queue;

/** Initialise the executor for @p harts harts (one hart, before use). */
void exec_init(unsigned harts);

/**
 * Validate and enqueue @p c on @p q (NULL: no queue, only the wait list
 * orders it). Returns 0, or the HP_ error with which @p c is then already
 * complete. Lifetimes: @p c and its wait_list array until @p c is complete;
 * each command named in the wait list until it is complete itself (like
 * an OpenCL event that is retained until then).
 */
int exec_enqueue(exec_queue *q, exec_cmd *c);

/**
 * A user event (OpenCL clCreateUserEvent): a command without a kernel that
 * stays QUEUED until exec_user_event_set(); others can wait for it.
 */
void exec_user_event_init(exec_cmd *c);
/** Complete a user event with 0 (success) or an HP_ error. */
void exec_user_event_set(exec_cmd *c, int status);

/** Current status of @p c (enum exec_status or an HP_ error). */
int exec_status(const exec_cmd *c);

/**
 * End @p c with @p status (an HP_ error) and @p detail, whatever it is
 * doing: a command still waiting completes now; a running kernel claims no
 * further work-groups, and the harts inside one of its groups are
 * interrupted (with isolation on: an IPI ends their kernel code at once)
 * and go on serving; it completes when the last of them has left. A
 * complete command is left alone. Dependents fail with HP_ABORTED as
 * after any failure. Returns true if @p c was not complete.
 */
bool exec_cancel(exec_cmd *c, int status, const char *detail);

/**
 * Wait until @p c is complete. Until then the caller pulls work-groups
 * from the pool, or sleeps when there are none. Before returning it
 * finishes any team instance its team still needs it for. Returns the
 * final status.
 */
int exec_wait(exec_cmd *c);

/* ---- serving ---- */

/**
 * Start the executor on every hart: hart 0 calls exec_init(), then all
 * harts meet at @p barrier_all (a barrier over every hart). Hart 0 gets
 * true and drives commands; every other hart serves the pool until
 * exec_shutdown() and then gets false. With @p dedicated_driver (and more
 * than one hart) hart 0 never runs work-groups, so it is always free to
 * read new commands (like a GPU's command processor).
 */
bool exec_start(void (*barrier_all)(void), bool dedicated_driver);

/** Pull and run work until exec_shutdown() and the pool holds nothing
 * more for this hart; sleep when there is none. */
void exec_serve(void);

/** Background work for idle harts (the mailbox's clearing of freed
 * memory): a hart in exec_serve() that finds no kernel work calls @p fn
 * before it sleeps, and looks for kernel work again after every call that
 * returns true, so @p fn must do one short step (a launch waits for at
 * most one) and return false when it has nothing (the hart then sleeps as
 * before). NULL: none. */
void exec_idle_work_set(bool (*fn)(void));
/** Wake one idle hart (there is background work for it). */
void exec_idle_work_wake(void);

/** Make every hart in exec_serve() return; the caller first finishes
 * what the pool still holds for it. Team instances need every hart of a
 * team to keep pulling work (exec_serve, exec_wait) until they end. */
void exec_shutdown(void);

/** Run at most one chunk of work-groups; true if it ran something. */
bool exec_pool_work(void);

/** Sleep until there may be work for the caller, it is woken (IPI or an
 * enabled device interrupt), shutdown, or hal_timer_now() >= @p deadline.
 * For a hart that also watches something else (the mailbox). */
void exec_idle_until(uint64_t deadline);

/* ---- fault containment (docs/faults.md) ---- */

/**
 * The executor's part of a trap on the calling hart (`cause`, `pc`,
 * `tval` as in mcause, mepc, mtval). If the hart was running kernel code,
 * the fault (or the watchdog's timer) is recorded as the instance's first
 * fault, its remaining work-groups are cancelled, and the result is the
 * point the trap must resume at with hal_longjmp(result, 1): the hart goes
 * back to serving. NULL: not in a kernel (a firmware bug; stop).
 */
struct hal_jmp_buf *exec_kernel_trap(unsigned long cause, unsigned long pc,
				     unsigned long tval);

/** For a U-mode kernel's sleep (ecall): NULL, or -- when the running
 * kernel must stop -- the recovery point: past its time limit (HP_TIMEOUT
 * recorded at @p pc), or its command cancelled or failed elsewhere. */
struct hal_jmp_buf *exec_kernel_timeout_check(unsigned long pc);

/** The HAL_SYS_TEAM_* ecalls (@p op, hal/isolation.h) of U-mode kernel
 * code (the team barrier the pool bound to the hart): arrive and wait for
 * the team, wait on (TEAM_WAIT), or leave. @p regs is the trapped context
 * as pc, x1-x31 (the pc at the ecall), @p status its mstatus/sstatus.
 * NULL when done; the recovery point if the kernel's time limit passed
 * first (HP_TIMEOUT recorded, the hart has left the barrier), or if the
 * pool parked the team (its time slice: hal_longjmp(result,
 * EXEC_PREEMPTED), the member goes on in the same wait later). */
struct hal_jmp_buf *exec_team_ecall(unsigned op, const unsigned long *regs,
				    unsigned long status);

/** Isolation domains: with isolation on, a kernel reads and writes only
 * the ranges of its command's domain (exec_cmd.domain) among the device
 * buffers, besides what it runs with (its code, its arguments, its hart's
 * context: stacks and local memory) and HP_KERNEL_DATA. Domain 0 is what
 * exec_isolation_allow() gives. */
#define EXEC_DOMAINS HAL_ISO_DOMAINS

/** Domain @p dom's ranges from now on: @p n (at most
 * exec_isolation_max_ranges()) ranges [base[i], base[i] + size[i]),
 * each a multiple of exec_isolation_granule() in base and size. A kernel
 * already running keeps what it had until its chunk of work-groups ends;
 * one caller at a time. */
void exec_isolation_domain(unsigned dom, const uintptr_t *base,
			   const uintptr_t *size, unsigned n);
/** How many ranges a domain may have, and their granule (the board's
 * isolation: PMP entries, or page sizes). */
unsigned exec_isolation_max_ranges(void);
uintptr_t exec_isolation_granule(void);
/** Domain 0: [base, base + size) (one range). */
void exec_isolation_allow(uintptr_t base, uintptr_t size);
/** Memory for the buffers of a firmware program without a mailbox (the
 * on-target tests, the benchmarks): zeroed, from one arena of the
 * kernel-visible heap that becomes domain 0's (exec_isolation_allow) when
 * first used; NULL when it is full. */
void *exec_buffer_alloc(size_t size, size_t align);

/** What a recovery point gets when the pool took the kernel's context
 * (a time slice ended while another domain waits): the chunk goes on
 * later on this hart. */
#define EXEC_PREEMPTED 3

/**
 * An interrupt in U-mode kernel code that did not end it (the time
 * slice's timer before the kernel's deadline, an IPI that was not a
 * cancel). @p regs is the interrupted context as pc, x1-x31 (32 words),
 * @p status its mstatus/sstatus; the FP registers are still the
 * kernel's. Returns NULL to resume the kernel (the timer reprogrammed),
 * or the recovery point to resume at with hal_longjmp(result,
 * EXEC_PREEMPTED) once the pool took the context; with @p regs NULL
 * (not in U-mode kernel code) it does nothing.
 */
struct hal_jmp_buf *exec_kernel_tick(const unsigned long *regs,
				     unsigned long status);

/** Is the calling hart in kernel code (a trap came from a kernel)? */
bool exec_kernel_busy(void);

/** How many isolation domains (sessions) may have work at once: with
 * fewer than two, no launch looks for harts to preempt (a session alone
 * pays nothing for time slices). The mailbox keeps it current. */
void exec_tenants_set(unsigned n);
/** Domain @p dom has a new owner (a session opened in it): memory its
 * kernels reach besides buffers (kernel stacks, local memory, work-item
 * stacks and scratch) is cleared before a kernel of the new owner runs on
 * it, as it is for another domain's kernels. */
void exec_domain_renew(unsigned dom);

/** A software interrupt (IPI) trapped kernel code on the calling hart:
 * NULL to resume it (the IPI was not for it; it is cleared), or the
 * recovery point to resume at with hal_longjmp(result, 1) when its
 * command was cancelled (exec_cancel). */
struct hal_jmp_buf *exec_kernel_ipi(void);

/* ---- kernel objects (dispatch.c loads them) ---- */

/** The kernel API table for loaded objects (api.c, hartpool/api.h). */
extern const struct hp_api exec_api;
/** New code was written (a kernel object was loaded): every hart runs
 * `fence.i` before it next enters a kernel. */
void exec_code_changed(void);

/* ---- statistics (for tests and benchmarks) ---- */

typedef struct exec_hart_stats {
	unsigned long groups;	 /**< work-groups (or team slices) run */
	unsigned long claims;	 /**< successful claims (chunks) */
	unsigned long sleeps;	 /**< times it slept for lack of work */
	unsigned long instances; /**< times it moved to another instance */
	unsigned long preempted; /**< chunks it parked at a slice's end */
} exec_hart_stats;

/** Counters of hart @p idx. */
const exec_hart_stats *exec_stats(unsigned idx);

#endif
