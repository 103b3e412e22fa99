// SPDX-License-Identifier: MIT
/*
 * libFuzzer target for the SPIR-V reader and rewriter (host/clc/spirv.c,
 * spirv_lower.c): the input is a module as clCreateProgramWithIL takes it.
 * Invariants (an abort is a finding), besides ASan and UBSan staying quiet:
 *   - hp_spirv_read gives 0, HP_INVALID_VALUE or HP_BUILD_PROGRAM_FAILURE
 *     with a NUL-ended sentence;
 *   - a module it accepts lowers to one it accepts again (whole words, the
 *     same header), and specializing any SpecId 0..7 of the size the module
 *     reports succeeds and leaves a module it accepts.
 */
#include <hartpool/error.h>
#include <hartpool_cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define CHECK(c)                                                               \
	do {                                                                   \
		if (!(c)) {                                                    \
			fprintf(stderr, "fuzz_spirv: line %d: %s\n", __LINE__, \
				#c);                                           \
			abort();                                               \
		}                                                              \
	} while (0)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	hp_spirv_device dev = {
		.address_bits = 64, .fp64 = true, .atomics64 = true};
	hp_spirv_info info;
	char why[256];
	memset(why, 'x', sizeof(why));
	int rc = hp_spirv_read(data, size, &dev, &info, why, sizeof(why));
	CHECK(rc == 0 || rc == HP_INVALID_VALUE ||
	      rc == HP_BUILD_PROGRAM_FAILURE);
	if (rc) {
		CHECK(memchr(why, 0, sizeof(why)));
		return 0;
	}
	void *low = NULL;
	size_t nlow = 0;
	rc = hp_spirv_lower(data, size, 64, &low, &nlow);
	CHECK(rc == 0 || rc == HP_INVALID_VALUE || rc == HP_OUT_OF_RESOURCES);
	if (!rc) {
		CHECK(nlow % 4 == 0 && nlow >= 20);
		CHECK(!memcmp(low, data, 12)); /* magic, version, generator */
		CHECK(!hp_spirv_read(low, nlow, NULL, &info, why, sizeof(why)));
	}
	free(low);
	uint8_t *m = malloc(size);
	CHECK(m);
	memcpy(m, data, size);
	for (uint32_t id = 0; id < 8; id++) {
		size_t bytes = 0;
		if (hp_spirv_spec_size(m, size, id, &bytes))
			continue;
		CHECK(bytes >= 1 && bytes <= 8);
		uint64_t v = 0x8081828384858687ull;
		CHECK(!hp_spirv_specialize(m, size, id, &v, bytes));
		CHECK(hp_spirv_specialize(m, size, id, &v, bytes + 1) ==
		      HP_INVALID_VALUE);
		CHECK(!hp_spirv_read(m, size, NULL, &info, why, sizeof(why)));
	}
	free(m);
	return 0;
}
