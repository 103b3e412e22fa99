/* SPDX-License-Identifier: MIT */
/*
 * Reset entry for every hart (a0 = hart id, a1 = device tree, as QEMU's
 * `-bios none` reset vector passes them). Boot order, see docs/boot.md:
 *
 *   1. mask interrupts, install the trap vector, enable the FPU if any;
 *   2. one hart wins the boot lottery (amoswap) and runs boot_init() on the
 *      boot stack: clear .bss, parse the device tree, build the hart table;
 *      boot_init() then publishes boot_released and IPIs every hart;
 *   3. the other harts sleep in wfi (no stack yet) until boot_released;
 *   4. every hart looks its id up in the hart table to get its index,
 *      parks if it has none, else takes the stack of that index and enters
 *      boot_hart_main(index), which never returns.
 */
#include <boot/trap_frame.h>
#include <hal/asm.h>
#include <hal/csr.h>

	.section .text.start, "ax"
	.globl _start
_start:
	csrw	mie, zero
	csrw	mscratch, zero		/* traps use the current stack for now */
	csrci	mstatus, MSTATUS_MIE
	la	t0, trap_entry
	csrw	mtvec, t0
#ifdef __riscv_flen
	li	t0, MSTATUS_FS_INITIAL
	csrs	mstatus, t0
	csrw	fcsr, zero
#endif
	.option push
	.option norelax
	la	gp, __global_pointer$
	.option pop
	mv	s0, a0			/* hart id */
	mv	s1, a1			/* device tree */

	la	t0, boot_lottery
	li	t1, 1
	amoswap.w.aq t1, t1, (t0)
	bnez	t1, .Lsecondary

	/* Boot hart. */
	la	sp, __boot_stack_top
	mv	a0, s0
	mv	a1, s1
	call	boot_init		/* returns after releasing the others */
	j	.Lfind_index

.Lsecondary:
	li	t0, MIP_MSIP
	csrw	mie, t0			/* let an IPI end wfi; MIE stays off */
	la	t0, boot_released
1:	lw	t1, 0(t0)
	fence	r, rw			/* acquire: see the hart table */
	bnez	t1, .Lfind_index
	wfi
	j	1b

.Lfind_index:
	/* Linear search of hal_hart_ids[0 .. hal_hart_found) for s0. */
	la	t0, hal_hart_ids
	la	t1, hal_hart_found
	lw	t1, 0(t1)
	li	t2, 0
2:	bgeu	t2, t1, .Lpark
	lw	t3, 0(t0)
	beq	t3, s0, .Lfound
	addi	t0, t0, 4
	addi	t2, t2, 1
	j	2b

.Lfound:
	la	t0, hal_hart_used
	lw	t0, 0(t0)
	bgeu	t2, t0, .Lpark		/* beyond the configured maximum */
	/* Top of this hart's stack: __stacks_start + (index + 1) *
	 * BOARD_STACK_SIZE. Its highest BOOT_TRAP_STACK bytes are the trap
	 * area (mscratch points at its top; the word below the top will
	 * hold the hart's tp), the rest is the stack. */
	addi	t3, t2, 1
	li	t4, BOARD_STACK_SIZE
	mul	t3, t3, t4
	la	sp, __stacks_start
	add	sp, sp, t3
	SREG	zero, BOOT_TRAP_TP(sp)	/* no tp yet */
	csrw	mscratch, sp
	li	t4, BOOT_TRAP_STACK
	sub	sp, sp, t4
	mv	a0, t2
	mv	a1, s0
	call	boot_hart_main
	/* boot_hart_main does not return; fall into the park loop if it did. */

	.globl boot_park
boot_park:
.Lpark:
	csrw	mie, zero
3:	wfi
	j	3b

/*
 * Trap entry. Traps come from kernels (faults, the watchdog's timer) or
 * from firmware bugs. A trap taken with mscratch != 0 runs on the hart's
 * trap area (mscratch = its top), whatever sp the interrupted code had (a
 * kernel may have overflowed its stack); mscratch is 0 while the handler
 * runs, so a trap inside the handler stays on the trap stack. The frame
 * (boot_trap_frame, TF_* offsets: boot/include/boot/trap_frame.h) holds
 * mepc, x1-x31 (sp the interrupted one), mstatus and the mscratch value to
 * restore. gp and tp are set to the firmware's before C runs (interrupted
 * code may have changed them); a handler that returns resumes with the
 * frame's registers, epc and mstatus.
 */
	.align 2
	.globl trap_entry
