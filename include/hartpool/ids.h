/* SPDX-License-Identifier: MIT */
/**
 * @file The record the diagnostic kernel `ids` writes for each work-item,
 * and the CSV columns of `hartpool ids` (docs/mailbox.md): one uint64_t per
 * column, in this order. The kernel writes the record of a work-item at
 * index global_linear_id and adds 1 to counts[global_linear_id].
 */
#ifndef HARTPOOL_IDS_H
#define HARTPOOL_IDS_H

#include <stdint.h>

/* clang-format off */
#define HP_IDS_COLUMNS(X)                                                      \
	X(GID0, "gid0") X(GID1, "gid1") X(GID2, "gid2")                        \
	X(LID0, "lid0") X(LID1, "lid1") X(LID2, "lid2")                        \
	X(WID0, "wid0") X(WID1, "wid1") X(WID2, "wid2")                        \
	X(GSZ0, "gsz0") X(GSZ1, "gsz1") X(GSZ2, "gsz2")                        \
	X(LSZ0, "lsz0") X(LSZ1, "lsz1") X(LSZ2, "lsz2")                        \
	X(ELSZ0, "elsz0") X(ELSZ1, "elsz1") X(ELSZ2, "elsz2")                  \
	X(NGRP0, "ngrp0") X(NGRP1, "ngrp1") X(NGRP2, "ngrp2")                  \
	X(GOFF0, "goff0") X(GOFF1, "goff1") X(GOFF2, "goff2")                  \
	X(GLIN, "glin") X(LLIN, "llin") X(DIM, "dim")                          \
	X(SGID, "sgid") X(SGLID, "sglid") X(SGSZ, "sgsz")                      \
	X(SGMAX, "sgmax") X(NSG, "nsg") X(ENSG, "ensg") X(HART, "hart")
/* clang-format on */

enum hp_ids_column {
#define HP_IDS_ENUM_(id, name) HP_IDS_##id,
	HP_IDS_COLUMNS(HP_IDS_ENUM_)
#undef HP_IDS_ENUM_
		HP_IDS_NCOLS
};

/** One work-item's row. */
typedef uint64_t hp_ids_record[HP_IDS_NCOLS];

/** Arguments of the `ids` kernel: device addresses. */
typedef struct {
	uint64_t records; /**< uint64_t[n][HP_IDS_NCOLS], n = global items */
	uint64_t counts;  /**< uint32_t[n], zeroed by the caller */
} hp_ids_args;

#endif
