/* SPDX-License-Identifier: MIT */
/**
 * @file For assembly files: the register width. REGBYTES is also usable
 * from C (headers that give assembly the offsets of C structs).
 */
#ifndef HAL_ASM_H
#define HAL_ASM_H

/** Bytes in an integer register (and in a long): 8 on rv64, 4 on rv32. */
#define REGBYTES __SIZEOF_LONG__

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
