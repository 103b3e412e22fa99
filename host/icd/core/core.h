/* SPDX-License-Identifier: MIT */
/**
 * @file The ICD's core (docs/icd.md, "Inside the ICD"): the OpenCL objects
 * and what they are made of, their generic lifetimes, the device, the
 * queue pipeline, the commands and the failures. The API files of
 * host/icd/ check their arguments and call the core; the core calls
 * nothing of theirs.
 *
 * Locking: one library-wide recursive mutex (icd_lock) guards every object
 * and the device; entry points take it for their whole run, except the
 * waits for host-held commands, which drop it between polls.
 */
#ifndef HARTPOOL_ICD_CORE_H
#define HARTPOOL_ICD_CORE_H

#include <CL/cl.h>
#include <CL/cl_icd.h>
#include <hartpool.h>
#include <hartpool/mbox.h>
#include <hartpool_cl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- objects (obj.c) ---- */

struct icd_object;

/** What every object of a kind shares: its magic, its size, what it does
 * when the application's last reference goes (queues: finish) and what it
 * frees when it goes (not its parents: the generic release drops them). */
struct icd_kind {
	uint32_t magic;
	size_t size;
	void (*close)(struct icd_object *o);   /**< NULL: nothing */
	void (*destroy)(struct icd_object *o); /**< NULL: nothing */
};

struct icd_destructor {
	struct icd_destructor *next;
	void(CL_CALLBACK *fn)(void *, void *);
	void *data;
};

/* Every object's first fields (PoCL's POCL_OBJECT): the loader's dispatch
 * pointer (first, as the loader reads it), the magic that tells the kinds
 * apart, the application's references (clRetain* / clRelease*,
 * CL_*_REFERENCE_COUNT) and the ICD's own (holds: objects and commands
 * that use it), the kind, the objects it holds (its context, a sub-buffer's
 * buffer, a kernel's program, an event's queue) and the application's
 * destructor callbacks. With no reference of the application's left the
 * handle is invalid; the object goes when neither is left. */
#define ICD_OBJECT_HEAD                                                        \
	struct _cl_icd_dispatch *dispatch;                                     \
	uint32_t magic;                                                        \
	cl_uint refs;                                                          \
	cl_uint holds;                                                         \
	const struct icd_kind *ops;                                            \
	struct icd_object *parents[2];                                         \
	struct icd_destructor *destructors

struct icd_object {
	ICD_OBJECT_HEAD;
};

enum icd_magic {
	MAGIC_PLATFORM = 0x68706c31,
	MAGIC_DEVICE,
	MAGIC_CONTEXT,
	MAGIC_QUEUE,
	MAGIC_MEM,
	MAGIC_PROGRAM,
	MAGIC_KERNEL,
	MAGIC_EVENT,
	MAGIC_DEAD = 0x64656164,
};

/** Released objects of a kind that wait before their memory becomes a new
 * object of that kind (a released handle stays invalid until then). */
#define ICD_QUARANTINE 1024u
/** A zeroed object of @p kind, one reference of the application's,
 * registered as live; NULL when out of memory. */
void *icd_obj_new(const struct icd_kind *kind);
/** @p o holds @p parent (its context, buffer, program, queue) until it
 * goes; the generic release drops it then. At most two. */
void icd_obj_parent(void *o, void *parent);
/** Is @p h a live object of @p magic? Looks it up, never dereferences a
 * value that is not one. */
bool icd_obj_valid(const void *h, uint32_t magic);
/** Free an object that was never handed out (a failed creation): no
 * destructors, its parents dropped. */
void icd_obj_discard(void *o);
/* Generic lifetimes: retain / release are the application's (clRetainX,
 * clReleaseX), hold / drop the ICD's (an object or a command that uses
 * it). The last of both destroys the object: its destructor callbacks,
 * its kind's destroy, then its parents are dropped the same way. */
void icd_retain(void *o);
void icd_release(void *o);
void icd_hold(void *o);
void icd_drop(void *o);

/** clSet*DestructorCallback: push @p fn on @p o's list (called last-in
 * first when it goes). */
