// SPDX-License-Identifier: MIT
/* ids: every work-item writes every work-item function's value (the
 * `hartpool ids` CSV columns) at its global linear id, and counts itself. */
#include <hartpool/ids.h>
#include <hartpool/kernel.h>

HP_KERNEL(ids, const hp_item *it, const void *args)
{
	const hp_ids_args *a = args;
	size_t glin = hp_global_linear_id(it);
	uint64_t *r = (uint64_t *)(uintptr_t)a->records + glin * HP_IDS_NCOLS;
	for (unsigned d = 0; d < 3; d++) {
		r[HP_IDS_GID0 + d] = hp_global_id(it, d);
		r[HP_IDS_LID0 + d] = hp_local_id(it, d);
		r[HP_IDS_WID0 + d] = hp_group_id(it, d);
		r[HP_IDS_GSZ0 + d] = hp_global_size(it, d);
		r[HP_IDS_LSZ0 + d] = hp_local_size(it, d);
		r[HP_IDS_ELSZ0 + d] = hp_enqueued_local_size(it, d);
		r[HP_IDS_NGRP0 + d] = hp_num_groups(it, d);
		r[HP_IDS_GOFF0 + d] = hp_global_offset(it, d);
	}
	r[HP_IDS_GLIN] = glin;
	r[HP_IDS_LLIN] = hp_local_linear_id(it);
	r[HP_IDS_DIM] = hp_work_dim(it);
	r[HP_IDS_SGID] = hp_sub_group_id(it);
	r[HP_IDS_SGLID] = hp_sub_group_local_id(it);
	r[HP_IDS_SGSZ] = hp_sub_group_size(it);
	r[HP_IDS_SGMAX] = hp_max_sub_group_size(it);
	r[HP_IDS_NSG] = hp_num_sub_groups(it);
	r[HP_IDS_ENSG] = hp_enqueued_num_sub_groups(it);
	r[HP_IDS_HART] = hp_hart();
	hp_atomic_add_uint((uint32_t *)(uintptr_t)a->counts + glin, 1);
}
HP_REGISTER(ids, .args_size = sizeof(hp_ids_args),
	    HP_BUFFERS(HP_BUF(hp_ids_args, records, hp_ids_record, ITEMS, 0),
		       HP_BUF(hp_ids_args, counts, uint32_t, ITEMS, 0)));
