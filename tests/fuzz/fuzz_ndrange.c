// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for NDRange validation (executor/ndrange.c): arbitrary
 * launches (work_dim, sizes, offsets, local sizes, reqd, uniform, sub-group
 * and team sizes) of arbitrary kernels (reqd / max work-group size,
 * sub-group size, local memory, barriers) on 32- and 64-bit devices. A
 * launch it accepts must be one the executor can run as OpenCL 3.0 says;
 * anything else aborts (a finding):
 *   - every local size >= 1, within the device's work-item sizes, product
 *     within the device's and the kernel's work-group limit;
 *   - a reqd_work_group_size or a given local size is used as given;
 *   - num_groups * local covers the global size, one group fewer does not;
 *   - uniform launches divide evenly; offset + size fits the device;
 *   - the sub-group size is a supported power of two.
 */
#include <executor/exec.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c)                                                               \
	do {                                                                   \
		if (!(c)) {                                                    \
			fprintf(stderr, "fuzz_ndrange: line %d: %s\n",         \
				__LINE__, #c);                                 \
			abort();                                               \
		}                                                              \
	} while (0)

static void kfn(const hp_item *it, const void *args)
{
	(void)it, (void)args;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct {
		uint8_t dim, flags, sg, team, bits64;
		uint8_t kflags, ksg;
		uint16_t kmax;
		uint32_t kreqd[3];
		uint32_t klocal;
		uint64_t global[3], offset[3], local[3];
		uint32_t reqd[3];
	} in;
	if (size < sizeof(in))
		return 0;
	memcpy(&in, data, sizeof(in));
	exec_device dev = {
		.harts = 1 + in.team % 16,
		.address_bits = in.bits64 & 1 ? 64 : 32,
		.max_work_group_size = 256,
		.max_work_item_sizes = {256, 256, 64},
		.local_mem_size = 32768,
		.default_sub_group_size = 8,
		.sub_group_sizes = 0x7f,
		.fiber_stack_default = 1024,
		.fiber_arena_size = 256 * 1024,
		.fiber_stack_scale = 1,
	};
	hp_kernel k = {.name = "k", .fn = kfn};
	if (in.kflags & 1)
		memcpy(k.reqd_work_group_size, in.kreqd, sizeof(in.kreqd));
	k.max_work_group_size = in.kflags & 2 ? in.kmax : 0;
	k.sub_group_size = in.kflags & 4 ? in.ksg : 0;
	k.local_mem_bytes = in.kflags & 8 ? in.klocal : 0;
	k.uses_barriers = in.kflags & 16;
	k.stack_bytes = in.kflags & 32 ? (in.klocal >> 16) % 70000 : 0;
	exec_range r = {
		.work_dim = in.dim % 5,
		.local_given = in.flags & 1,
		.uniform = in.flags & 2,
		.sub_group_size = in.flags & 4 ? in.sg : 0,
		.team_size = in.flags & 8 ? in.team % 8 : 0,
		.schedule = (in.flags >> 4) % 4,
		.chunk = in.flags >> 6,
	};
	memcpy(r.global, in.global, sizeof(r.global));
	memcpy(r.offset, in.offset, sizeof(r.offset));
	memcpy(r.local, in.local, sizeof(r.local));
	if (in.flags & 0x20)
		memcpy(r.reqd, in.reqd, sizeof(r.reqd));
	hp_launch l;
	char why[112] = "";
	if (exec_ndrange_setup(&dev, &k, &r, &l, why, sizeof(why)) != 0) {
		CHECK(why[0] != 0); /* every error says why */
		return 0;
	}

	uint64_t size_max = dev.address_bits == 64 ? UINT64_MAX : UINT32_MAX;
	unsigned w = r.work_dim;
	CHECK(w >= 1 && w <= 3 && l.work_dim == w);
	uint64_t limit = k.max_work_group_size && k.max_work_group_size < 256
				 ? k.max_work_group_size
				 : 256;
	uint64_t prod = 1;
	bool empty = false;
	for (unsigned d = 0; d < 3; d++) {
		uint64_t g = d < w ? r.global[d] : 1;
		uint64_t L = l.local_size[d];
		empty |= g == 0;
		CHECK(l.global_size[d] == g);
		CHECK(L >= 1 && L <= dev.max_work_item_sizes[d]);
		CHECK(d < w || L == 1);
		prod *= L;
		/* ceil(g / L), without overflowing near 2^64 */
		CHECK(l.num_groups[d] == g / L + (g % L != 0));
		if (d < w)
			CHECK(r.offset[d] <= size_max - g);
		if (r.uniform && g)
			CHECK(g % L == 0);
		if (r.local_given && d < w)
			CHECK(L == r.local[d]);
	}
	CHECK(prod <= limit && prod == l.enqueued_linear);
	const uint32_t *req = r.reqd[0] || r.reqd[1] || r.reqd[2]
				      ? r.reqd
				      : k.reqd_work_group_size;
	if (req[0] || req[1] || req[2])
		for (unsigned d = 0; d < 3; d++)
			CHECK(l.local_size[d] == req[d]);
	unsigned s = l.sub_group_size;
	CHECK(s && !(s & (s - 1)) && (dev.sub_group_sizes & s));
	CHECK(empty || l.total_groups == l.num_groups[0] * l.num_groups[1] *
						 l.num_groups[2]);
	CHECK(l.team_size >= 1 && l.team_size <= dev.harts);
	/* A barrier kernel's share of a group fits one hart's fiber arena
	 * (stacks rounded to 16 bytes), whoever chose the size. */
	if (k.uses_barriers && !empty) {
		uint64_t stack =
			k.stack_bytes ? k.stack_bytes : dev.fiber_stack_default;
		stack = (stack + 15) & ~(uint64_t)15;
		uint64_t t = l.team_size, nsg = (prod + s - 1) / s;
		uint64_t per_hart = (nsg + t - 1) / t * s;
		if (per_hart > prod)
			per_hart = prod;
		CHECK(per_hart * stack <= dev.fiber_arena_size);
	}
	return 0;
}
