// SPDX-License-Identifier: MIT
/*
 * libhartpool's kernels (internal.h): the device's kernel table (built-in
 * kernels, then those of loaded objects; a copy refreshed when a name or id
 * is not found) and kernel objects: uploaded into a staging buffer, loaded
 * and unloaded by the device (LOAD / UNLOAD service packets).
 */
#include "internal.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- kernels ---- */

unsigned hp_kernel_count(const hp_device *d)
{
	return d->hdr.num_kernels;
}

const hp_mbox_kernel *hp_kernel_at(const hp_device *d, unsigned id)
{
	unsigned row = HP_KERNEL_ROW(id);
	return row < d->hdr.num_kernels && d->kernels[row].name[0]
		       ? &d->kernels[row]
		       : NULL;
}

/* Row `row` as a kernel id (with its object's generation). */
static uint32_t row_id(const hp_device *d, unsigned row)
{
	uint32_t f = d->kernels[row].flags;
	return HP_KERNEL_ID(row, f & HP_KFLAG_LOADED ? HP_KFLAG_GEN(f) : 0);
}

/* The row called `name` (of object `obj` if `scoped`), or -1. */
static int find_row(const hp_device *d, const char *name, bool scoped,
		    hp_object obj)
{
	for (unsigned i = 0; i < d->hdr.num_kernels; i++) {
		const hp_mbox_kernel *k = &d->kernels[i];
		if (!k->name[0] || strncmp(k->name, name, sizeof(k->name)) != 0)
			continue;
		if (!scoped || ((k->flags & HP_KFLAG_LOADED) &&
				HP_KFLAG_SLOT(k->flags) == HP_KERNEL_ROW(obj) &&
				HP_KFLAG_GEN(k->flags) == HP_KERNEL_GEN(obj)))
			return (int)i;
	}
	return -1;
}

int hp_kernel_find(hp_device *d, const char *name, uint32_t *id)
{
	int row = find_row(d, name, false, 0);
	if (row < 0 && !hp_dev_kernels_refresh(d))
		row = find_row(d, name, false, 0);
	if (row < 0)
		return hp_fail(HP_INVALID_KERNEL,
			       "the device has no kernel called '%s'", name);
	*id = row_id(d, (unsigned)row);
	return 0;
}

/* The row of kernel id @p id (its object's generation checked), or NULL. */
static const hp_mbox_kernel *kernel_row(const hp_device *d, uint32_t id)
{
	const hp_mbox_kernel *k = hp_kernel_at(d, id);
	if (!k)
		return NULL;
	uint32_t gen = k->flags & HP_KFLAG_LOADED ? HP_KFLAG_GEN(k->flags) : 0;
	return gen == HP_KERNEL_GEN(id) ? k : NULL;
}

int hp_kernel_work_group_size(hp_device *d, uint32_t kernel, uint32_t *out)
{
	const hp_mbox_kernel *k = kernel_row(d, kernel);
	if (!k && !hp_dev_kernels_refresh(d))
		k = kernel_row(d, kernel);
	if (!k)
		return hp_fail(
			HP_INVALID_KERNEL,
			"no kernel of id %#x on the device (row %u of %u)",
			kernel, HP_KERNEL_ROW(kernel), d->hdr.num_kernels);
	*out = k->work_group_size;
	return 0;
}

/* ---- kernel objects ---- */

int hp_object_load(hp_device *d, const void *data, size_t size, hp_object *out,
		   uint64_t *load_addr)
{
	hp_buffer b;
	int rc = hp_buffer_alloc(d, size ? size : 1, &b);
	if (rc)
		return rc;
	rc = hp_buffer_write(d, b, 0, data, size);
	hp_event_info info;
	if (!rc)
		rc = hp_service(d, HP_PKT_LOAD, 0, b, size, &info);
	/* The device copied what it needed: the staging buffer can go. */
	char msg[512];
	snprintf(msg, sizeof(msg), "%s", hp_last_error());
	int rc2 = hp_buffer_free(d, b);
	if (rc) {
		hp_fail(rc, "%s", msg);
		return rc;
	}
	if (rc2)
		return rc2;
	*out = info.result;
	if (load_addr)
		*load_addr = info.result2;
	return hp_dev_kernels_refresh(d);
}

int hp_object_load_file(hp_device *d, const char *path, hp_object *out,
			uint64_t *load_addr)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return hp_fail(HP_INVALID_VALUE, "cannot open %s: %s", path,
			       strerror(errno));
	/* Read it all (a kernel object is at most a few MiB). */
	size_t cap = 1 << 16, n = 0;
	uint8_t *buf = malloc(cap);
	for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
		n += got;
		if (n == cap) {
			if (cap >= (64u << 20))
				break;
			uint8_t *nb = realloc(buf, cap *= 2);
			if (!nb) {
				free(buf);
				buf = NULL;
			}
			buf = nb;
		}
	}
	bool err = ferror(f);
	fclose(f);
	if (!buf || err) {
		free(buf);
		return hp_fail(HP_INVALID_VALUE, "cannot read %s", path);
	}
	int rc = hp_object_load(d, buf, n, out, load_addr);
	free(buf);
	if (rc) {
		char msg[512];
		snprintf(msg, sizeof(msg), "%s", hp_last_error());
		return hp_fail(rc, "%s: %s", path, msg);
	}
	return 0;
}

int hp_object_unload(hp_device *d, hp_object obj)
{
	hp_event_info info;
	int rc = hp_service(d, HP_PKT_UNLOAD, obj, 0, 0, &info);
	return rc ? rc : hp_dev_kernels_refresh(d);
}

int hp_object_kernel(hp_device *d, hp_object obj, const char *name,
		     uint32_t *id)
{
	int row = find_row(d, name, true, obj);
	if (row < 0 && !hp_dev_kernels_refresh(d))
		row = find_row(d, name, true, obj);
	if (row < 0)
		return hp_fail(HP_INVALID_KERNEL,
			       "the kernel object (handle %#llx) has no kernel "
			       "called '%s'",
			       (unsigned long long)obj, name);
	*id = row_id(d, (unsigned)row);
	return 0;
}
