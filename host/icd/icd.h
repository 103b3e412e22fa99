/* SPDX-License-Identifier: MIT */
/**
 * @file libhartpool-icd internals: the OpenCL objects over libhartpool
 * (docs/icd.md). Every object starts with ICD_OBJECT_HEAD: the loader's
 * dispatch pointer, a magic word that tells the handle kinds apart, the
 * reference count. Objects come from icd_obj_new (object.c), and a handle
 * is valid when the table of live objects holds it (icd_obj_valid).
 *
 * Locking: one library-wide recursive mutex (icd_lock) guards every object
 * and the device; entry points take it for their whole run, except the
 * waits for host-held commands, which drop it between polls.
 */
#ifndef HARTPOOL_ICD_H
#define HARTPOOL_ICD_H

#include <CL/cl.h>
#include <CL/cl_icd.h>
#include <hartpool.h>
#include <hartpool_cl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ICD_EXPORT __attribute__((visibility("default")))

/* clRetainX / clReleaseX: under the lock, a valid handle gets @p act, an
 * invalid one the error @p invalid. */
#define ICD_REFCOUNT_CALL(fn, type, valid, act, invalid)                       \
	ICD_EXPORT cl_int CL_API_CALL fn(type h)                               \
	{                                                                      \
		icd_lock();                                                    \
		cl_int rc = invalid;                                           \
		if (valid(h)) {                                                \
			act(h);                                                \
			rc = CL_SUCCESS;                                       \
		}                                                              \
		icd_unlock();                                                  \
		return rc;                                                     \
	}

/* Every object's first fields (PoCL's POCL_OBJECT): the loader's dispatch
 * pointer, the kind, the application's references (clRetain* /
 * clRelease*, CL_*_REFERENCE_COUNT) and the ICD's own (holds: objects and
 * commands that use it). With no reference of the application's left the
 * handle is invalid; the object goes when neither is left. */
#define ICD_OBJECT_HEAD                                                        \
	struct _cl_icd_dispatch *dispatch;                                     \
	uint32_t magic;                                                        \
	cl_uint refs;                                                          \
	cl_uint holds

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

extern struct _cl_icd_dispatch icd_dispatch;

/* ---- object.c: handles ---- */
/** Released objects of a kind that wait before their memory becomes a new
 * object of that kind (a released handle stays invalid until then). */
#define ICD_QUARANTINE 1024u
/** A zeroed object of @p size bytes whose head says @p kind (MAGIC_*),
 * one reference of the application's, registered as live; NULL when out
 * of memory. */
void *icd_obj_new(uint32_t kind, size_t size);
/** Drop a reference of the application's (@p o's kind's clRelease*): true
 * if nothing keeps the object any more (destroy it now). With none of the
 * application's left it is no longer a valid handle. */
bool icd_obj_unref(void *o);
/** Drop a hold of the ICD's: true if the object is to be destroyed now. */
bool icd_obj_unhold(void *o);
/** Is @p h a live object of @p kind? Looks it up, never dereferences a
 * value that is not one. */
bool icd_obj_valid(const void *h, uint32_t kind);
/** No longer a valid handle (its memory still in use by the ICD). */
void icd_obj_kill(void *obj);
/** Kill (if not yet) and give the memory to the quarantine of its kind. */
void icd_obj_free(void *obj, size_t size);
/** Under the lock: @p ok if @p h is a live object of @p kind, else
 * @p invalid (entry points that only check their handle). */
cl_int icd_check(const void *h, uint32_t kind, cl_int ok, cl_int invalid);

struct _cl_platform_id {
	struct _cl_icd_dispatch *dispatch;
	uint32_t magic;
};

struct _cl_device_id {
	struct _cl_icd_dispatch *dispatch;
	uint32_t magic;
	hp_device *hp;	     /**< NULL until booted */
	hp_device_info info; /**< valid once hp != NULL */
	char board[32];	     /**< the board kernels are built for */
	char builtins[2048]; /**< CL_DEVICE_BUILT_IN_KERNELS */
	unsigned contexts;   /**< live contexts */
	/** every kernel's time limit (HARTPOOL_TIMEOUT, icd.conf), µs; 0:
	 * none */
	uint64_t timeout_us;
};