cl_int icd_destructor_push(void *o, void(CL_CALLBACK *fn)(void *, void *),
			   void *data);

/** The objects a command uses (held): the kernel and its argument
 * buffers, the buffers of a transfer. The command keeps them until it is
 * submitted; a device command's event then keeps them until it completes,
 * so releasing them while commands are pending is safe. */
struct icd_hold {
	struct icd_object **objs;
	unsigned num;
};
/** Hold @p o and add it (CL_OUT_OF_HOST_MEMORY if that fails). */
cl_int icd_hold_add(struct icd_hold *h, void *o);
/** Drop everything held; @p h is empty afterwards. */
void icd_hold_drop(struct icd_hold *h);

/* ---- the platform and its devices (device.c) ---- */

struct _cl_platform_id {
	struct _cl_icd_dispatch *dispatch;
	uint32_t magic;
};

/** Devices one platform lists at most (HARTPOOL_DEVICES, icd.conf's
 * `devices =`). */
#define ICD_DEVICES_MAX 16u

struct _cl_device_id {
	struct _cl_icd_dispatch *dispatch;
	uint32_t magic;
	unsigned index; /**< in icd_devices: bit (1u << index) */
	char spec[512]; /**< what the configuration named it by */
	hp_device *hp;	/**< open (a device that failed is not listed) */
	hp_device_info info;
	char board[32];	     /**< the board kernels are built for */
	char builtins[2048]; /**< CL_DEVICE_BUILT_IN_KERNELS */
	unsigned contexts;   /**< live contexts that include it */
	/** every kernel's time limit (HARTPOOL_TIMEOUT, icd.conf), µs; 0:
	 * none */
	uint64_t timeout_us;
};

extern struct _cl_platform_id icd_platform;
/** The devices that opened, in the configuration's order; [0] is the
 * default (CL_DEVICE_TYPE_DEFAULT). */
extern struct _cl_device_id icd_devices[ICD_DEVICES_MAX];
extern unsigned icd_num_devices;
/** The loader's dispatch table (dispatch.c hands it over at load). */
extern struct _cl_icd_dispatch *icd_dispatch_table;
/** Called once at load, before any entry point: every object's dispatch
 * pointer is @p d. */
void icd_core_init(struct _cl_icd_dispatch *d);
void icd_lock(void);
void icd_unlock(void);
/** This thread's count of taking the lock from outside it: a failure is
 * delivered only by the entry point that recorded it. */
extern __thread unsigned icd_lock_gen;
/** Boot or connect the configured devices if not yet (once: a device that
 * fails is named on stderr and left out, the others serve): CL_SUCCESS, or
 * CL_DEVICE_NOT_FOUND when none opened. */
cl_int icd_device_open(void);
bool icd_valid_device(cl_device_id d);
/** A mask of device bits: the devices in it. */
#define ICD_EACH_DEVICE(d, mask)                                               \
	for (cl_device_id d = icd_devices; d < icd_devices + icd_num_devices;  \
	     d++)                                                              \
		if ((mask) & (1u << d->index))
/** A kernel's time limit when neither HARTPOOL_TIMEOUT nor icd.conf gives
 * one (docs/icd.md, "Time limits"). */
#define ICD_TIMEOUT_DEFAULT_S 60u
/** CL_DEVICE_MAX_MEM_ALLOC_SIZE: the heap less what the ICD keeps for
 * itself (ICD_HEAP_RESERVE). */
cl_ulong icd_max_alloc(cl_device_id d);
/** The least icd_max_alloc of @p c's devices. */
cl_ulong icd_ctx_max_alloc(cl_context c);
/** CL_DEVICE_SVM_CAPABILITIES: coarse-grain buffers everywhere, fine-grain
 * and atomics where the device's memory is mapped at its addresses. */
cl_device_svm_capabilities icd_svm_caps(cl_device_id d);
/** The ICD's own buffers a largest allocation must leave room for: printf
 * buffers of kernels in flight, a kernel object's staging copy. */
