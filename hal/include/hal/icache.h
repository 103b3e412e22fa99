/* SPDX-License-Identifier: MIT */
/** @file Instruction fetch after code was written (Zifencei). */
#ifndef HAL_ICACHE_H
#define HAL_ICACHE_H

/**
 * Make code that this hart has seen written (by itself, or by another
 * hart before a release this hart acquired) visible to this hart's
 * instruction fetch. RISC-V `fence.i` is local: every hart that will run
 * the new code executes it. A no-op in the host build.
 */
static inline void hal_icache_sync(void)
{
#if defined(__riscv)
	__asm__ volatile("fence.i" ::: "memory");
#endif
}

#endif
