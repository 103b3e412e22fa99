// SPDX-License-Identifier: MIT
/*
 * hp_printf() and hp_vprintf() (kernel objects call this one): kernels print
 * into their command's printf buffer (hartpool/mbox.h: a header, then records
 * tagged with the global id), which the host prints after completion. Runs in
 * kernel code (U-mode): touches only the kview and the buffer. A call that does
 * not fit is counted in `dropped`, never written past the end.
 */
#include "wg.h"
#include <hartpool/mbox.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void hp_printf(const hp_item *it, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	hp_vprintf(it, fmt, ap);
	va_end(ap);
}

void hp_vprintf(const hp_item *it, const char *fmt, va_list ap)
{
	const exec_kview *kv = it->g->kv;
	hp_printf_header *h = kv->pbuf;
	if (!h)
		return;
	char text[HP_PRINTF_MAX];
	int n = vsnprintf(text, sizeof(text), fmt, ap);
	if (n < 0)
		return;
	if ((unsigned)n >= sizeof(text))
		n = sizeof(text) - 1;
	uint32_t len =
		(uint32_t)((sizeof(hp_printf_record) + (unsigned)n + 7) & ~7u);
	uint32_t size = kv->psize;
	uint32_t at = hal_fetch_add(&h->used, len);
	char *space = (char *)(h + 1);
	if (at >= size || len > size - at) {
		hal_fetch_add(&h->dropped, 1u);
		/* The first call that did not fit ends the records (later
		 * ones start past it). */
		if (at < size)
			hal_store_release(
				&((hp_printf_record *)(space + at))->len, 0u);
		return;
	}
	hp_printf_record *r = (hp_printf_record *)(space + at);
	r->text_len = (uint32_t)n;
	for (unsigned d = 0; d < 3; d++)
		r->gid[d] = it->global_id[d];
	memcpy(r + 1, text, (size_t)n);
	hal_store_release(&r->len, len);
}