#define ICD_HEAP_RESERVE (8ull << 20)
cl_ulong icd_now_ns(void);
/** clGet*Info's copy-out: CL_INVALID_VALUE when @p size is too small. */
cl_int icd_info(const void *src, size_t n, size_t size, void *value,
		size_t *ret);
/** The error of libhartpool's last failure as an OpenCL code (same values;
 * unknown device-only codes become CL_OUT_OF_RESOURCES). */
cl_int icd_err(int hp);

/* ---- failures (fail.c) ---- */

/** Record a failed check: the sentence "WHY (NAME)" is kept for the
 * context (icd_fail_deliver) and said on stderr, after @p fn (the checking
 * function), when HARTPOOL_ICD_DEBUG is set. Returns @p code. */
cl_int icd_fail(cl_int code, const char *name, const char *fn, const char *fmt,
		...) __attribute__((format(printf, 4, 5)));
/** Hand the failure recorded by this thread's entry point (if its code is
 * @p rc) to @p ctx's pfn_notify, when @p ctx is a live context with one.
 * Returns @p rc. */
cl_int icd_fail_deliver(cl_context ctx, cl_int rc);
/** The sentence of this thread's last failure ("" if none). */
const char *icd_fail_why(void);
/** Under the lock: @p ok if @p h is a live object of @p magic, else
 * @p invalid (entry points that only check their handle: the unsupported
 * features' and unsupported arguments' ones). A failure is said like a
 * FAIL_IF's, and delivered to @p h's context. */
cl_int icd_check_(const void *h, uint32_t magic, cl_int ok, cl_int invalid,
		  const char *fn);
#define icd_check(h, magic, ok, invalid)                                       \
	icd_check_((h), (magic), (ok), (invalid), __func__)
/** The context of a live object of any kind (NULL for none). */
cl_context icd_ctx_of(const void *h);
/** Fail with @p code: record why and return it from the calling function. */
#define FAIL(code, ...) return icd_fail((code), #code, __func__, __VA_ARGS__)
/** Check @p cond; if it holds, record the failure and return @p code from
 * the calling function. Every check of the ICD is one. */
#define FAIL_IF(cond, code, ...)                                               \
	do {                                                                   \
		if (cond)                                                      \
			return icd_fail((code), #code, __func__, __VA_ARGS__); \
	} while (0)

/* ---- contexts, buffers, programs, kernels ---- */

struct _cl_context {
	ICD_OBJECT_HEAD;
	cl_device_id devs[ICD_DEVICES_MAX]; /**< in the application's order */
	cl_uint num_devs;
	uint32_t dev_mask; /**< their bits */
	cl_context_properties props[8];
	size_t num_props;
	void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *);
	void *notify_data;
	/** its SVM allocations (svm.c), sorted by address */
	cl_mem *svm;
	unsigned num_svm, cap_svm;
};

struct icd_map {
	struct icd_map *next;
	void *ptr;
	size_t off, size;
	bool write;
};

struct _cl_mem {
	ICD_OBJECT_HEAD;
	uint64_t serial; /**< unique per buffer ever created (kernel args) */
	cl_context ctx;
	cl_mem_flags flags;
	size_t size;
	/** a buffer's copy on each device of its context (0: none yet; a
	 * sub-buffer's are its buffer's) */
	hp_buffer at[ICD_DEVICES_MAX];
	/** a buffer's devices whose copy is current (all: no content yet) */
	uint32_t valid;
	cl_mem parent; /**< sub-buffer: its buffer (held) */
	size_t origin;
	void *host_ptr; /**< USE_HOST_PTR */
	void *shadow;	/**< map target when not USE_HOST_PTR */
	cl_uint map_count;
	struct icd_map *maps;
	cl_mem_properties props[4];
	size_t num_props;
	/** what CL_MEM_ASSOCIATED_MEMOBJECT and CL_MEM_OFFSET say (a
	 * sub-buffer's buffer, which is not its parent when that buffer is
	 * made on an SVM pointer) */
	cl_mem assoc;
	size_t assoc_off;
	/** an SVM allocation (svm.c): the ICD's handle, the application has
	 * svm_ptr, the same number on the host and on every device of the
	 * context (each copy starts at svm_ptr - svm_at) */
	bool svm;
	char *svm_ptr;
	size_t svm_size, svm_at;
	/** bytes of host pages mapped at svm_ptr, when no device's memory
	 * is there in this process (0: a device's is) */
	size_t svm_shadow_size;
};

