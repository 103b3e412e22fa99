/* SPDX-License-Identifier: MIT */
/**
 * @file The machine's vocabulary: CSR bits, trap causes (mcause), their
 * names, and the CSR access macros. Everything but the C parts (marked) is
 * usable from assembly.
 */
#ifndef HAL_CSR_H
#define HAL_CSR_H

#define MSTATUS_MIE 0x00000008
#define MSTATUS_MPIE 0x00000080
#define MSTATUS_MPP 0x00001800 /**< previous privilege: 00 U, 11 M */
#define MSTATUS_MPP_M 0x00001800
#define MSTATUS_FS 0x00006000 /**< FPU state: Off, Initial, Clean, Dirty */
#define MSTATUS_FS_INITIAL 0x00002000
#define MSTATUS_FS_CLEAN 0x00004000
#define MSTATUS_FS_DIRTY 0x00006000
#define MSTATUS_MPRV 0x00020000 /**< M-mode loads/stores use MPP's rights */

#define MIP_MSIP 0x00000008 /**< machine software interrupt (IPI) pending */
#define MIP_MTIP 0x00000080 /**< machine timer interrupt pending */
#define MIP_MEIP 0x00000800 /**< machine external interrupt pending (PLIC) */

/* PMP configuration bits (one byte per entry in pmpcfgN). */
#define PMP_R 0x01
#define PMP_W 0x02
#define PMP_X 0x04
#define PMP_A_TOR 0x08	 /**< top of range: [pmpaddr(i-1), pmpaddr(i)) */
#define PMP_A_NAPOT 0x18 /**< naturally aligned power of two */

/* Exception causes (mcause with the interrupt bit clear). */
#define CAUSE_MISALIGNED_FETCH 0
#define CAUSE_FETCH_ACCESS 1
#define CAUSE_ILLEGAL_INSTRUCTION 2
#define CAUSE_BREAKPOINT 3
#define CAUSE_MISALIGNED_LOAD 4
#define CAUSE_LOAD_ACCESS 5
#define CAUSE_MISALIGNED_STORE 6
#define CAUSE_STORE_ACCESS 7
#define CAUSE_USER_ECALL 8
#define CAUSE_SUPERVISOR_ECALL 9
#define CAUSE_MACHINE_ECALL 11
#define CAUSE_FETCH_PAGE_FAULT 12
#define CAUSE_LOAD_PAGE_FAULT 13
#define CAUSE_STORE_PAGE_FAULT 15

/* Interrupt causes (mcause with CAUSE_INTERRUPT set); also the bit numbers
 * in mie/mip (MIP_MSIP, MIP_MTIP, MIP_MEIP). */
#define CAUSE_MACHINE_SOFTWARE_IRQ 3  /**< IPI (CLINT msip) */
#define CAUSE_MACHINE_TIMER_IRQ 7     /**< the watchdog's timer */
#define CAUSE_MACHINE_EXTERNAL_IRQ 11 /**< PLIC */

#ifndef __ASSEMBLER__

/** mcause's top bit: set for an interrupt, clear for an exception (C only:
 * its value depends on the register width). */
#define CAUSE_INTERRUPT (1UL << (8 * sizeof(long) - 1))

/**
 * A short English name of @p cause (an mcause value) for reports:
 * "illegal instruction", "store/AMO access fault", ... ; "interrupt" for
 * any interrupt, "exception" for a cause the table does not know. Portable
 * (hal/cause.c, also in host builds); never NULL.
 */
const char *hal_cause_name(unsigned long cause);

#define csr_read(csr)                                                          \
	({                                                                     \
		unsigned long v_;                                              \
		__asm__ volatile("csrr %0, " #csr : "=r"(v_) : : "memory");    \
		v_;                                                            \
	})

#define csr_write(csr, val)                                                    \
	__asm__ volatile("csrw " #csr ", %0" : : "rK"(val) : "memory")

#define csr_set(csr, bits)                                                     \
	__asm__ volatile("csrs " #csr ", %0" : : "rK"(bits) : "memory")

#define csr_clear(csr, bits)                                                   \
	__asm__ volatile("csrc " #csr ", %0" : : "rK"(bits) : "memory")

#endif /* __ASSEMBLER__ */
#endif
