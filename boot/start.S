/* SPDX-License-Identifier: MIT */
/*
 * Entry for every hart, a0 = hart id, a1 = device tree. M-mode boards: every
 * hart starts here at reset (QEMU's `-bios none` reset vector passes them).
 * S-mode boards (HAL_SMODE): OpenSBI starts one hart here and keeps the
 * others stopped; boot_init() starts them with SBI HSM at _start_secondary
 * once the hart table is ready. Boot order, see docs/boot.md:
 *
 *   1. mask interrupts, install the trap vector, enable the FPU if any;
 *   2. one hart wins the boot lottery (amoswap) and runs boot_init() on the
 *      boot stack: clear .bss, parse the device tree, build the hart table;
 *      boot_init() then publishes boot_released and wakes (M-mode: IPIs) or
 *      starts (S-mode: SBI hart_start) every hart in use;
 *   3. M-mode: the other harts sleep in wfi (no stack yet) until
 *      boot_released;
 *   4. every hart looks its id up in the hart table to get its index,
 *      parks if it has none, else takes the stack of that index and enters
 *      boot_hart_main(index), which never returns.
 */
#include <boot/trap_frame.h>
#include <hal/asm.h>
#include <hal/csr.h>
#include <hal/isolation.h>

	.section .text.start, "ax"
	.globl _start
_start:
#ifdef HAL_SMODE
	/* The RISC-V Image header (Linux's Documentation/riscv/boot-image-
	 * header.rst layout), so U-Boot's booti takes the raw binary:
	 * code0/code1, text_offset, image_size, flags, version, reserved,
	 * the two magics. */
	.option push
	.option norvc			/* code0 must be 4 bytes */
	j	.Lentry			/* code0 */
	.option pop
	.word	0			/* code1 */
	.dword	__image_text_offset	/* where in DRAM the image wants to be */
	.dword	__image_size		/* bytes from _start to the end of RAM use */
	.dword	0			/* flags: little endian */
	.word	2			/* header version 0.2 */
	.word	0
	.dword	0
	.ascii	"RISCV\0\0\0"		/* magic (deprecated) */
	.ascii	"RSC\x05"		/* magic2 */
	.word	0			/* no PE/COFF header */
.Lentry:
	/* Running where we were linked? (la is pc-relative; the literal is
	 * not.) A loader that put us elsewhere gets a clear message. */
	lla	t0, _start
	ld	t1, .Llink_addr
	bne	t0, t1, .Lmisplaced
#endif
	call	.Lcpu_init
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

/* The hart's own CSRs: interrupts off, trap vector, FPU, gp. Clobbers t0. */
.Lcpu_init:
	csrw	CSR_IE, zero
	csrw	CSR_SCRATCH, zero	/* traps use the current stack for now */
	csrci	CSR_STATUS, SR_IE
	la	t0, trap_entry
	csrw	CSR_TVEC, t0
#ifdef HAL_SMODE
	csrw	satp, zero		/* physical addresses (hal/mmu_sv39.c) */
#endif
#ifdef __riscv_flen
	li	t0, MSTATUS_FS_INITIAL	/* read-only 0 on a hart without FPU */
	csrs	CSR_STATUS, t0
	csrr	t0, CSR_STATUS
	li	t1, SR_FS
	and	t0, t0, t1
	beqz	t0, 1f
	csrw	fcsr, zero
1:
#endif
#ifdef __riscv_vector
	/* The vector unit (read-only 0 on a hart without V). Kernels find
	 * their registers zero: the reset value is unspecified. */
	li	t0, MSTATUS_VS_INITIAL
	csrs	CSR_STATUS, t0
	csrr	t0, CSR_STATUS
	li	t1, SR_VS
	and	t0, t0, t1
	beqz	t0, 1f
#ifdef BOARD_VLEN_MAX
	/* Longer registers than a kernel context saves: V stays off. */
	csrr	t0, vlenb
	li	t1, BOARD_VLEN_MAX / 8
	bleu	t0, t1, 2f
	li	t0, SR_VS
	csrc	CSR_STATUS, t0
	j	1f