/* ---- buffers over several devices (move.c) ---- */

/** A sub-buffer's buffer; a buffer itself. */
cl_mem icd_mem_root(cl_mem m);
/** @p m's address on @p d, its buffer's copy there allocated first if it
 * has none (CL_MEM_OBJECT_ALLOCATION_FAILURE, named). */
cl_int icd_mem_addr(cl_mem m, cl_device_id d, hp_buffer *addr);
/** Make @p m's buffer current on @p d (with @p copy, copied through the
 * host from a device whose copy is, the bytes added to *@p moved; without,
 * its content is to be overwritten); with @p write, @p d's copy becomes
 * the only current one. */
cl_int icd_mem_move(cl_mem m, cl_device_id d, bool write, bool copy,
		    size_t *moved);
/** A failed allocation of, or write to, @p size bytes on @p d (libhartpool's
 * @p rc): CL_DEVICE_NOT_AVAILABLE for a device that is gone, else
 * CL_MEM_OBJECT_ALLOCATION_FAILURE, said for @p fn. */
cl_int icd_mem_failed(int rc, const char *fn, size_t size, cl_device_id d);
/** Free a buffer's copies on every device. */
void icd_mem_free(cl_mem r);

/* ---- a context's SVM allocations (svm.c) ---- */

struct icd_cmd;

/** The SVM allocation of @p c that holds [p, p + len) (len 0: p inside
 * it), or NULL. */
cl_mem icd_svm_find(cl_context c, const void *p, size_t len);
/** Add the allocation @p m (its svm_ptr set) to @p c's. */
cl_int icd_svm_add(cl_context c, cl_mem m);
/** clSVMFree: the allocation that starts at @p p leaves @p c and is
 * released (its memory goes when no command holds it); false if @p p
 * starts none. */
bool icd_svm_release(cl_context c, void *p);
/** Every allocation of @p c released (the context goes). */
void icd_svm_release_all(cl_context c);
/** Where pointer @p p (inside SVM allocation @p m) is in its buffer. */
size_t icd_svm_offset(cl_mem m, const void *p);
/** A CMD_SVM_FREE runs: the application's callback, or the frees. */
cl_int icd_svm_free_run(struct icd_cmd *c);

enum prog_kind { PROG_NONE, PROG_SOURCE, PROG_BINARY, PROG_BUILTIN };

/** A program's executable for one device: its kernel object (built for
 * the device's board, CL_PROGRAM_BINARIES) and whether it is loaded. */
struct icd_prog_dev {
	void *hpk;
	size_t hpk_size;
	bool loaded;
	hp_object obj;
	/** the program-scope variables' block on the device (0: none),
	 * hp_cl_globals_prepare; its bytes (CL_PROGRAM_BUILD_GLOBAL_
	 * VARIABLE_TOTAL_SIZE) */
	hp_buffer globals;
	size_t globals_size;
};

/** A specialization constant's value (clSetProgramSpecializationConstant). */
struct icd_spec {
	uint32_t id, size;
	uint8_t value[8];
};

struct _cl_program {
	ICD_OBJECT_HEAD;
	cl_context ctx;
	enum prog_kind kind;
	char *source;	   /**< NUL-ended; may hold NULs before source_len */
	size_t source_len; /**< bytes of source (the lengths given) */
	void *il;	   /**< a SPIR-V module (clCreateProgramWithIL) */
	size_t il_size;
	struct icd_spec *spec; /**< its specialization constants set */
	unsigned nspec;
	bool linked;   /**< made by clLinkProgram (its objects are the ICD's) */
	uint32_t devs; /**< the devices it is for (CL_PROGRAM_DEVICES) */
	struct icd_prog_dev at[ICD_DEVICES_MAX]; /**< by device index */
	cl_program_binary_type bin_type;
	cl_build_status status;
	char *log;
	char *options;
	/** the kernels' metadata (the same on every device: checked) */
	hp_cl_program *meta;
	char *kernel_names; /**< "a;b" */
	cl_uint num_kernels;
	unsigned kernels_attached;
};

