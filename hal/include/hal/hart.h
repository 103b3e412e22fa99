/* SPDX-License-Identifier: MIT */
/**
 * @file Hart identity.
 *
 * A hart *id* is what the hardware calls the hart (mhartid); a hart *index*
 * is its position, 0 .. hal_hart_num() - 1, among the harts hartpool uses,
 * ordered by id. Everything in hartpool is sized and addressed by index.
 */
#ifndef HAL_HART_H
#define HAL_HART_H

#include <stdint.h>

#ifndef BOARD_MAX_HARTS
#error "BOARD_MAX_HARTS must come from the board (board.mk)"
#endif
#define HAL_MAX_HARTS BOARD_MAX_HARTS

/** This hart's index (thread-local, set once at boot). */
extern __thread unsigned hal_tls_hart_idx;

/** Index of the calling hart. */
static inline unsigned hal_hart_idx(void)
{
	return hal_tls_hart_idx;
}

/** Number of harts in use (fixed after boot). */
unsigned hal_hart_num(void);

/** Hardware id of the hart with index @p idx. */
uint32_t hal_hart_id(unsigned idx);

/* What a hart can do (hal_hart_caps): the device tree's riscv,isa and
 * mmu-type (hal/fdt.h FDT_HART_*, same bits), or the board's BOARD_HARTS
 * table where there is no device tree. */
#define HAL_HART_F 0x01u   /**< single-precision FPU */
#define HAL_HART_D 0x02u   /**< double-precision FPU */
#define HAL_HART_MMU 0x04u /**< page tables (runs S-mode payloads) */
#define HAL_HART_S 0x08u   /**< S-mode */
#define HAL_HART_FPU (HAL_HART_F | HAL_HART_D)

/** HAL_HART_* bits of the hart with index @p idx. */
unsigned hal_hart_caps(unsigned idx);

/** Bytes of one vector register (vlenb) of the calling hart when its vector
 * unit is on (boot/start.S turns it on where a kernel context can save
 * it), else 0. */
unsigned hal_hart_vlenb(void);

/** Hint that the hart is in a short polling loop. */
static inline void hal_cpu_relax(void)
{
#if defined(__riscv)
	__asm__ volatile(".insn i 0x0f, 0, x0, x0, 0x010"); /* pause */
#elif defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

#endif