trap_entry:
	csrrw	sp, mscratch, sp
	beqz	sp, .Lon_current
	/* sp = trap area top, mscratch = interrupted sp */
	addi	sp, sp, -(TF_SIZE + BOOT_TRAP_TOP_RESERVED)
	SREG	t0, TF_T0(sp)
	csrr	t0, mscratch
	SREG	t0, TF_SP(sp)
	addi	t0, sp, TF_SIZE + BOOT_TRAP_TOP_RESERVED
	SREG	t0, TF_MSCRATCH(sp)
	csrw	mscratch, zero
	j	.Lsave
.Lon_current:
	/* A trap in the handler (or before the trap area exists). */
	csrrw	sp, mscratch, sp
	addi	sp, sp, -TF_SIZE
	SREG	t0, TF_T0(sp)
	addi	t0, sp, TF_SIZE
	SREG	t0, TF_SP(sp)
	SREG	zero, TF_MSCRATCH(sp)
.Lsave:
	SREG	ra, TF_RA(sp)
	SREG	gp, TF_GP(sp)
	SREG	tp, TF_TP(sp)
	SREG	t1, TF_T1(sp)
	SREG	t2, TF_T2(sp)
	SREG	s0, TF_S0(sp)
	SREG	s1, TF_S1(sp)
	SREG	a0, TF_A0(sp)
	SREG	a1, TF_A1(sp)
	SREG	a2, TF_A2(sp)
	SREG	a3, TF_A3(sp)
	SREG	a4, TF_A4(sp)
	SREG	a5, TF_A5(sp)
	SREG	a6, TF_A6(sp)
	SREG	a7, TF_A7(sp)
	SREG	s2, TF_S2(sp)
	SREG	s3, TF_S3(sp)
	SREG	s4, TF_S4(sp)
	SREG	s5, TF_S5(sp)
	SREG	s6, TF_S6(sp)
	SREG	s7, TF_S7(sp)
	SREG	s8, TF_S8(sp)
	SREG	s9, TF_S9(sp)
	SREG	s10, TF_S10(sp)
	SREG	s11, TF_S11(sp)
	SREG	t3, TF_T3(sp)
	SREG	t4, TF_T4(sp)
	SREG	t5, TF_T5(sp)
	SREG	t6, TF_T6(sp)
	csrr	t0, mepc
	SREG	t0, TF_EPC(sp)
	csrr	t0, mstatus
	SREG	t0, TF_MSTATUS(sp)
	.option push
	.option norelax
	la	gp, __global_pointer$
	.option pop
	LREG	t0, TF_MSCRATCH(sp)
	beqz	t0, 1f
	LREG	t1, BOOT_TRAP_TP(t0)	/* the hart's tp, once it has one */
	beqz	t1, 1f
	mv	tp, t1
1:	mv	a0, sp
	call	boot_trap_handler
	/* A handler that returns resumes with the frame. */
	LREG	t0, TF_EPC(sp)
	csrw	mepc, t0
	LREG	t0, TF_MSTATUS(sp)
	csrw	mstatus, t0
	LREG	t0, TF_MSCRATCH(sp)
	csrw	mscratch, t0
	LREG	ra, TF_RA(sp)
	LREG	gp, TF_GP(sp)
	LREG	tp, TF_TP(sp)
	LREG	t0, TF_T0(sp)
	LREG	t1, TF_T1(sp)
	LREG	t2, TF_T2(sp)
	LREG	s0, TF_S0(sp)
	LREG	s1, TF_S1(sp)
	LREG	a0, TF_A0(sp)
	LREG	a1, TF_A1(sp)
	LREG	a2, TF_A2(sp)
	LREG	a3, TF_A3(sp)
	LREG	a4, TF_A4(sp)
	LREG	a5, TF_A5(sp)
	LREG	a6, TF_A6(sp)
	LREG	a7, TF_A7(sp)
	LREG	s2, TF_S2(sp)
	LREG	s3, TF_S3(sp)
	LREG	s4, TF_S4(sp)
	LREG	s5, TF_S5(sp)
	LREG	s6, TF_S6(sp)
	LREG	s7, TF_S7(sp)
	LREG	s8, TF_S8(sp)
	LREG	s9, TF_S9(sp)
	LREG	s10, TF_S10(sp)
	LREG	s11, TF_S11(sp)
	LREG	t3, TF_T3(sp)
	LREG	t4, TF_T4(sp)
	LREG	t5, TF_T5(sp)
	LREG	t6, TF_T6(sp)
	LREG	sp, TF_SP(sp)
	mret