struct _cl_context {
	ICD_OBJECT_HEAD;
	cl_context_properties props[8];
	size_t num_props;
	void(CL_CALLBACK *notify)(const char *, const void *, size_t, void *);
	void *notify_data;
	struct icd_destructor *destructors;
};

struct icd_destructor {
	struct icd_destructor *next;
	void(CL_CALLBACK *fn)(void *, void *);
	void *data;
};
/** clSet*DestructorCallback: push @p fn on @p list (called last-in first). */
cl_int icd_destructor_push(struct icd_destructor **list,
			   void(CL_CALLBACK *fn)(void *, void *), void *data);
/** Call and free the callbacks of @p list for the object @p obj. */
void icd_destructors_run(struct icd_destructor *list, void *obj);

/** The objects a command uses (retained): the kernel and its argument
 * buffers, the buffers of a transfer. The command keeps them until it is
 * submitted; a device command's event then keeps them until it completes,
 * so releasing them while commands are pending is safe. */
struct icd_hold {
	cl_kernel kernel;
	cl_mem *mems;
	unsigned num_mems;
};
/** Retain @p m and add it (CL_OUT_OF_HOST_MEMORY if that fails). */
cl_int icd_hold_mem(struct icd_hold *h, cl_mem m);
/** Release everything held; @p h is empty afterwards. */
void icd_hold_drop(struct icd_hold *h);

/** A command held on the host (its wait list has events without a device
 * event yet: user events or other held commands), or a host-side transfer. */
struct icd_cmd;
typedef cl_int (*icd_cmd_fn)(struct icd_cmd *c, const hp_event *deps,
			     unsigned n);

struct icd_cmd {
	struct icd_cmd *next;
	cl_event ev; /**< the command's event (retained) */
	cl_event *wait;
	cl_uint num_wait;
	icd_cmd_fn run;
	void (*free)(struct icd_cmd *c);
	struct icd_hold hold; /**< kernel, mem and mem2 are among them */
	/* the command's parameters (by kind) */
	cl_mem mem, mem2;
	size_t off, off2, size;
	void *ptr;
	uint64_t pattern;
	unsigned pattern_size;
	cl_kernel kernel;
	hp_ndrange range;
	uint8_t *args;
	uint32_t args_size;
	bool barrier; /**< marker/barrier: a barrier-AND of the deps */
};

struct _cl_command_queue {
	ICD_OBJECT_HEAD; /* holds: its events, and while it closes */
	cl_context ctx;
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
	bool reaping;		/**< in icd_queue_reap */
	hp_buffer *printf_free; /**< idle printf buffers */
	size_t num_printf_free, cap_printf_free;
};

struct _cl_mem {
	ICD_OBJECT_HEAD;
	uint64_t serial; /**< unique per buffer ever created (kernel args) */
	cl_context ctx;
	cl_mem_flags flags;
	size_t size;
	hp_buffer addr; /**< device address (of the sub-buffer's start) */
	cl_mem parent;	/**< sub-buffer: its buffer (retained) */
	size_t origin;
	void *host_ptr; /**< USE_HOST_PTR */
	void *shadow;	/**< map target when not USE_HOST_PTR */
	cl_uint map_count;
	struct icd_map *maps;
	struct icd_destructor *destructors;
	cl_mem_properties props[4];
	size_t num_props;
};

struct icd_map {
	struct icd_map *next;
	void *ptr;
	size_t off, size;
	bool write;
};

enum prog_kind { PROG_NONE, PROG_SOURCE, PROG_BINARY, PROG_BUILTIN };

