/* SPDX-License-Identifier: MIT */
/**
 * @file libhartpool-icd internals: the OpenCL objects over libhartpool
 * (docs/icd.md). Every object starts with the loader's dispatch pointer,
 * then a magic word that tells the handle kinds apart.
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
};

struct _cl_context {
	struct _cl_icd_dispatch *dispatch;
	uint32_t magic;
	cl_uint refs;
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
	struct _cl_icd_dispatch *dispatch;
	uint32_t magic;
	cl_uint refs;
	cl_uint event_refs; /**< events naming it (freed when both 0) */
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
	hp_buffer *printf_free; /**< idle printf buffers */
	size_t num_printf_free, cap_printf_free;
};

struct _cl_mem {
	struct _cl_icd_dispatch *dispatch;
	uint32_t magic;
	cl_uint refs;
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
	struct _cl_icd_dispatch *dispatch;
	uint32_t magic;
	cl_uint refs;
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

struct _cl_kernel {
	struct _cl_icd_dispatch *dispatch;
	uint32_t magic;
	cl_uint refs;
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
};

struct icd_callback {
	struct icd_callback *next;
	cl_int type;
	void(CL_CALLBACK *fn)(cl_event, cl_int, void *);
	void *data;
};

struct _cl_event {
	struct _cl_icd_dispatch *dispatch;
	uint32_t magic;
	cl_uint refs;
	cl_context ctx;
	cl_command_queue queue; /**< NULL: a user event */
	cl_command_type type;
	cl_int status;	/**< CL_QUEUED .. CL_COMPLETE, or an error (< 0) */
	bool on_device; /**< dev is a device event (submitted) */
	hp_event dev;
	cl_ulong t_queued, t_submit, t_start, t_end; /**< ns */
	struct icd_callback *callbacks;
	hp_buffer printf_buf; /**< 0: none */
};

/* ---- icd.c: lock, device, helpers ---- */
void icd_lock(void);
void icd_unlock(void);
extern struct _cl_platform_id icd_platform;
extern struct _cl_device_id icd_device;
/** Boot or connect the device if not yet: CL_SUCCESS or an error. */
cl_int icd_device_open(void);
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

/* ---- context.c ---- */
void icd_ctx_retain(cl_context c);
void icd_ctx_release(cl_context c);
/** An event of @p q is gone. */
void icd_queue_unref(cl_command_queue q);

cl_int CL_API_CALL clGetKernelSubGroupInfo(cl_kernel, cl_device_id,
					   cl_kernel_sub_group_info, size_t,
					   const void *, size_t, void *,
					   size_t *);

/* ---- event.c ---- */
cl_event icd_event_new(cl_context ctx, cl_command_queue q,
		       cl_command_type type);
void icd_event_retain(cl_event e);
void icd_event_release(cl_event e);
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
/** Submit whatever held commands can go now (all queues). */
void icd_progress(void);
void icd_queue_reap(cl_command_queue q);
/** Wait for everything enqueued on @p q. */
cl_int icd_queue_finish(cl_command_queue q);
hp_buffer icd_printf_get(cl_command_queue q);
#define ICD_PRINTF_SIZE (64u * 1024u)

/* ---- queue list (context.c) ---- */
extern cl_command_queue *icd_queues;
extern size_t icd_num_queues;

/* ---- program.c ---- */
cl_int icd_kernel_pack(cl_kernel k, uint8_t *out, uint32_t *size,
		       uint32_t *local_bytes);
void icd_kernel_retain(cl_kernel k);
void icd_kernel_release(cl_kernel k);
void icd_mem_retain(cl_mem m);
void icd_mem_release(cl_mem m);
/** Is @p m a live buffer (without dereferencing it)? */
bool icd_mem_live(cl_mem m);
void icd_program_retain(cl_program p);
void icd_program_release(cl_program p);

#endif