#define ICD_RAW_ARGS 48u

/** A buffer a kernel argument names: the handle and its serial, so a
 * released (or released and reused) handle is noticed at enqueue. */
struct icd_arg_mem {
	cl_mem mem; /**< NULL: none (a value, or a NULL buffer) */
	uint64_t serial;
	uint64_t off; /**< an SVM pointer's offset in its allocation */
};
/** SVM allocations clSetKernelExecInfo may name for one kernel. */
#define ICD_EXEC_SVM_MAX 64u

struct _cl_kernel {
	ICD_OBJECT_HEAD;
	cl_program prog;
	char name[HP_CL_NAME_MAX + 1];
	uint32_t ids;		      /**< the devices it has an id on */
	uint32_t id[ICD_DEVICES_MAX]; /**< its kernel id on each */
	const hp_cl_kmeta *meta;      /**< NULL: a built-in kernel */
	uint32_t args_size;	      /**< the device's argument block size */
	uint8_t args[HP_MBOX_ARGS_MAX];
	uint64_t set[HP_CL_ARGS_MAX / 64];   /**< bit i: argument i set */
	uint32_t local_size[HP_CL_ARGS_MAX]; /**< __local arguments' sizes */
	/* built-in kernels: raw argument bytes */
	uint8_t *raw[ICD_RAW_ARGS];
	uint32_t raw_size[ICD_RAW_ARGS];
	unsigned raw_count;
	/** argument i's buffer (OpenCL C: __global / __constant pointers;
	 * built-in kernels: 8-byte values that were a live cl_mem) */
	struct icd_arg_mem arg_mem[HP_CL_ARGS_MAX];
	/** CL_KERNEL_EXEC_INFO_SVM_PTRS' allocations: held and made current
	 * on the device by every launch */
	struct icd_arg_mem exec_svm[ICD_EXEC_SVM_MAX];
	unsigned num_exec_svm;
};

extern const struct icd_kind icd_kind_queue, icd_kind_event;

/* ---- commands (cmd.c): a tagged union of per-kind parameters ---- */

/** Two sides of a rectangle copy: [0] the buffer (the source of a copy),
 * [1] the host memory (the destination buffer of a copy), pitches filled
 * in from their defaults. */
struct icd_rect {
	size_t reg[3];
	size_t o[2][3];
	size_t rp[2], sp[2];
};
/** The offset of row (y, z) of side @p s. */
size_t icd_rect_row(const struct icd_rect *r, int s, size_t y, size_t z);

enum icd_cmd_kind {
	CMD_NDRANGE,
	CMD_READ,
	CMD_WRITE,
	CMD_READ_RECT,
	CMD_WRITE_RECT,
	CMD_COPY,
	CMD_COPY_RECT,
	CMD_FILL,
	CMD_MAP,
	CMD_UNMAP,
	CMD_MARKER,    /**< markers and barriers: a barrier-AND of the deps */
	CMD_MIGRATE,   /**< clEnqueueMigrateMemObjects: its buffers held */
	CMD_HOST_COPY, /**< clEnqueueSVMMemcpy between host memory */
	CMD_SVM_FREE,  /**< clEnqueueSVMFree */
};

