// SPDX-License-Identifier: MIT
/*
 * Checks of what a launch points at (args.h). The argument block is the
 * firmware's private copy; the printf buffer's address and size are read
 * once from the kernarg block.
 */
#include "args.h"
#include "heap.h"
#include "words.h"
#include <hal/atomic.h>
#include <stdio.h>

/* Elements a buffer argument spans, or UINT64_MAX if it overflows. */
static uint64_t extent(const hp_arg_buffer *b, const uint64_t *args,
		       uint32_t args_size, const hp_launch *l)
{
	uint64_t n;
	switch (b->extent) {
	case HP_EXTENT_ITEMS:
		n = exec_ndrange_items(l);
		break;
	case HP_EXTENT_GROUPS:
		n = l->total_groups;
		break;
	case HP_EXTENT_FIXED:
		n = b->param;
		break;
	case HP_EXTENT_ARG:
	case HP_EXTENT_ITEMS_PLUS_ARG:
		if (b->param % 8 || b->param + 8 > args_size)
			return UINT64_MAX;
		n = args[b->param / 8];
		if (b->extent == HP_EXTENT_ITEMS_PLUS_ARG) {
			uint64_t items = exec_ndrange_items(l);
			if (n > UINT64_MAX - items)
				return UINT64_MAX;
			n += items;
		}
		break;
	default:
		return UINT64_MAX;
	}
	if (b->elem_size && n > UINT64_MAX / b->elem_size)
		return UINT64_MAX;
	return n * b->elem_size;
}

/* mbox_args_check_buffers with the heap's lock held. */
static const char *check_buffers(unsigned sess, const hp_kernel *k,
				 const uint64_t *args, uint32_t args_size,
				 const hp_launch *l, char *why, size_t n)
{
	for (unsigned i = 0; i < k->num_buffers; i++) {
		const hp_arg_buffer *b = &k->buffers[i];
		if (b->offset % 8 || b->offset + 8u > args_size)
			return "buffer argument outside the arguments";
		uint64_t addr = args[b->offset / 8];
		uint64_t len = extent(b, args, args_size, l);
		if (len == UINT64_MAX)
			return "buffer extent overflows";
		if (b->align > 1 && addr % b->align)
			return "buffer argument misaligned";
		if (len && !mbox_heap_holds_locked(sess, addr, len)) {
			snprintf(why, n,
				 "buffer argument %u: %llu bytes at 0x%llx "
				 "outside the session's buffers",
				 i, (unsigned long long)len,
				 (unsigned long long)addr);
			return why;
		}
	}
	return NULL;
}

const char *mbox_args_check_buffers(unsigned sess, const hp_kernel *k,
				    const uint64_t *args, uint32_t args_size,
				    const hp_launch *l, char *why, size_t n)
{
	if (!k->num_buffers)
		return NULL;
	/* One lock for all of them: this runs for every dispatch. */
	mbox_heap_lock();
	const char *bad = check_buffers(sess, k, args, args_size, l, why, n);
	mbox_heap_unlock();
	return bad;
}

const char *mbox_args_printf_setup(unsigned sess, const hp_kernarg *ka,
				   exec_cmd *c, char *why, size_t n)
{
	uint64_t at = mbox_ld64(&ka->printf_buf);
	uint32_t size = hal_load_relaxed(&ka->printf_size);
	c->printf_buf = NULL;
	c->printf_size = 0;
	if (!at && !size)
		return NULL;
	if (at % HP_PRINTF_ALIGN || size % HP_PRINTF_ALIGN ||
	    size < HP_PRINTF_MIN_SIZE) {
		snprintf(why, n, "printf buffer misaligned or below %u bytes",
			 HP_PRINTF_MIN_SIZE);
		return why;
	}
	if (!mbox_heap_holds(sess, at, size))
		return "printf buffer outside the session's buffers";
	hp_printf_header *h = mbox_ptr(at);
	h->used = 0;
	h->dropped = 0;
	h->size = size - (uint32_t)sizeof(*h);
	h->reserved = 0;
	c->printf_buf = h;
	c->printf_size = size;
	return NULL;
}
