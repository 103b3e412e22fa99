/* SPDX-License-Identifier: MIT */
/**
 * @file The trap frame boot's trap entry (boot/start.S) saves, and the
 * hart's trap area it lives in. The TF_* offsets are for start.S; the C
 * struct below is checked against every one of them when this header is
 * compiled as C, so the two cannot drift apart.
 *
 * Layout (REGBYTES = 8 on rv64, 4 on rv32): slot 0 the pc to resume at
 * (mepc), slots 1-31 the registers x1-x31 in register-number order (slot n
 * is xn; x0 is always zero and needs no slot, so epc takes it), slot 32
 * mstatus, slot 33 the mscratch value to restore, 2 slots of padding: 36
 * slots, a multiple of 16 bytes on both.
 */
#ifndef BOOT_TRAP_FRAME_H
#define BOOT_TRAP_FRAME_H

#include <hal/asm.h>
#include <hal/isolation.h> /* HAL_UREGS_SIZE */

/** Bytes at the top of every hart's stack kept for trap handling: the trap
 * area, whose top mscratch holds while the hart runs outside the handler
 * (and where a preempted kernel's registers go on: with V, 32 vector
 * registers more). */
#define BOOT_TRAP_STACK (2048 + 32 * HAL_VLENB_MAX)
/** From the trap area's top: the hart's tp, which the trap entry loads
 * (interrupted code may have changed tp); 0 until the hart has one. */
#define BOOT_TRAP_TP (-REGBYTES)
/** From the trap area's top: the hart's id (S-mode has no mhartid). */
#define BOOT_TRAP_HARTID (-2 * REGBYTES)
/** Bytes kept free at the trap area's top (the tp and id words, rounded to keep
 * sp 16-byte aligned); the first frame goes right below. */
#define BOOT_TRAP_TOP_RESERVED 16

#define TF_EPC (0 * REGBYTES) /* mepc/sepc: where the trap returns to */
#define TF_RA (1 * REGBYTES)
#define TF_SP (2 * REGBYTES) /* the interrupted sp */
#define TF_GP (3 * REGBYTES)
#define TF_TP (4 * REGBYTES)
#define TF_T0 (5 * REGBYTES)
#define TF_T1 (6 * REGBYTES)
#define TF_T2 (7 * REGBYTES)
#define TF_S0 (8 * REGBYTES)
#define TF_S1 (9 * REGBYTES)
#define TF_A0 (10 * REGBYTES)
#define TF_A1 (11 * REGBYTES)
#define TF_A2 (12 * REGBYTES)
#define TF_A3 (13 * REGBYTES)
#define TF_A4 (14 * REGBYTES)
#define TF_A5 (15 * REGBYTES)
#define TF_A6 (16 * REGBYTES)
#define TF_A7 (17 * REGBYTES)
#define TF_S2 (18 * REGBYTES)
#define TF_S3 (19 * REGBYTES)
#define TF_S4 (20 * REGBYTES)
#define TF_S5 (21 * REGBYTES)
#define TF_S6 (22 * REGBYTES)
#define TF_S7 (23 * REGBYTES)
#define TF_S8 (24 * REGBYTES)
#define TF_S9 (25 * REGBYTES)
#define TF_S10 (26 * REGBYTES)
#define TF_S11 (27 * REGBYTES)
#define TF_T3 (28 * REGBYTES)
#define TF_T4 (29 * REGBYTES)
#define TF_T5 (30 * REGBYTES)
#define TF_T6 (31 * REGBYTES)
#define TF_STATUS (32 * REGBYTES)
/* The trap area's top if the trap came from outside the handler (mscratch
 * is restored from it on return), else 0. */
#define TF_SCRATCH (33 * REGBYTES)
#define TF_SIZE (36 * REGBYTES)

#ifndef __ASSEMBLER__
#include <stddef.h>

/**
 * The registers saved at a trap. A hook may change any of them (epc to
 * resume elsewhere, a0 to return a value, ...) and status before the trap
 * returns; scratch is boot's own. In the S-mode build the CSRs are the
 * supervisor ones (sepc, sstatus, sscratch: hal/csr.h's CSR_*).
 */
typedef struct boot_trap_frame {
	unsigned long epc; /**< the trapping instruction (exceptions) */
	unsigned long ra, sp, gp, tp;
	unsigned long t0, t1, t2;
	unsigned long s0, s1;
	unsigned long a0, a1, a2, a3, a4, a5, a6, a7;
	unsigned long s2, s3, s4, s5, s6, s7, s8, s9, s10, s11;
	unsigned long t3, t4, t5, t6;
	unsigned long status;  /**< mstatus, or sstatus in the S-mode build */
	unsigned long scratch; /**< boot's own: m/sscratch to restore */
	unsigned long pad_[2];
} boot_trap_frame;

/* hal_user_resume copies a context's registers below the area's top. */
_Static_assert(HAL_UREGS_SIZE + 64 + 16 <= BOOT_TRAP_STACK,
	       "a resumed context's registers fit in the trap area");

#define BOOT_TF_AT(field, off)                                                 \
	_Static_assert(offsetof(boot_trap_frame, field) == (off),              \
		       "trap frame: " #field " is not at " #off)
BOOT_TF_AT(epc, TF_EPC);
BOOT_TF_AT(ra, TF_RA);
BOOT_TF_AT(sp, TF_SP);
BOOT_TF_AT(gp, TF_GP);
BOOT_TF_AT(tp, TF_TP);
BOOT_TF_AT(t0, TF_T0);
BOOT_TF_AT(t1, TF_T1);
BOOT_TF_AT(t2, TF_T2);
BOOT_TF_AT(s0, TF_S0);
BOOT_TF_AT(s1, TF_S1);
BOOT_TF_AT(a0, TF_A0);
BOOT_TF_AT(a1, TF_A1);
BOOT_TF_AT(a2, TF_A2);
BOOT_TF_AT(a3, TF_A3);
BOOT_TF_AT(a4, TF_A4);
BOOT_TF_AT(a5, TF_A5);
BOOT_TF_AT(a6, TF_A6);
BOOT_TF_AT(a7, TF_A7);
BOOT_TF_AT(s2, TF_S2);
BOOT_TF_AT(s3, TF_S3);
BOOT_TF_AT(s4, TF_S4);
BOOT_TF_AT(s5, TF_S5);
BOOT_TF_AT(s6, TF_S6);
BOOT_TF_AT(s7, TF_S7);
BOOT_TF_AT(s8, TF_S8);
BOOT_TF_AT(s9, TF_S9);
BOOT_TF_AT(s10, TF_S10);
BOOT_TF_AT(s11, TF_S11);
BOOT_TF_AT(t3, TF_T3);
BOOT_TF_AT(t4, TF_T4);
BOOT_TF_AT(t5, TF_T5);
BOOT_TF_AT(t6, TF_T6);
BOOT_TF_AT(status, TF_STATUS);
BOOT_TF_AT(scratch, TF_SCRATCH);
#undef BOOT_TF_AT
_Static_assert(sizeof(boot_trap_frame) == TF_SIZE, "trap frame: size");
_Static_assert(TF_SIZE % 16 == 0, "trap frame: sp stays 16-byte aligned");
_Static_assert(BOOT_TRAP_TOP_RESERVED >= -BOOT_TRAP_HARTID &&
		       BOOT_TRAP_TOP_RESERVED % 16 == 0,
	       "trap area: the tp word fits above the first frame");

#endif /* __ASSEMBLER__ */
#endif
