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

int hp_buffer_alloc(hp_device *d, uint64_t size, hp_buffer *out)
{
	hp_event_info info;
	int rc = hp_service(d, HP_PKT_ALLOC, 0, 0, size, &info);
	*out = rc ? 0 : info.result;
	return rc;
}

int hp_buffer_free(hp_device *d, hp_buffer b)
{
	hp_event_info info;
	return hp_service(d, HP_PKT_FREE, b, 0, 0, &info);
}

static int buf_range(hp_device *d, hp_buffer b, uint64_t off, size_t len)
{
	uint64_t base = d->hdr.buf_base, size = d->hdr.buf_size;
	if (b < base || b - base > size || off > size - (b - base) ||
	    len > size - (b - base) - off)
		return hp_fail(
			HP_INVALID_VALUE,
			"0x%llx+%llu (%zu bytes) is outside the device's "
			"buffer heap",
			(unsigned long long)b, (unsigned long long)off, len);
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
