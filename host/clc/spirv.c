// SPDX-License-Identifier: MIT
/*
 * SPIR-V modules as clCreateProgramWithIL hands them over (hartpool_cl.h,
 * hp_spirv_*): the header and the instruction stream checked word by word
 * (every length within the module), the facts a build needs before the
 * translator runs (version, addressing, the capabilities the device lacks)
 * and the specialization constants, set in place. Pure C over the words:
 * no LLVM, fuzzed (tests/fuzz/fuzz_spirv.c).
 */
#include "hartpool_cl.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define SPV_MAGIC 0x07230203u

enum {
	OP_CAPABILITY = 17,
	OP_MEMORY_MODEL = 14,
	OP_TYPE_BOOL = 20,
	OP_TYPE_INT = 21,
	OP_TYPE_FLOAT = 22,
	OP_SPEC_TRUE = 48,
	OP_SPEC_FALSE = 49,
	OP_SPEC = 50,
	OP_DECORATE = 71,
	DEC_SPEC_ID = 1,
};

static uint32_t word(const uint8_t *b, size_t i)
{
	uint32_t w;
	memcpy(&w, b + 4 * i, 4);
	return w;
}

static int say(char *why, size_t n, int rc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int say(char *why, size_t n, int rc, const char *fmt, ...)
{
	if (why && n) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(why, n, fmt, ap);
		va_end(ap);
	}
	return rc;
}

/* What the device cannot run, by capability (the SPIR-V specification's
 * numbers): images and samplers, pipes, device-side enqueue, half
 * arithmetic; fp64 and 64-bit atomics where the board has neither. */
static const char *lacking(uint32_t cap, const hp_spirv_device *d)
{
	switch (cap) {
	case 9:
		return "Float16 (half arithmetic)";
	case 10:
		return d->fp64 ? NULL : "Float64 (the board has no D)";
	case 12:
		return d->atomics64 ? NULL
				    : "Int64Atomics (the board has no 64-bit "
				      "AMOs)";
	case 13:
		return "ImageBasic (images)";
	case 14:
		return "ImageReadWrite (images)";
	case 15:
		return "ImageMipmap (images)";
	case 17:
		return "Pipes";
	case 19:
		return "DeviceEnqueue";
	case 20:
		return "LiteralSampler (samplers)";
	case 43:
		return "Sampled1D (images)";
	case 44:
		return "Image1D (images)";
	case 46:
		return "SampledBuffer (images)";
	case 47:
		return "ImageBuffer (images)";
	case 60:
		return "PipeStorage";
	default:
		return NULL;
	}
}

/* The instruction at word @p i: its word count (0: the module ends or is
 * broken, said in @p why). */
static uint32_t inst_at(const uint8_t *b, size_t nw, size_t i, char *why,
			size_t n, int *rc)
{
	uint32_t wc = word(b, i) >> 16;
	if (!wc || wc > nw - i) {
		*rc = say(why, n, HP_INVALID_VALUE,
			  "SPIR-V instruction at word %zu: %u words, %zu left",
			  i, wc, nw - i);
		return 0;
	}
	return wc;
}

int hp_spirv_read(const void *il, size_t size, const hp_spirv_device *dev,
		  hp_spirv_info *out, char *why, size_t n)
{
	const uint8_t *b = il;
	memset(out, 0, sizeof(*out));
	if (!il || size < 20 || size % 4)
		return say(why, n, HP_INVALID_VALUE,
			   "%zu bytes are not a SPIR-V module (a header of 5 "
			   "words, whole words)",
			   size);
	if (word(b, 0) != SPV_MAGIC)
		return say(why, n, HP_INVALID_VALUE,
			   "magic 0x%08x is not SPIR-V's 0x%08x (a big-endian "
			   "module is not taken)",
			   word(b, 0), SPV_MAGIC);
	uint32_t v = word(b, 1);
	out->major = v >> 16 & 0xff;
	out->minor = v >> 8 & 0xff;
	if (out->major != 1 || out->minor > HP_SPIRV_MINOR_MAX ||
	    v & 0xff0000ffu)
		return say(why, n, HP_INVALID_VALUE,
			   "SPIR-V version %u.%u (word 0x%08x): the device "
			   "takes 1.0 to 1.%u",
			   out->major, out->minor, v, HP_SPIRV_MINOR_MAX);
	if (word(b, 4))
		return say(why, n, HP_INVALID_VALUE,
			   "SPIR-V header's reserved word is %u, not 0",
			   word(b, 4));
	size_t nw = size / 4;
	int rc = 0;
	for (size_t i = 5; i < nw;) {
		uint32_t wc = inst_at(b, nw, i, why, n, &rc);
		if (!wc)
			return rc;
		uint32_t op = word(b, i) & 0xffff;
		const char *no;
		if (op == OP_CAPABILITY && wc >= 2 && dev &&
		    (no = lacking(word(b, i + 1), dev))) {
			out->lacking = word(b, i + 1);
			return say(why, n, HP_BUILD_PROGRAM_FAILURE,
				   "the module needs capability %s (%u), "
				   "which the device does not have",
				   no, word(b, i + 1));
		}
		if (op == OP_MEMORY_MODEL && wc >= 3) {
			uint32_t am = word(b, i + 1);
			out->address_bits = am == 1 ? 32 : am == 2 ? 64 : 0;
			if (dev && out->address_bits != dev->address_bits)
				return say(why, n, HP_BUILD_PROGRAM_FAILURE,
					   "the module's addressing model %u "
					   "(%s) does not fit a %u-bit device "
					   "(Physical%u)",
					   am,
					   am == 1   ? "Physical32"
					   : am == 2 ? "Physical64"
						     : "not physical",
					   dev->address_bits,
					   dev->address_bits);
		}
		i += wc;
	}
	return 0;
}

