// SPDX-License-Identifier: MIT
/* Buffers over the devices of a context (docs/icd.md, "Several devices"):
 * a buffer has a copy on each device that used it (allocated there when
 * first needed), and knows which copies are current. A command on a device
 * first makes its buffers current there, copied through the host from a
 * device that holds them; a command that may write a buffer leaves its
 * device's copy the only current one. A context of one device never
 * copies. */
#include "core.h"
#include <stdlib.h>
#include <string.h>

cl_mem icd_mem_root(cl_mem m)
{
	return m->parent ? m->parent : m;
}

cl_int icd_mem_failed(int rc, const char *fn, size_t size, cl_device_id d)
{
	bool gone = rc == HP_DEVICE_NOT_AVAILABLE;
	return icd_fail(gone ? CL_DEVICE_NOT_AVAILABLE
			     : CL_MEM_OBJECT_ALLOCATION_FAILURE,
			gone ? "CL_DEVICE_NOT_AVAILABLE"
			     : "CL_MEM_OBJECT_ALLOCATION_FAILURE",
			fn, "a buffer of %zu bytes on device %u ('%s'): %s",
			size, d->index, d->spec, hp_last_error());
}

cl_int icd_mem_addr(cl_mem m, cl_device_id d, hp_buffer *addr)
{
	cl_mem r = icd_mem_root(m);
	if (!r->at[d->index]) {
		int rc = hp_buffer_alloc(d->hp, r->size, &r->at[d->index]);
		if (rc) {
			r->at[d->index] = 0;
			return icd_mem_failed(rc, __func__, r->size, d);
		}
	}
	*addr = r->at[d->index] + (m->parent ? m->origin : 0);
	return CL_SUCCESS;
}

/* The largest piece a copy between devices stages on the host. */
#define MOVE_CHUNK (4u << 20)

/* Copy @p r from device @p s to @p d through the host. */
static cl_int copy_over(cl_mem r, cl_device_id s, cl_device_id d)
{
	size_t chunk = r->size < MOVE_CHUNK ? r->size : MOVE_CHUNK;
	char *b = malloc(chunk);
	if (!b)
		return CL_OUT_OF_HOST_MEMORY;
	int rc = 0;
	for (size_t o = 0; !rc && o < r->size; o += chunk) {
		size_t n = r->size - o < chunk ? r->size - o : chunk;
		rc = hp_buffer_read(s->hp, r->at[s->index], o, b, n);
		if (!rc)
			rc = hp_buffer_write(d->hp, r->at[d->index], o, b, n);
	}
	free(b);
	if (rc)
		return icd_fail(CL_DEVICE_NOT_AVAILABLE,
				"CL_DEVICE_NOT_AVAILABLE", __func__,
				"copying a buffer of %zu bytes from device %u "
				"to %u: %s",
				r->size, s->index, d->index, hp_last_error());
	return CL_SUCCESS;
}

cl_int icd_mem_move(cl_mem m, cl_device_id d, bool write, bool copy,
		    size_t *moved)
{
	cl_mem r = icd_mem_root(m);
	uint32_t bit = 1u << d->index;
	hp_buffer a;
	cl_int rc = icd_mem_addr(r, d, &a);
	if (rc)
		return rc;
	if (!(r->valid & bit)) {
		cl_device_id src = NULL;
		ICD_EACH_DEVICE(s, copy ? r->valid : 0)
		if (!src && r->at[s->index])
			src = s;
		if (src && (rc = copy_over(r, src, d)))
			return rc;
		r->valid |= bit;
		*moved += src ? r->size : 0;
	}
	if (write)
		r->valid = bit;
	return CL_SUCCESS;
}

void icd_mem_free(cl_mem r)
{
	ICD_EACH_DEVICE(d, ~0u)
	if (r->at[d->index]) {
		hp_buffer_free(d->hp, r->at[d->index]);
		r->at[d->index] = 0;
	}
}
