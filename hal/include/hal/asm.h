/* SPDX-License-Identifier: MIT */
/**
 * @file For assembly files: the register widths. REGBYTES and
 * HAL_VLENB_MAX are also usable from C (headers that give assembly the
 * offsets of C structs).
 */
#ifndef HAL_ASM_H
#define HAL_ASM_H

/** Bytes in an integer register (and in a long): 8 on rv64, 4 on rv32. */
#define REGBYTES __SIZEOF_LONG__

/** Bytes of one vector register a kernel context saves at most: a board
 * with V sets BOARD_VLEN_MAX (bits); 0 without V. A hart whose vlenb is
 * larger runs with V off (boot/start.S). */
#if defined(__riscv_vector) && defined(BOARD_VLEN_MAX)
#define HAL_VLENB_MAX (BOARD_VLEN_MAX / 8)
#else
#define HAL_VLENB_MAX 0
#endif

#ifdef __ASSEMBLER__
#if __riscv_xlen == 64
#define LREG ld /**< load a register-sized word */
#define SREG sd /**< store a register-sized word */
#else
#define LREG lw
#define SREG sw
#endif
#endif

#endif