/* The type of result id @p id (bool, int or float) and its width in
 * bits; 0 if no such type. */
static uint32_t type_bits(const uint8_t *b, size_t nw, uint32_t id,
			  int *is_bool, int *is_signed)
{
	for (size_t i = 5; i < nw;) {
		uint32_t wc = word(b, i) >> 16, op = word(b, i) & 0xffff;
		if (!wc || wc > nw - i)
			return 0;
		bool type = op == OP_TYPE_BOOL || op == OP_TYPE_INT ||
			    op == OP_TYPE_FLOAT;
		if (type && wc >= 2 && word(b, i + 1) == id) {
			*is_bool = op == OP_TYPE_BOOL;
			*is_signed = op == OP_TYPE_INT && wc >= 4 &&
				     word(b, i + 3) == 1;
			if (op == OP_TYPE_BOOL)
				return 8;
			return wc >= 3 ? word(b, i + 2) : 0;
		}
		i += wc;
	}
	return 0;
}

/* The word index of the spec constant decorated SpecId @p spec, or 0. */
static size_t spec_at(const uint8_t *b, size_t nw, uint32_t spec)
{
	uint32_t target = 0;
	for (size_t i = 5; i < nw && !target;) {
		uint32_t wc = word(b, i) >> 16, op = word(b, i) & 0xffff;
		if (!wc || wc > nw - i)
			return 0;
		if (op == OP_DECORATE && wc >= 4 &&
		    word(b, i + 2) == DEC_SPEC_ID && word(b, i + 3) == spec)
			target = word(b, i + 1);
		i += wc;
	}
	for (size_t i = 5; target && i < nw;) {
		uint32_t wc = word(b, i) >> 16, op = word(b, i) & 0xffff;
		if (!wc || wc > nw - i)
			return 0;
		if ((op == OP_SPEC_TRUE || op == OP_SPEC_FALSE ||
		     op == OP_SPEC) &&
		    wc >= 3 && word(b, i + 2) == target)
			return i;
		i += wc;
	}
	return 0;
}

/* SpecId @p spec's constant, checked: its word index, size, kind. */
static bool spec_find(const uint8_t *b, size_t size, uint32_t spec, size_t *at,
		      size_t *bytes, int *is_bool, int *sgn)
{
	size_t nw = size / 4;
	*at = b && size >= 20 ? spec_at(b, nw, spec) : 0;
	if (!*at)
		return false;
	uint32_t wc = word(b, *at) >> 16, op = word(b, *at) & 0xffff;
	uint32_t bits = type_bits(b, nw, word(b, *at + 1), is_bool, sgn);
	if (!bits || bits % 8 || bits > 64)
		return false;
	*bytes = bits / 8;
	if (*is_bool)
		return op == OP_SPEC_TRUE || op == OP_SPEC_FALSE;
	return op == OP_SPEC && wc >= 3 + (*bytes == 8 ? 2u : 1u);
}

int hp_spirv_spec_size(const void *il, size_t size, uint32_t spec,
		       size_t *bytes)
{
	size_t at;
	int is_bool, sgn;
	return spec_find(il, size, spec, &at, bytes, &is_bool, &sgn)
		       ? 0
		       : HP_INVALID_SPEC_ID;
}

int hp_spirv_specialize(void *il, size_t size, uint32_t spec, const void *value,
			size_t bytes)
{
	uint8_t *b = il;
	size_t at, want;
	int is_bool, sgn;
	if (!spec_find(b, size, spec, &at, &want, &is_bool, &sgn))
		return HP_INVALID_SPEC_ID;
	if (!value || bytes != want)
		return HP_INVALID_VALUE;
	uint32_t wc = word(b, at) >> 16;
	if (is_bool) {
		uint8_t on;
		memcpy(&on, value, 1);
		uint32_t w = wc << 16 | (on ? OP_SPEC_TRUE : OP_SPEC_FALSE);
		memcpy(b + 4 * at, &w, 4);
		return 0;
	}
	uint64_t x = 0;
	memcpy(&x, value, bytes);
	if (sgn && bytes < 4 && x >> (8 * bytes - 1) & 1)
		x |= ~UINT64_C(0) << (8 * bytes); /* sign-extended */
	uint32_t lo = (uint32_t)x, hi = (uint32_t)(x >> 32);
	memcpy(b + 4 * (at + 3), &lo, 4);
	if (bytes == 8)
		memcpy(b + 4 * (at + 4), &hi, 4);
	return 0;
}
