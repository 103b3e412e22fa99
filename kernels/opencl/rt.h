/* SPDX-License-Identifier: MIT */
/*
 * The run-time core of OpenCL kernels (docs/opencl.md): what the generated
 * entries and the built-ins share. While OpenCL code runs, tp points at the
 * work-item's hpcl_ctx.
 */
#ifndef HPCL_RT_H
#define HPCL_RT_H

#include <hartpool/kernel.h>

typedef struct hpcl_ctx {
	void *fw_tp;	   /* the firmware's tp (traps, firmware calls) */
	const hp_item *it; /* this work-item */
	char *local;	   /* the work-group's local memory */
	char *dyn_local;   /* where __local arguments start */
} hpcl_ctx;

/* Bytes of hpcl_ctx the generated entry reserves (any XLEN). */
#define HPCL_CTX_BYTES 32

static inline __attribute__((always_inline)) hpcl_ctx *hpcl_cur(void)
{
	hpcl_ctx *c;
	__asm__("mv %0, tp" : "=r"(c));
	return c;
}
static inline __attribute__((always_inline)) void hpcl_set_tp(void *p)
{
	__asm__ volatile("mv tp, %0" : : "r"(p) : "memory");
}
/* Run `expr` with the firmware's tp, then put this work-item's back (a
 * barrier inside lets other work-items run, which set theirs). */
#define HPCL_FW(c, expr)                                                       \
	do {                                                                   \
		hpcl_set_tp((c)->fw_tp);                                       \
		expr;                                                          \
		hpcl_set_tp(c);                                                \
	} while (0)

#endif
