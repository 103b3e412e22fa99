/* SPDX-License-Identifier: MIT */
/*
 * What the kernel library's workloads (kernels/<name>/workload.c) share
 * (lib_common.c): test data from
 * the seed (element i of stream `which`: splitmix64 of the seed), the
 * workload's own small range with remainder groups when --global was not
 * given, and float and integer checks against the host reference.
 *
 * Float references add in the kernel's order; they differ from the device
 * only where the device fuses a*b + c (RV64 has fmadd.s, the host build and
 * RV32's soft-float do not), so the tolerances are error bounds of the
 * fused and the unfused sums against each other, relative to the terms'
 * magnitudes. `--arg exact=1` asks for the same bits instead.
 */
#ifndef HOST_WORKLOADS_LIB_COMMON_H
#define HOST_WORKLOADS_LIB_COMMON_H

#include "workloads.h"

uint64_t wl_rnd(const workload_ctx *c, uint64_t i, unsigned which);
float wl_rnd_float(const workload_ctx *c, uint64_t i, unsigned which);
int32_t wl_rnd_int(const workload_ctx *c, uint64_t i, unsigned which);
double wl_farg(const workload_ctx *c, const char *name, double dflt);
bool wl_exact(const workload_ctx *c);
int wl_range(workload_ctx *c, unsigned dims, uint64_t g0, uint64_t g1,
	     uint64_t l0, uint64_t l1);
int wl_one_d(workload_ctx *c);
uint64_t wl_dim(const workload_ctx *c, unsigned d);
int wl_fcheck(workload_ctx *c, const char *what, uint64_t i, float got,
	      float want, double tol);
int wl_icheck(workload_ctx *c, const char *what, uint64_t i, uint32_t got,
	      uint32_t want);
hp_ndrange wl_seq_range(const workload_ctx *c, uint64_t global, uint64_t local);
int wl_kernel_id(workload_ctx *c, const char *name, uint32_t *id);
/* Launch sequences (reduce_wg, scan): the local size of the first launch,
 * which the host chooses (the partials must be counted before it), and the
 * groups of n items in groups of l. */
uint64_t wl_seq_local(const workload_ctx *c);
uint64_t wl_groups_of(uint64_t n, uint64_t l);
/* The most levels of partials a sequence keeps. */
#define WL_MAX_LEVELS 64

#define RANGE(c, ...)                                                          \
	do {                                                                   \
		int rc_ = wl_range((c), __VA_ARGS__);                          \
		if (rc_)                                                       \
			return rc_;                                            \
	} while (0)
#define NEED_1D(c)                                                             \
	do {                                                                   \
		int rc_ = wl_one_d(c);                                         \
		if (rc_)                                                       \
			return rc_;                                            \
	} while (0)

/* 2^-23: twice the unit roundoff of float. */
#define ULP2 (1.0 / 8388608.0)

#endif