struct icd_cmd_ndrange {
	cl_kernel kernel;
	hp_ndrange range;
	uint32_t args_size;
	uint8_t args[HP_MBOX_ARGS_MAX];
};
struct icd_cmd_rw { /* read, write */
	cl_mem mem;
	size_t off, size;
	void *ptr;
};
struct icd_cmd_rect { /* read rect, write rect */
	cl_mem mem;
	void *ptr;
	struct icd_rect r;
};
struct icd_cmd_copy {
	cl_mem src, dst;
	size_t src_off, dst_off, size;
};
struct icd_cmd_copy_rect {
	cl_mem src, dst;
	struct icd_rect r;
};
struct icd_cmd_fill {
	cl_mem mem;
	size_t off, size;
	unsigned pattern_size; /**< 1..128; over 8 written from the host */
	uint8_t pattern[128];
};
struct icd_cmd_migrate {
	bool host;	/**< CL_MIGRATE_MEM_OBJECT_HOST: a hint, no copy */
	bool undefined; /**< ..._CONTENT_UNDEFINED: made current, no copy */
};
struct icd_cmd_host_copy {
	void *dst;
	const void *src;
	size_t size;
};
struct icd_cmd_svm_free {
	void(CL_CALLBACK *fn)(cl_command_queue, cl_uint, void *[], void *);
	void *data;
	cl_uint n;
	void **ptrs; /**< a copy of the application's list */
};
struct icd_cmd_map { /* map: read in if @p io; unmap: write back if @p io */
	cl_mem mem;
	size_t off, size;
	void *ptr;
	bool io;
};

/** A command held on the host (its wait list has events without a device
 * event yet: user events or other held commands), or about to run. */
struct icd_cmd {
	struct icd_cmd *next;
	enum icd_cmd_kind kind;
	cl_event ev; /**< the command's event (held) */
	cl_event *wait;
	cl_uint num_wait;
	struct icd_hold hold; /**< every object it names is among them */
	/** A marker or barrier without a wait list on an out-of-order queue:
	 * complete after every earlier command of its queue. */
	bool all_earlier;
	union {
		struct icd_cmd_ndrange ndrange;
		struct icd_cmd_rw rw;
		struct icd_cmd_rect rect;
		struct icd_cmd_copy copy;
		struct icd_cmd_copy_rect copy_rect;
		struct icd_cmd_fill fill;
		struct icd_cmd_map map;
		struct icd_cmd_migrate migrate;
		struct icd_cmd_host_copy host_copy;
		struct icd_cmd_svm_free svm_free;
	} u;
};
/** A zeroed command of @p kind; NULL when out of memory. */
struct icd_cmd *icd_cmd_new(enum icd_cmd_kind kind);
/** A command of @p kind that holds @p a and @p b (NULL: none); NULL when
 * out of memory. */
struct icd_cmd *icd_cmd_on(enum icd_cmd_kind kind, cl_mem a, cl_mem b);
/** @p c holds @p o until it completes: CL_OUT_OF_HOST_MEMORY or 0. */
cl_int icd_cmd_use(struct icd_cmd *c, void *o);
/** Start a ready command with its device dependencies: a device command is
 * enqueued (its event on the device), a host-side one runs now. */
cl_int icd_cmd_start(struct icd_cmd *c, const hp_event *deps, unsigned n);
/** Before a command starts on its queue's device: make the buffers it
 * holds current there (the bytes copied into *@p moved), the ones it may
 * write current only there. */
cl_int icd_cmd_move(struct icd_cmd *c, size_t *moved);
/** Free a command that was not submitted, or is done: its wait list, what
 * it holds, its event. */
void icd_cmd_free(struct icd_cmd *c);

/* ---- queues and events (queue.c, event.c) ---- */

struct _cl_command_queue {
	ICD_OBJECT_HEAD; /* holds: its events, and while it closes */
	cl_context ctx;
	cl_device_id dev;
	cl_command_queue_properties props;
	cl_queue_properties qprops[8];
	size_t num_qprops;
	hp_queue *hq;
	bool in_order;
	cl_event last;	      /**< the latest command */
	cl_event barrier_ev;  /**< out-of-order: the latest barrier */
	struct icd_cmd *held; /**< commands held on the host, in order */
	cl_event *pending;    /**< device commands not yet seen complete */
	size_t num_pending, cap_pending;
	bool reaping;	/**< in icd_queue_reap */
	unsigned reaps; /**< icd_queue_reap calls (a full scan every 16th) */
	hp_buffer *printf_free; /**< idle printf buffers */
	size_t num_printf_free, cap_printf_free;
};

struct icd_callback {
	struct icd_callback *next;
	cl_int type;
	void(CL_CALLBACK *fn)(cl_event, cl_int, void *);
	void *data;
};

