/* SPDX-License-Identifier: MIT */
/**
 * @file libhartpool-icd's API files (docs/icd.md, "Inside the ICD"): what
 * they share over the core (core/core.h). An entry point takes the lock,
 * checks its arguments (FAIL_IF: every failed check says why), calls the
 * core and hands a failure's sentence to the context (icd_fail_deliver).
 */
#ifndef HARTPOOL_ICD_H
#define HARTPOOL_ICD_H

#include "core/core.h"
#include <CL/cl_ext.h>

#define ICD_EXPORT __attribute__((visibility("default")))

extern struct _cl_icd_dispatch icd_dispatch;

/* clRetainX / clReleaseX: under the lock, a valid handle gets @p act
 * (icd_retain, icd_release), an invalid one the error @p invalid. */
#define ICD_REFCOUNT_CALL(fn, type, magic, act, invalid)                       \
	ICD_EXPORT cl_int CL_API_CALL fn(type h)                               \
	{                                                                      \
		icd_lock();                                                    \
		cl_int rc = CL_SUCCESS;                                        \
		if (icd_obj_valid(h, magic))                                   \
			act(h);                                                \
		else                                                           \
			rc = icd_fail(invalid, #invalid, #fn,                  \
				      "%p is not a live handle", (void *)h);   \
		icd_unlock();                                                  \
		return rc;                                                     \
	}

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

/* handle checks (the lock held) */
static inline bool icd_valid_ctx(cl_context c)
{
	return icd_obj_valid(c, MAGIC_CONTEXT);
}
static inline bool icd_valid_queue(cl_command_queue q)
{
	return icd_obj_valid(q, MAGIC_QUEUE);
}
static inline bool icd_valid_mem(cl_mem m)
{
	return icd_obj_valid(m, MAGIC_MEM);
}
static inline bool icd_valid_event(cl_event e)
{
	return icd_obj_valid(e, MAGIC_EVENT);
}
static inline bool icd_valid_program(cl_program p)
{
	return icd_obj_valid(p, MAGIC_PROGRAM);
}
static inline bool icd_valid_kernel(cl_kernel k)
{
	return icd_obj_valid(k, MAGIC_KERNEL);
}

cl_int CL_API_CALL clGetKernelSubGroupInfo(cl_kernel, cl_device_id,
					   cl_kernel_sub_group_info, size_t,
					   const void *, size_t, void *,
					   size_t *);
cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint, cl_platform_id *, cl_uint *);

/* the kinds of the objects the API files make (queues and events: the
 * core's) */
extern const struct icd_kind icd_kind_context, icd_kind_mem, icd_kind_program,
	icd_kind_kernel;

/* ---- context.c ---- */
/** Every one of @p devs (@p n) is a device of @p of (a context's or a
 * program's devices, @p what names it): CL_INVALID_DEVICE naming the first
 * that is not. Their bits into *@p mask (may be NULL). */
cl_int icd_devs_in(uint32_t of, const char *what, cl_uint n,
		   const cl_device_id *devs, uint32_t *mask);
/** clSetContextDestructorCallback, clSetMemObjectDestructorCallback. */
cl_int icd_set_destructor(void *o, uint32_t magic,
			  void(CL_CALLBACK *fn)(void *, void *), void *data);

/* ---- program.c: for program_build.c ---- */
cl_program icd_prog_new(cl_context c, enum prog_kind kind);
/** Free a program that was not handed out (its creation failed). */
void icd_prog_free(cl_program p);
/** clCompileProgram's embedded headers. */
struct icd_headers {
	const char **names, **sources;
	size_t *lengths;
	unsigned n;
};
/** Inputs of one clLinkProgram at most. */
#define ICD_LINK_INPUTS_MAX 64u
/** Build p's source or module for each device of @p mask (HP_CL_BUILD:
 * an executable; HP_CL_COMPILE: a compiled object, with @p h's headers
 * (may be NULL)), its objects, options and log replaced. */
cl_int icd_prog_compile(cl_program p, const char *opts, uint32_t mask,
			unsigned mode, const struct icd_headers *h);