struct _cl_program {
	ICD_OBJECT_HEAD;
	cl_context ctx;
	enum prog_kind kind;
	char *source;
	void *hpk; /**< the kernel object (CL_PROGRAM_BINARIES) */
	size_t hpk_size;
	cl_program_binary_type bin_type;
	cl_build_status status;
	char *log;
	char *options;
	bool loaded;
	hp_object obj;
	hp_cl_program *meta;
	char *kernel_names; /**< "a;b" */
	cl_uint num_kernels;
	unsigned kernels_attached;
	void(CL_CALLBACK *release_cb)(cl_program, void *);
	void *release_data;
};

#define ICD_RAW_ARGS 48u

/** A buffer a kernel argument names: the handle and its serial, so a
 * released (or released and reused) handle is noticed at enqueue. */
struct icd_arg_mem {
	cl_mem mem; /**< NULL: none (a value, or a NULL buffer) */
	uint64_t serial;
};

struct _cl_kernel {
	ICD_OBJECT_HEAD;
	cl_program prog;
	char name[HP_CL_NAME_MAX + 1];
	uint32_t id;		  /**< device kernel id */
	const hp_cl_kernel *meta; /**< NULL: a built-in kernel */
	uint32_t args_size;	  /**< the device's argument block size */
	uint8_t args[HP_MBOX_ARGS_MAX];
	uint64_t set;			     /**< bit i: argument i set */
	uint32_t local_size[HP_CL_ARGS_MAX]; /**< __local arguments' sizes */
	/* built-in kernels: raw argument bytes */
	uint8_t *raw[ICD_RAW_ARGS];
	uint32_t raw_size[ICD_RAW_ARGS];
	unsigned raw_count;
	/** argument i's buffer (OpenCL C: __global / __constant pointers;
	 * built-in kernels: 8-byte values that were a live cl_mem) */
	struct icd_arg_mem arg_mem[HP_CL_ARGS_MAX];
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
};

/* ---- icd.c: lock, device, helpers ---- */
void icd_lock(void);
void icd_unlock(void);
extern struct _cl_platform_id icd_platform;
extern struct _cl_device_id icd_device;
/** Boot or connect the device if not yet: CL_SUCCESS or an error. */
cl_int icd_device_open(void);
/** A kernel's time limit when neither HARTPOOL_TIMEOUT nor icd.conf gives
 * one (docs/icd.md, "Time limits"). */
#define ICD_TIMEOUT_DEFAULT_S 60u
/** CL_DEVICE_MAX_MEM_ALLOC_SIZE: the heap less what the ICD keeps for
 * itself (ICD_HEAP_RESERVE). */
cl_ulong icd_max_alloc(void);
/** The ICD's own buffers a largest allocation must leave room for: printf
 * buffers of kernels in flight, a kernel object's staging copy. */
#define ICD_HEAP_RESERVE (8ull << 20)
cl_ulong icd_now_ns(void);
/** clGet*Info's copy-out: CL_INVALID_VALUE when @p size is too small. */
cl_int icd_info(const void *src, size_t n, size_t size, void *value,
		size_t *ret);
#define ICD_INFO_T(T, v)                                                       \
	do {                                                                   \
		T v_ = (v);                                                    \
		return icd_info(&v_, sizeof(v_), size, value, ret);            \
	} while (0)
#define ICD_INFO_STR(s)                                                        \
	do {                                                                   \
		const char *s_ = (s);                                          \
		return icd_info(s_, strlen(s_) + 1, size, value, ret);         \
	} while (0)
/** The error of libhartpool's last failure as an OpenCL code (same values;
 * unknown device-only codes become CL_OUT_OF_RESOURCES). */
cl_int icd_err(int hp);

/* checks (the lock held) */
bool icd_valid_ctx(cl_context c);
bool icd_valid_queue(cl_command_queue q);
bool icd_valid_mem(cl_mem m);
bool icd_valid_event(cl_event e);
bool icd_valid_program(cl_program p);
bool icd_valid_kernel(cl_kernel k);
bool icd_valid_device(cl_device_id d);

/* ---- lifetimes: X_retain / X_release are the application's (clRetainX,
 * clReleaseX), X_hold / X_drop the ICD's own (an object or command that
 * uses X) ---- */