2:
#endif
	vsetvli	t0, zero, e8, m8, ta, ma
	vmv.v.i	v0, 0
	vmv.v.i	v8, 0
	vmv.v.i	v16, 0
	vmv.v.i	v24, 0
	csrw	vcsr, zero
1:
#endif
	.option push
	.option norelax
	la	gp, __global_pointer$
	.option pop
	ret

#ifdef HAL_SMODE
	/* SBI HSM hart_start lands here: a0 = hart id, a1 = opaque, satp = 0,
	 * sstatus.SIE = 0. boot_released is already set. */
	.globl _start_secondary
_start_secondary:
	call	.Lcpu_init
	mv	s0, a0
	j	.Lfind_index

.Lmisplaced:
	/* SBI legacy console_putchar (EID 1), then system reset (SRST). */
	lla	s0, .Lmisplaced_msg
1:	lbu	a0, 0(s0)
	beqz	a0, 2f
	li	a7, 1
	ecall
	addi	s0, s0, 1
	j	1b
2:	li	a0, 0			/* shutdown */
	li	a1, 1			/* system failure */
	li	a6, 0
	li	a7, 0x53525354		/* "SRST" */
	ecall
	j	boot_park

	.balign 8
.Llink_addr:
	.dword	_start
.Lmisplaced_msg:
	.asciz	"hartpool: fatal boot error: loaded at the wrong address (this image must run where it was linked: see docs/images.md)\r\n"
	.balign 4
#endif

