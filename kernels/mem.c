// SPDX-License-Identifier: MIT
/* copy and fill: the device-side memory commands of the mailbox (COPY and
 * FILL packets), as kernels so they spread over the harts like any other
 * work. Each work-item handles one HP_MEM_CHUNK-byte piece. */
#include <hartpool/kernel.h>
#include <hartpool/kernels/diag.h>
#include <string.h>

HP_KERNEL(copy, const hp_item *it, const void *args)
{
	const hp_copy_args *a = args;
	uint64_t at = (uint64_t)hp_global_linear_id(it) * HP_MEM_CHUNK;
	if (at >= a->size)
		return;
	uint64_t n = a->size - at < HP_MEM_CHUNK ? a->size - at : HP_MEM_CHUNK;
	memmove((char *)(uintptr_t)(a->dst + at),
		(const char *)(uintptr_t)(a->src + at), (size_t)n);
}
HP_REGISTER(copy, .args_size = sizeof(hp_copy_args),
	    HP_BUFFERS(HP_BUF(hp_copy_args, dst, uint8_t, ARG,
			      offsetof(hp_copy_args, size)),
		       HP_BUF(hp_copy_args, src, uint8_t, ARG,
			      offsetof(hp_copy_args, size))));

HP_KERNEL(fill, const hp_item *it, const void *args)
{
	const hp_fill_args *a = args;
	uint64_t at = (uint64_t)hp_global_linear_id(it) * HP_MEM_CHUNK;
	if (at >= a->size)
		return;
	uint64_t n = a->size - at < HP_MEM_CHUNK ? a->size - at : HP_MEM_CHUNK;
	char *p = (char *)(uintptr_t)(a->dst + at);
	/* HP_MEM_CHUNK is a multiple of every pattern size, so the pattern's
	 * phase is the same at the start of every piece. */
	for (uint64_t i = 0; i < n; i++)
		p[i] = (char)(a->pattern >> (8 * (i % a->psize)));
}
HP_REGISTER(fill, .args_size = sizeof(hp_fill_args),
	    HP_BUFFERS(HP_BUF(hp_fill_args, dst, uint8_t, ARG,
			      offsetof(hp_fill_args, size))));
