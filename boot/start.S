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
#include <hal/csr.h>

/* Bytes at the top of every hart's stack kept for trap handling. */
#define BOOT_TRAP_STACK 2048

#if __riscv_xlen == 64
#define LREG ld
#define SREG sd
#define REGBYTES 8
#else
#define LREG lw
#define SREG sw
#define REGBYTES 4
#endif

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
	SREG	zero, -REGBYTES(sp)	/* no tp yet */
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
 * runs, so a trap inside the handler stays on the trap stack. Frame: slot 0
 * mepc, slots 1-31 x1-x31 (slot 2 the interrupted sp), 32 mstatus, 33 the
 * mscratch value to restore. gp and tp are set to the firmware's before C
 * runs (interrupted code may have changed them); a handler that returns
 * resumes with the frame's registers, mepc and mstatus.
 */
#define TF_SLOTS 36
#define TF_BYTES (TF_SLOTS * REGBYTES)
	.align 2
	.globl trap_entry
trap_entry:
	csrrw	sp, mscratch, sp
	beqz	sp, .Lon_current
	/* sp = trap area top, mscratch = interrupted sp */
	addi	sp, sp, -(TF_BYTES + 16)
	SREG	t0, 5 * REGBYTES(sp)
	csrr	t0, mscratch
	SREG	t0, 2 * REGBYTES(sp)
	addi	t0, sp, TF_BYTES + 16
	SREG	t0, 33 * REGBYTES(sp)
	csrw	mscratch, zero
	j	.Lsave
.Lon_current:
	/* A trap in the handler (or before the trap area exists). */
	csrrw	sp, mscratch, sp
	addi	sp, sp, -TF_BYTES
	SREG	t0, 5 * REGBYTES(sp)
	addi	t0, sp, TF_BYTES
	SREG	t0, 2 * REGBYTES(sp)
	SREG	zero, 33 * REGBYTES(sp)
.Lsave:
	SREG	x1, 1 * REGBYTES(sp)
	SREG	x3, 3 * REGBYTES(sp)
	SREG	x4, 4 * REGBYTES(sp)
	SREG	x6, 6 * REGBYTES(sp)
	SREG	x7, 7 * REGBYTES(sp)
	SREG	x8, 8 * REGBYTES(sp)
	SREG	x9, 9 * REGBYTES(sp)
	SREG	x10, 10 * REGBYTES(sp)
	SREG	x11, 11 * REGBYTES(sp)
	SREG	x12, 12 * REGBYTES(sp)
	SREG	x13, 13 * REGBYTES(sp)
	SREG	x14, 14 * REGBYTES(sp)
	SREG	x15, 15 * REGBYTES(sp)
	SREG	x16, 16 * REGBYTES(sp)
	SREG	x17, 17 * REGBYTES(sp)
	SREG	x18, 18 * REGBYTES(sp)
	SREG	x19, 19 * REGBYTES(sp)
	SREG	x20, 20 * REGBYTES(sp)
	SREG	x21, 21 * REGBYTES(sp)
	SREG	x22, 22 * REGBYTES(sp)
	SREG	x23, 23 * REGBYTES(sp)
	SREG	x24, 24 * REGBYTES(sp)
	SREG	x25, 25 * REGBYTES(sp)
	SREG	x26, 26 * REGBYTES(sp)
	SREG	x27, 27 * REGBYTES(sp)
	SREG	x28, 28 * REGBYTES(sp)
	SREG	x29, 29 * REGBYTES(sp)
	SREG	x30, 30 * REGBYTES(sp)
	SREG	x31, 31 * REGBYTES(sp)
	csrr	t0, mepc
	SREG	t0, 0 * REGBYTES(sp)	/* slot 0 holds mepc (x0 is zero) */
	csrr	t0, mstatus
	SREG	t0, 32 * REGBYTES(sp)
	.option push
	.option norelax
	la	gp, __global_pointer$
	.option pop
	LREG	t0, 33 * REGBYTES(sp)
	beqz	t0, 1f
	LREG	t1, -REGBYTES(t0)	/* the hart's tp, once it has one */
	beqz	t1, 1f
	mv	tp, t1
1:	mv	a0, sp
	call	boot_trap_handler
	/* A handler that returns resumes with the frame. */
	LREG	t0, 0 * REGBYTES(sp)
	csrw	mepc, t0
	LREG	t0, 32 * REGBYTES(sp)
	csrw	mstatus, t0
	LREG	t0, 33 * REGBYTES(sp)
	csrw	mscratch, t0
	LREG	x1, 1 * REGBYTES(sp)
	LREG	x3, 3 * REGBYTES(sp)
	LREG	x4, 4 * REGBYTES(sp)
	LREG	x5, 5 * REGBYTES(sp)
	LREG	x6, 6 * REGBYTES(sp)
	LREG	x7, 7 * REGBYTES(sp)
	LREG	x8, 8 * REGBYTES(sp)
	LREG	x9, 9 * REGBYTES(sp)
	LREG	x10, 10 * REGBYTES(sp)
	LREG	x11, 11 * REGBYTES(sp)
	LREG	x12, 12 * REGBYTES(sp)
	LREG	x13, 13 * REGBYTES(sp)
	LREG	x14, 14 * REGBYTES(sp)
	LREG	x15, 15 * REGBYTES(sp)
	LREG	x16, 16 * REGBYTES(sp)
	LREG	x17, 17 * REGBYTES(sp)
	LREG	x18, 18 * REGBYTES(sp)
	LREG	x19, 19 * REGBYTES(sp)
	LREG	x20, 20 * REGBYTES(sp)
	LREG	x21, 21 * REGBYTES(sp)
	LREG	x22, 22 * REGBYTES(sp)
	LREG	x23, 23 * REGBYTES(sp)
	LREG	x24, 24 * REGBYTES(sp)
	LREG	x25, 25 * REGBYTES(sp)
	LREG	x26, 26 * REGBYTES(sp)
	LREG	x27, 27 * REGBYTES(sp)
	LREG	x28, 28 * REGBYTES(sp)
	LREG	x29, 29 * REGBYTES(sp)
	LREG	x30, 30 * REGBYTES(sp)
	LREG	x31, 31 * REGBYTES(sp)
	LREG	sp, 2 * REGBYTES(sp)
	mret
