/* SPDX-License-Identifier: MIT */
/* Reading the retired-instruction counter. Under `qemu -icount` it is one
 * deterministic count over all harts (see docs/qemu.md); without -icount it
 * follows host time and is not comparable between runs. */
#ifndef BENCH_COUNTERS_H
#define BENCH_COUNTERS_H

#include <hal/csr.h>
#include <stdint.h>

static inline uint64_t bench_instret(void)
{
#if __riscv_xlen == 64
	return csr_read(minstret);
#else
	uint32_t hi, lo;
	do {
		hi = (uint32_t)csr_read(minstreth);
		lo = (uint32_t)csr_read(minstret);
	} while ((uint32_t)csr_read(minstreth) != hi);
	return (uint64_t)hi << 32 | lo;
#endif
}

#endif