/** Link @p ni compiled objects and libraries into @p p's objects, per
 * device of @p mask that they have objects for. */
cl_int icd_prog_link(cl_program p, const char *opts, cl_uint ni,
		     const cl_program *in, uint32_t mask);
/** Load what a build made; @p failure for a device's refusal. */
cl_int icd_prog_load_built(cl_program p, cl_int failure);
/** clBuildProgram's and clCompileProgram's common checks. */
cl_int icd_prog_check_build(cl_program p, cl_uint n, const cl_device_id *devs,
			    bool notify, void *data, uint32_t *mask);
/** A build's end: status, binary type, a failure said. */
cl_int icd_prog_built(cl_program p, cl_int rc, cl_program_binary_type type);
/** An IL program's module with its specialization constants set (a
 * malloc'd copy of p->il_size bytes; NULL: out of memory). */
void *icd_prog_il(cl_program p);
/** Unload its kernel object, forget its metadata and kernel names. */
void icd_prog_unload(cl_program p);

/* ---- memory.c, svm.c ---- */
/** A new buffer's serial (struct icd_arg_mem). */
uint64_t icd_mem_serial(void);

/* ---- transfer.c: maps, for svm.c too ---- */
/** Map [off, off + size) of @p m (checked): the host memory (m->host_ptr's,
 * else a shadow copy) gets the bytes when the command (@p type) runs; the
 * mapping is recorded at once, its address into *@p ptr. */
cl_int icd_mem_map(cl_command_queue q, cl_mem m, cl_bool block,
		   cl_map_flags flags, size_t off, size_t size, cl_uint nw,
		   const cl_event *w, cl_event *ev, cl_command_type type,
		   void **ptr);
/** The record of @p m's mapping at @p ptr, NULL if none. */
struct icd_map **icd_mem_map_of(cl_mem m, const void *ptr);
/** Unmap the mapping *@p pp (a command of @p type: written back if it
 * was mapped for writing). */
cl_int icd_mem_unmap(cl_command_queue q, cl_mem m, struct icd_map **pp,
		     cl_uint nw, const cl_event *w, cl_event *ev,
		     cl_command_type type);

/* ---- event.c ---- */
/** Check a wait list: CL_INVALID_EVENT_WAIT_LIST / CL_INVALID_CONTEXT. */
cl_int icd_check_wait(cl_context ctx, cl_uint n, const cl_event *w);

/* ---- kernel.c: what a launch needs of its kernel ---- */
/** clSetKernelArg of a built-in kernel: raw bytes (an 8-byte live cl_mem
 * becomes its address at the launch). */
cl_int icd_kernel_set_raw(cl_kernel k, cl_uint i, size_t size,
			  const void *value);
/** The kernel's reqd_work_group_size on @p d (0s: none). */
void icd_kernel_reqd(cl_kernel k, cl_device_id d, size_t out[3]);
/** Does the program require uniform work-groups: OpenCL C 1.x (the default
 * -cl-std) or -cl-uniform-work-group-size. */
bool icd_kernel_uniform(cl_kernel k);

/* ---- ndrange.c: the launch checks ---- */
/** What a launch's sizes are checked against: the device and the kernel. */
struct icd_ndrange_limits {
	unsigned max_work_dim;
	unsigned address_bits;
	uint64_t max_work_item_sizes[3];
	uint64_t max_work_group_size; /**< the kernel's
					 (hp_kernel_work_group_size) */
	size_t reqd[3];		      /**< reqd_work_group_size; 0s: none */
	bool uniform;		      /**< uniform work-groups required */
};
/** Check an NDRange as OpenCL 3.0 asks (clEnqueueNDRangeKernel) and fill
 * @p r's work_dim, global, offset, local, local_given and uniform.
 * CL_SUCCESS, or the error with its reason in @p why. */
cl_int icd_ndrange_check(const struct icd_ndrange_limits *lim, cl_uint dim,
			 const size_t *offset, const size_t *global,
			 const size_t *local, hp_ndrange *r, char *why,
			 size_t whylen);

#endif