.Lsecondary:
	/* M-mode: every hart but the boot hart. Under SBI only one hart
	 * enters here; a loader that starts every hart at _start gets the
	 * same wait. */
	li	t0, IE_SOFT
	csrw	CSR_IE, t0		/* let an IPI end wfi; interrupts stay off */
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
	 * area (scratch points at its top; the word below the top will
	 * hold the hart's tp), the rest is the stack. */
	addi	t3, t2, 1
	li	t4, BOARD_STACK_SIZE
	mul	t3, t3, t4
	la	sp, __stacks_start
	add	sp, sp, t3
	SREG	zero, BOOT_TRAP_TP(sp)	/* no tp yet */
	SREG	s0, BOOT_TRAP_HARTID(sp)
	csrw	CSR_SCRATCH, sp
	li	t4, BOOT_TRAP_STACK
	sub	sp, sp, t4
	mv	a0, t2
	mv	a1, s0
	call	boot_hart_main
	/* boot_hart_main does not return; fall into the park loop if it did. */

	.globl boot_park
boot_park:
.Lpark:
	csrw	CSR_IE, zero
3:	wfi
	j	3b

/*
 * Trap entry. Traps come from kernels (faults, the watchdog's timer) or
 * from firmware bugs. CSR names are the firmware's mode's (hal/csr.h: the
 * scratch CSR is mscratch or sscratch, ...). A trap taken with scratch != 0
 * runs on the hart's trap area (scratch = its top), whatever sp the
 * interrupted code had (a kernel may have overflowed its stack); scratch is
 * 0 while the handler
 * runs, so a trap inside the handler stays on the trap stack. The frame
 * (boot_trap_frame, TF_* offsets: boot/include/boot/trap_frame.h) holds
 * epc, x1-x31 (sp the interrupted one), status and the scratch value to
 * restore. gp and tp are set to the firmware's before C runs (interrupted
 * code may have changed them); a handler that returns resumes with the
 * frame's registers, epc and status.
 */
	.section .text.tramp, "ax"
	.align 2
	.globl trap_entry
trap_entry:
#ifdef HAL_SMODE
	/* A trap from a kernel arrives with the kernel's page table live, in
	 * which only this section and the trap areas are S-mode's: back to
	 * physical addresses first (identity mapped: the pc stays valid). */
	csrw	satp, zero
#endif
	/* Fast path: a kernel returning from U-mode (the HAL_SYS_EXIT ecall
	 * of hal/isolation.h, once per chunk of work-groups). Its registers
	 * are dead, so no frame: the firmware's tp and gp, and straight on
	 * to hal_user_return() on the trap stack (it longjmps away). Only a7
	 * is looked at before the cause is known, and restored if it is not
	 * that ecall. xRET is not needed: the firmware's mode and MIE = 0
	 * are what the trap left (MPRV was cleared by the xRET into U). */
	addi	a7, a7, -HAL_SYS_EXIT
	bnez	a7, .Lnot_exit
	csrr	a7, CSR_CAUSE
	addi	a7, a7, -CAUSE_USER_ECALL
	bnez	a7, .Lnot_exit_ecall
	csrr	sp, CSR_SCRATCH		/* the trap area's top */
	LREG	tp, BOOT_TRAP_TP(sp)
	addi	sp, sp, -BOOT_TRAP_TOP_RESERVED
	.option push
	.option norelax
	la	gp, __global_pointer$
	.option pop
	j	hal_user_return
.Lnot_exit_ecall:
	li	a7, 0
.Lnot_exit:
	addi	a7, a7, HAL_SYS_EXIT
	csrrw	sp, CSR_SCRATCH, sp
	beqz	sp, .Lon_current
	/* sp = trap area top, scratch = interrupted sp */
	addi	sp, sp, -(TF_SIZE + BOOT_TRAP_TOP_RESERVED)
	SREG	t0, TF_T0(sp)
	csrr	t0, CSR_SCRATCH
	SREG	t0, TF_SP(sp)
	addi	t0, sp, TF_SIZE + BOOT_TRAP_TOP_RESERVED
	SREG	t0, TF_SCRATCH(sp)
	csrw	CSR_SCRATCH, zero
	j	.Lsave
.Lon_current:
	/* A trap in the handler (or before the trap area exists). */
	csrrw	sp, CSR_SCRATCH, sp
	addi	sp, sp, -TF_SIZE
	SREG	t0, TF_T0(sp)
	addi	t0, sp, TF_SIZE
	SREG	t0, TF_SP(sp)
	SREG	zero, TF_SCRATCH(sp)
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
	csrr	t0, CSR_EPC
	SREG	t0, TF_EPC(sp)
	csrr	t0, CSR_STATUS
	SREG	t0, TF_STATUS(sp)
	.option push
	.option norelax
	la	gp, __global_pointer$
	.option pop
	LREG	t0, TF_SCRATCH(sp)
	beqz	t0, 1f
	LREG	t1, BOOT_TRAP_TP(t0)	/* the hart's tp, once it has one */
	beqz	t1, 1f
	mv	tp, t1
1:	mv	a0, sp
	call	boot_trap_handler
	/* A handler that returns resumes with the frame. */
	LREG	t0, TF_EPC(sp)
	csrw	CSR_EPC, t0
	LREG	t0, TF_STATUS(sp)
	csrw	CSR_STATUS, t0
	LREG	t0, TF_SCRATCH(sp)
	csrw	CSR_SCRATCH, t0
#ifdef HAL_SMODE
	/* Back to a kernel (SPP = U): the hart's kernel page table again,
	 * hal_user_satp in its TLS block (the hart's tp, from the trap
	 * area: the interrupted tp may be the kernel's). The registers are
	 * restored after; the frame, the trap area and this code stay
	 * reachable (S-mode's in the kernel tables). */
	csrr	t1, sstatus
	andi	t1, t1, SSTATUS_SPP
	bnez	t1, 1f
	LREG	t1, BOOT_TRAP_TP(t0)
	lui	t2, %tprel_hi(hal_user_satp)
	add	t2, t2, t1, %tprel_add(hal_user_satp)
	LREG	t2, %tprel_lo(hal_user_satp)(t2)
	csrw	satp, t2
	sfence.vma
1:
#endif
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
	XRET
