// SPDX-License-Identifier: MIT
/* Failures (docs/icd.md, "Why a call failed"). Every check of the ICD is a
 * FAIL_IF: a failed one records a sentence that names the values it
 * checked ("size 0 is not in 1..1866465280 (CL_DEVICE_MAX_MEM_ALLOC_SIZE)
 * (CL_INVALID_BUFFER_SIZE)"). It goes to stderr, after the name of the
 * function that checked, when HARTPOOL_ICD_DEBUG is set, and the entry
 * point hands it to its context's pfn_notify (the callback of
 * clCreateContext / clCreateContextFromType) as errinfo. A failure before
 * there is a context (clGetPlatformIDs, clCreateContext's own checks) goes
 * to the debug output only. */
#include "core.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WHY_MAX 512

/* The entry point's failure, per thread: the lock is dropped in waits, so
 * two threads may fail at once. */
static __thread char why[WHY_MAX];
static __thread cl_int why_code;
static __thread bool why_pending;
static __thread unsigned why_gen; /* icd_lock_gen when recorded */

static bool debug_on(void)
{
	const char *d = getenv("HARTPOOL_ICD_DEBUG");
	return d && *d && strcmp(d, "0");
}

cl_int icd_fail(cl_int code, const char *name, const char *fn, const char *fmt,
		...)
{
	char text[WHY_MAX - 96];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof(text), fmt, ap);
	va_end(ap);
	snprintf(why, sizeof(why), "%s (%s)", text, name);
	why_code = code;
	why_pending = true;
	why_gen = icd_lock_gen;
	if (debug_on())
		fprintf(stderr, "hartpool-icd: %s: %s\n", fn, why);
	return code;
}

cl_context icd_ctx_of(const void *h)
{
	if (!h)
		return NULL;
	if (icd_obj_valid(h, MAGIC_CONTEXT))
		return (cl_context)h;
	if (icd_obj_valid(h, MAGIC_QUEUE))
		return ((cl_command_queue)h)->ctx;
	if (icd_obj_valid(h, MAGIC_MEM))
		return ((cl_mem)h)->ctx;
	if (icd_obj_valid(h, MAGIC_PROGRAM))
		return ((cl_program)h)->ctx;
	if (icd_obj_valid(h, MAGIC_KERNEL))
		return ((cl_kernel)h)->prog->ctx;
	if (icd_obj_valid(h, MAGIC_EVENT))
		return ((cl_event)h)->ctx;
	return NULL;
}

cl_int icd_fail_deliver(cl_context ctx, cl_int rc)
{
	bool mine = why_pending && rc != CL_SUCCESS && rc == why_code &&
		    why_gen == icd_lock_gen;
	why_pending = false;
	if (mine && ctx && icd_obj_valid(ctx, MAGIC_CONTEXT) && ctx->notify)
		ctx->notify(why, NULL, 0, ctx->notify_data);
	return rc;
}

const char *icd_fail_why(void)
{
	return why;
}

static const char *code_name(cl_int code)
{
	switch (code) {
	case CL_INVALID_VALUE:
		return "CL_INVALID_VALUE";
	case CL_INVALID_OPERATION:
		return "CL_INVALID_OPERATION";
	case CL_INVALID_CONTEXT:
		return "CL_INVALID_CONTEXT";
	case CL_INVALID_COMMAND_QUEUE:
		return "CL_INVALID_COMMAND_QUEUE";
	case CL_INVALID_MEM_OBJECT:
		return "CL_INVALID_MEM_OBJECT";
	case CL_INVALID_PROGRAM:
		return "CL_INVALID_PROGRAM";
	case CL_INVALID_KERNEL:
		return "CL_INVALID_KERNEL";
	case CL_INVALID_EVENT:
		return "CL_INVALID_EVENT";
	default:
		return "an error";
	}
}

cl_int icd_check_(const void *h, uint32_t magic, cl_int ok, cl_int invalid,
		  const char *fn)
{
	icd_lock();
	bool v = icd_obj_valid(h, magic);
	cl_int rc = v ? ok : invalid;
	if (!v)
		icd_fail(rc, code_name(rc), fn, "%p is not a live handle", h);
	else if (rc)
		icd_fail(rc, code_name(rc), fn,
			 "not supported by the device, or an argument is "
			 "missing");
	icd_fail_deliver(icd_ctx_of(h), rc);
	icd_unlock();
	return rc;
}
