/* SPDX-License-Identifier: MIT */
/**
 * @file An independent reference model of the OpenCL 3.0 NDRange
 * work-item rules (spec §3.2.1, clEnqueueNDRangeKernel, the work-item and
 * sub-group built-ins), used to check what the diagnostic kernel `ids`
 * wrote (include/hartpool/ids.h). Written from the specification, not
 * from the executor. Builds on the host and bare metal: no allocation, no
 * floating point, all arithmetic in uint64_t.
 */
#ifndef TESTS_COMMON_NDREF_H
#define TESTS_COMMON_NDREF_H

#include <hartpool/ids.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** One launch of the `ids` kernel, as the host enqueued it. */
typedef struct {
	unsigned work_dim;  /**< 1..3 as launched */
	uint64_t global[3]; /**< global sizes; entries >= work_dim ignored */
	uint64_t offset[3]; /**< global offsets; entries >= work_dim ignored */
	bool local_given;   /**< host passed a local size */
	uint64_t local[3];  /**< used only when local_given; entries >=
				 work_dim ignored */
	uint64_t reqd[3];   /**< kernel reqd_work_group_size; all 0 = none.
				 Compared as a 3-tuple */
	uint64_t kernel_max_wg;	  /**< kernel max_work_group_size; 0 = none */
	bool uniform;		  /**< -cl-uniform-work-group-size behaviour */
	unsigned sub_group_size;  /**< S, the sub-group size the launch used */
	unsigned harts;		  /**< the hart column must be < this */
	uint64_t dev_max_wg;	  /**< device max work-group size */
	uint64_t dev_max_item[3]; /**< device max work-item sizes */
} ndref_launch;

/**
 * Number of work-items of the launch: the product of the global sizes of
 * the used dimensions; 0 if one of them is 0 or work_dim is not 1..3;
 * UINT64_MAX if the product does not fit.
 */
uint64_t ndref_items(const ndref_launch *l);

/**
 * Checks the records of a launch. records: n * HP_IDS_NCOLS uint64_t, record
 * i at records + i * HP_IDS_NCOLS is the one the work-item with
 * global_linear_id i wrote; counts[i] is how many times work-item i ran
 * (must be exactly 1).
 *
 * Order of the checks: the launch itself (work_dim, sub_group_size, a given
 * local size of 0, n == ndref_items()), then every count, then the local
 * size the implementation chose (taken from record 0; only when
 * !local_given), then the records in index order, columns in HP_IDS order.
 *
 * Returns 0 if everything is right, else -1 with a one-line description of
 * the first problem in msg (e.g. "item 17: lid1 is 3, expected 2"),
 * truncated to msglen - 1 characters; msg may be NULL when msglen is 0.
 */
int ndref_check(const ndref_launch *l, const uint64_t *records,
		const uint32_t *counts, uint64_t n, char *msg, size_t msglen);

/**
 * Fills records/counts (ndref_items(l) of each) with what a correct
 * implementation writes for the enqueued local size elsz[3] (entries >=
 * work_dim ignored; hart column = i % harts; counts all 1). elsz[d] of 0,
 * sub_group_size 0 or harts 0 are taken as 1 so that nothing divides by
 * zero. Used by test_ndref to test the checker.
 */
void ndref_expected(const ndref_launch *l, const uint64_t elsz[3],
		    uint64_t *records, uint32_t *counts);

#endif
