// SPDX-License-Identifier: MIT
/* The NDRange rules for the firmware and the ICD
 * (include/hartpool/ndrange_check.h). Pure and portable: built into the
 * firmware, libhartpool and the host tests. */
#include <hartpool/error.h>
#include <hartpool/ndrange_check.h>
#include <stdarg.h>
#include <stdio.h>

static int say(char *why, size_t n, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static __attribute__((noinline, cold)) int say(char *why, size_t n, int code,
					       const char *fmt, ...)
{
	if (why && n) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(why, n, fmt, ap);
		va_end(ap);
	}
	return code;
}

static unsigned long long ull(uint64_t v)
{
	return (unsigned long long)v;
}

int hp_nd_check_global(const hp_nd_limits *l, unsigned w,
		       const uint64_t *global, const uint64_t *offset,
		       char *why, size_t n)
{
	unsigned bits = l->address_bits;
	uint64_t size_max = bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
	if (w < 1 || w > 3 || w > l->max_work_dim) {
		if (l->max_work_dim >= 3)
			return say(why, n, HP_INVALID_WORK_DIMENSION,
				   "work_dim %u is not 1, 2 or 3", w);
		return say(why, n, HP_INVALID_WORK_DIMENSION,
			   "work_dim %u is not between 1 and the device's %u",
			   w, l->max_work_dim);
	}
	uint64_t items = 1;
	for (unsigned d = 0; d < w; d++) {
		uint64_t g = global[d];
		if (g > size_max)
			return say(why, n, HP_INVALID_GLOBAL_WORK_SIZE,
				   "global size %llu in dimension %u is above "
				   "the device's size_t (%u bits)",
				   ull(g), d, bits);
		if (g && items > size_max / g)
			return say(why, n, HP_INVALID_GLOBAL_WORK_SIZE,
				   "more work-items than the device's size_t "
				   "(%u bits) counts",
				   bits);
		if (g)
			items *= g;
	}
	for (unsigned d = 0; offset && d < w; d++)
		if (offset[d] > size_max - global[d])
			return say(
				why, n, HP_INVALID_GLOBAL_OFFSET,
				"offset %llu + global size %llu in dimension "
				"%u is above the device's size_t (%u bits)",
				ull(offset[d]), ull(global[d]), d, bits);
	return 0;
}

static __attribute__((noinline, cold)) int
above_max(const hp_nd_limits *l, uint64_t prod, char *why, size_t n)
{
	char lim[80];
	if (l->max_why)
		l->max_why(l->max_ctx, lim, sizeof(lim));
	else
		snprintf(lim, sizeof(lim), "the device limit");
	return say(why, n, HP_INVALID_WORK_GROUP_SIZE,
		   "local size %llu above the kernel's maximum %llu (%s)",
		   ull(prod), ull(l->max_group), lim);
}

int hp_nd_check_local(const hp_nd_limits *l, unsigned w, const uint64_t g[3],
		      const uint64_t e[3], const uint32_t *req, bool uniform,
		      char *why, size_t n)
{
	for (unsigned d = 0; d < w; d++)
		if (e[d] == 0)
			return say(why, n, HP_INVALID_WORK_GROUP_SIZE,
				   "local size 0 in dimension %u", d);
	/* A required size with a dimension > 1 beyond work_dim cannot be
	 * launched with this work_dim. */
	for (unsigned d = w; d < 3; d++)
		if (e[d] != 1)
			return say(why, n, HP_INVALID_WORK_GROUP_SIZE,
				   "required size %llu in dimension %u, beyond "
				   "work_dim %u",
				   ull(e[d]), d, w);
	if (req && (req[0] || req[1] || req[2]))
		for (unsigned d = 0; d < 3; d++)
			if (e[d] != req[d])
				return say(why, n, HP_INVALID_WORK_GROUP_SIZE,
					   "local size %llu,%llu,%llu is not "
					   "reqd_work_group_size %u,%u,%u",
					   ull(e[0]), ull(e[1]), ull(e[2]),
					   (unsigned)req[0], (unsigned)req[1],
					   (unsigned)req[2]);
	for (unsigned d = 0; d < 3; d++)
		if (e[d] > l->max_item[d])
			return say(why, n, HP_INVALID_WORK_ITEM_SIZE,
				   "local size %llu in dimension %u is above "
				   "the device's max work-item size %u",
				   ull(e[d]), d, (unsigned)l->max_item[d]);
	uint64_t prod = e[0] * e[1] * e[2];
	if (prod > l->max_group)
		return above_max(l, prod, why, n);
	if (uniform)
		for (unsigned d = 0; d < w; d++)
			if (g[d] % e[d])
				return say(why, n, HP_INVALID_WORK_GROUP_SIZE,
					   "local size %llu does not divide "
					   "global size %llu in dimension %u "
					   "(uniform work-groups)",
					   ull(e[d]), ull(g[d]), d);
	return 0;
}