struct _cl_event {
	ICD_OBJECT_HEAD;
	cl_context ctx;
	cl_command_queue queue; /**< NULL: a user event */
	cl_command_type type;
	cl_int status;	/**< CL_QUEUED .. CL_COMPLETE, or an error (< 0) */
	bool on_device; /**< dev is a device event (submitted) */
	hp_event dev;
	cl_ulong t_queued, t_submit, t_start, t_end; /**< ns */
	struct icd_callback *callbacks;
	hp_buffer printf_buf; /**< 0: none */
	struct icd_hold hold; /**< what its command uses, until complete */
	/** buffers its command brought from other devices first: bytes, and
	 * the host's time for it (profiling: before CL_PROFILING_COMMAND_
	 * SUBMIT on the device, before START on the host) */
	size_t moved_bytes;
	cl_ulong moved_ns;
};

/** Every live queue (icd_progress looks at their held commands). */
extern cl_command_queue *icd_queues;
extern size_t icd_num_queues;

/** A queue on the device for @p c (its arguments checked). */
cl_int icd_queue_new(cl_context c, cl_device_id d,
		     cl_command_queue_properties props,
		     const cl_queue_properties *qp, size_t nqp,
		     cl_command_queue *out);
/** Enqueue a command: runs it now when its wait list allows, else holds it
 * on the host. Takes ownership of @p c (NULL: CL_OUT_OF_HOST_MEMORY); sets
 * *out (may be NULL) to a new reference of its event. With @p block, waits
 * for it: CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST if it failed. */
cl_int icd_enqueue(cl_command_queue q, struct icd_cmd *c, cl_uint nw,
		   const cl_event *w, cl_command_type type, bool block,
		   cl_event *out);
/** Submit whatever held commands can go now (all queues). */
void icd_progress(void);
/** Look at @p q's device commands: the complete ones complete. */
void icd_queue_reap(cl_command_queue q);
/** icd_queue_reap on every queue. */
void icd_reap_all(void);
/** Wait for everything enqueued on @p q. */
cl_int icd_queue_finish(cl_command_queue q);
/** Wait for @p e's completion; CL_SUCCESS or an error of the waiting. */
cl_int icd_event_wait(cl_event e);

/** A user event (@p q NULL: the application's reference) or a command's
 * event (the caller's hold; icd_enqueue gives the application a reference
 * when it asks for the event). */
cl_event icd_event_new(cl_context ctx, cl_command_queue q,
		       cl_command_type type);
/** The event's state now (queries the device for submitted ones; runs
 * callbacks and prints printf output of newly completed commands). */
cl_int icd_event_poll(cl_event e);
/** Mark complete with @p status (host commands, user events) and run
 * callbacks. */
void icd_event_complete(cl_event e, cl_int status);
/** Set the status, calling the callbacks it reaches. */
void icd_event_set_status(cl_event e, cl_int st);
/** Add a callback (run at once if the state is reached already). */
cl_int icd_event_callback(cl_event e, cl_int type,
			  void(CL_CALLBACK *fn)(cl_event, cl_int, void *),
			  void *data);
/** A device event's completion: times, printf output, status (@p i NULL:
 * lost or gone, complete). */
void icd_event_finish_device(cl_event e, const hp_event_info *i);
/** hp_event_wait on @p d until the device says: its own limit waited
 * again. */
int icd_dev_wait(cl_device_id d, hp_event ev, hp_event_info *i);
/** For host-side commands: wait for the dependency events (of @p d). */
cl_int icd_wait_deps(cl_device_id d, const hp_event *deps, unsigned n);
/** Wait for the device commands of @p q submitted so far:
 * CL_DEVICE_NOT_AVAILABLE if the device is gone, else CL_SUCCESS. */
cl_int icd_queue_drain(cl_command_queue q);
hp_buffer icd_printf_get(cl_command_queue q);
void icd_printf_put(cl_command_queue q, hp_buffer b);
#define ICD_PRINTF_SIZE (1024u * 1024u)
/** Idle printf buffers a queue keeps for its next launches. */
#define ICD_PRINTF_IDLE_MAX 4u

#endif
