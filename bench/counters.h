/* SPDX-License-Identifier: MIT */
/* Reading the retired-instruction counter. Under `qemu -icount` it is one
 * deterministic count over all harts (see docs/qemu.md); without -icount it
 * follows host time and is not comparable between runs. In S-mode the
 * unprivileged alias (instret, which OpenSBI lets S-mode read): the count
 * then includes the instructions OpenSBI runs for SBI calls. */
#ifndef BENCH_COUNTERS_H
#define BENCH_COUNTERS_H

#include <hal/csr.h>
#include <stdint.h>

#ifdef HAL_SMODE
#define BENCH_INSTRET instret
#define BENCH_INSTRETH instreth
#else
#define BENCH_INSTRET minstret
#define BENCH_INSTRETH minstreth
#endif

static inline uint64_t bench_instret(void)
{
#if __riscv_xlen == 64
	return csr_read(BENCH_INSTRET);
#else
	uint32_t hi, lo;
	do {
		hi = (uint32_t)csr_read(BENCH_INSTRETH);
		lo = (uint32_t)csr_read(BENCH_INSTRET);
	} while ((uint32_t)csr_read(BENCH_INSTRETH) != hi);
	return (uint64_t)hi << 32 | lo;
#endif
}

#endif
