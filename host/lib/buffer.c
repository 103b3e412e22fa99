// SPDX-License-Identifier: MIT
/*
 * libhartpool's device buffers (internal.h): allocated and freed by the
 * device (ALLOC / FREE service packets, from the heap it announced in the
 * mailbox header), read and written directly in device memory; and what
 * the host reads out of buffers: the device's INFO record and the records
 * of a kernel's hp_printf() output.
 */
#include "internal.h"
#include <stdlib.h>
#include <string.h>

/* ---- buffers ---- */

/* One of the handle's buffers (d->bufs, sorted by address). */
struct hp_buf_range {
	uint64_t addr, size;
};

/* Index of the first buffer that starts after addr. */
static size_t upper(const hp_device *d, uint64_t addr)
{
	size_t lo = 0, hi = d->num_bufs;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (d->bufs[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The handle's buffer that contains addr, or NULL. */
static const struct hp_buf_range *containing(const hp_device *d, uint64_t addr)
{
	size_t i = upper(d, addr);
	if (i == 0)
		return NULL;
	const struct hp_buf_range *b = &d->bufs[i - 1];
	return addr - b->addr < b->size ? b : NULL;
}

static int remember(hp_device *d, uint64_t addr, uint64_t size)
{
	if (d->num_bufs == d->cap_bufs) {
		size_t cap = d->cap_bufs ? 2 * d->cap_bufs : 64;
		struct hp_buf_range *n = realloc(d->bufs, cap * sizeof(*n));
		if (!n)
			return hp_fail(HP_OUT_OF_RESOURCES,
				       "out of host memory (%zu bytes for the "
				       "buffer table)",
				       cap * sizeof(*n));
		d->bufs = n;
		d->cap_bufs = cap;
	}
	size_t i = upper(d, addr);
	memmove(&d->bufs[i + 1], &d->bufs[i],
		(d->num_bufs - i) * sizeof(*d->bufs));
	d->bufs[i] = (struct hp_buf_range){addr, size};
	d->num_bufs++;
	return 0;
}

static void forget(hp_device *d, uint64_t addr)
{
	size_t i = upper(d, addr);
	if (i == 0 || d->bufs[i - 1].addr != addr)
		return;
	memmove(&d->bufs[i - 1], &d->bufs[i],
		(d->num_bufs - i) * sizeof(*d->bufs));
	d->num_bufs--;
}

void hp_buffers_forget(hp_device *d)
{
	free(d->bufs);
	d->bufs = NULL;
	d->num_bufs = d->cap_bufs = 0;
}

int hp_buffer_alloc(hp_device *d, uint64_t size, hp_buffer *out)
{
	return hp_buffer_alloc_at(d, 0, size, out);
}

int hp_buffer_alloc_at(hp_device *d, uint64_t addr, uint64_t size,
		       hp_buffer *out)
{
	hp_event_info info;
	int rc = hp_service(d, HP_PKT_ALLOC, addr, 0, size, &info);
	*out = rc ? 0 : info.result;
	if (!rc && (rc = remember(d, info.result, size))) {
		hp_service(d, HP_PKT_FREE, info.result, 0, 0, &info);
		*out = 0;
	}
	return rc;
}

int hp_buffer_free(hp_device *d, hp_buffer b)
{
	hp_event_info info;
	int rc = hp_service(d, HP_PKT_FREE, b, 0, 0, &info);
	if (!rc)
		forget(d, b);
	return rc;
}

bool hp_device_shares_addresses(hp_device *d)
{
	const hp_transport *t = d->t;
	return t && t->map && (uintptr_t)t->map == t->map_base;
}

void *hp_buffer_host_ptr(hp_device *d, hp_buffer b)
{
	if (!hp_device_shares_addresses(d) || !containing(d, b))
		return NULL;
	return (void *)(uintptr_t)b;
}

/* [b + off, + len) lies in one of the handle's buffers: a copy never
 * reaches another buffer, let alone another session's. */
static int buf_range(hp_device *d, hp_buffer b, uint64_t off, size_t len)
{
	const struct hp_buf_range *r = containing(d, b);
	if (!r)
		return hp_fail(HP_INVALID_VALUE,
			       "0x%llx is not in a buffer of this handle",
			       (unsigned long long)b);
	uint64_t room = r->size - (b - r->addr);
	if (off > room || len > room - off)
		return hp_fail(HP_INVALID_VALUE,
			       "%zu bytes at 0x%llx+%llu reach past the end of "
			       "the buffer at 0x%llx (%llu bytes)",
			       len, (unsigned long long)b,
			       (unsigned long long)off,
			       (unsigned long long)r->addr,
			       (unsigned long long)r->size);
	return 0;
}

int hp_buffer_write(hp_device *d, hp_buffer b, uint64_t offset, const void *src,
		    size_t len)
{
	int rc = buf_range(d, b, offset, len);
	return rc ? rc : hp_dev_write(d, b + offset, src, len);
}

int hp_buffer_read(hp_device *d, hp_buffer b, uint64_t offset, void *dst,
		   size_t len)
{
	int rc = buf_range(d, b, offset, len);
	return rc ? rc : hp_dev_read(d, b + offset, dst, len);
}

/* ---- what the host reads from buffers ---- */

int hp_device_query(hp_device *d, hp_device_info *out)
{
	hp_buffer b;
	int rc = hp_buffer_alloc(d, sizeof(*out), &b);
	if (rc)
		return rc;
	hp_event_info info;
	rc = hp_service(d, HP_PKT_INFO, b, 0, 0, &info);
	if (!rc)
		rc = hp_buffer_read(d, b, 0, out, sizeof(*out));
	int rc2 = hp_buffer_free(d, b);
	return rc ? rc : rc2;
}

int hp_printf_read(hp_device *d, hp_buffer buf, uint32_t size, hp_printf_fn fn,
		   void *ctx, uint32_t *dropped)
{
	if (size < sizeof(hp_printf_header))
		return hp_fail(HP_INVALID_VALUE, "printf buffer of %u bytes",
			       size);
	uint8_t *b = malloc(size);
	if (!b)
		return hp_fail(HP_OUT_OF_RESOURCES,
			       "out of host memory (%u bytes for a copy of the "
			       "printf buffer)",
			       size);
	int rc = hp_buffer_read(d, buf, 0, b, size);
	if (rc) {
		free(b);
		return rc;
	}
	hp_printf_header h;
	memcpy(&h, b, sizeof(h));
	uint32_t space = size - (uint32_t)sizeof(h);
	if (h.size < space)
		space = h.size;
	uint32_t end = h.used < space ? h.used : space;
	/* Records as the device wrote them; the device's text is data: only
	 * lengths inside the buffer are believed. */
	for (uint32_t at = 0; at + sizeof(hp_printf_record) <= end;) {
		hp_printf_record r;
		memcpy(&r, b + sizeof(h) + at, sizeof(r));
		if (r.len < sizeof(r) || r.len % 8 || r.len > end - at ||
		    r.text_len > r.len - sizeof(r))
			break;
		fn(ctx, r.gid, (const char *)b + sizeof(h) + at + sizeof(r),
		   r.text_len);
		at += r.len;
	}
	if (dropped)
		*dropped = h.dropped;
	free(b);
	return 0;
}