void icd_ctx_retain(cl_context c);
void icd_ctx_release(cl_context c);
void icd_ctx_hold(cl_context c);
void icd_ctx_drop(cl_context c);
void icd_queue_hold(cl_command_queue q);
void icd_queue_drop(cl_command_queue q);

cl_int CL_API_CALL clGetKernelSubGroupInfo(cl_kernel, cl_device_id,
					   cl_kernel_sub_group_info, size_t,
					   const void *, size_t, void *,
					   size_t *);

/* ---- event.c ---- */
/** A user event (@p q NULL: the application's reference) or a command's
 * event (the caller's hold; icd_submit gives the application a reference
 * when it asks for the event). */
cl_event icd_event_new(cl_context ctx, cl_command_queue q,
		       cl_command_type type);
void icd_event_retain(cl_event e);
void icd_event_release(cl_event e);
void icd_event_hold(cl_event e);
void icd_event_drop(cl_event e);
/** The event's state now (queries the device for submitted ones; runs
 * callbacks and prints printf output of newly completed commands). */
cl_int icd_event_poll(cl_event e);
/** Wait for completion; CL_SUCCESS or an error of the waiting. */
cl_int icd_event_wait(cl_event e);
/** Mark complete with @p status (host commands) and run callbacks. */
void icd_event_complete(cl_event e, cl_int status);
/** Check a wait list: CL_INVALID_EVENT_WAIT_LIST / CL_INVALID_CONTEXT. */
cl_int icd_check_wait(cl_context ctx, cl_uint n, const cl_event *w);
/** Enqueue a command: runs it now when its wait list allows, else holds it
 * on the host. Takes ownership of @p c; sets *out (may be NULL) to a new
 * reference of its event. */
cl_int icd_submit(cl_command_queue q, struct icd_cmd *c, cl_uint nw,
		  const cl_event *w, cl_command_type type, cl_event *out);
/** For host-side commands run: wait for the dependency events. */
cl_int icd_wait_deps(const hp_event *deps, unsigned n);
/** Wait for the device commands of @p q submitted so far:
 * CL_DEVICE_NOT_AVAILABLE if the device is gone, else CL_SUCCESS. */
cl_int icd_queue_drain(cl_command_queue q);
/** Free a command that was not submitted, or is done: its wait list, what
 * it holds, its event reference. */
void icd_cmd_free(struct icd_cmd *c);
/** Submit whatever held commands can go now (all queues). */
void icd_progress(void);
void icd_queue_reap(cl_command_queue q);
/** Wait for everything enqueued on @p q. */
cl_int icd_queue_finish(cl_command_queue q);
hp_buffer icd_printf_get(cl_command_queue q);
#define ICD_PRINTF_SIZE (64u * 1024u)
/** Idle printf buffers a queue keeps for its next launches. */
#define ICD_PRINTF_IDLE_MAX 4u

/* ---- queue list (context.c) ---- */
extern cl_command_queue *icd_queues;
extern size_t icd_num_queues;

/* ---- program.c ---- */
/** The argument block of a launch of @p k into @p out; the buffers its
 * arguments name go into @p hold (retained). CL_INVALID_KERNEL_ARGS for
 * an argument not set, or a buffer released since it was set. */
cl_int icd_kernel_pack(cl_kernel k, uint8_t *out, uint32_t *size,
		       uint32_t *local_bytes, struct icd_hold *hold);
void icd_kernel_retain(cl_kernel k);
void icd_kernel_release(cl_kernel k);
void icd_kernel_hold(cl_kernel k);
void icd_kernel_drop(cl_kernel k);
void icd_mem_retain(cl_mem m);
void icd_mem_release(cl_mem m);
void icd_mem_hold(cl_mem m);
void icd_mem_drop(cl_mem m);
void icd_program_retain(cl_program p);
void icd_program_release(cl_program p);
void icd_program_hold(cl_program p);
void icd_program_drop(cl_program p);

#endif
