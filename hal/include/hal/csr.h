/* SPDX-License-Identifier: MIT */
/**
 * @file The machine's vocabulary: CSR bits, trap causes (mcause), their
 * names, and the CSR access macros. Everything but the C parts (marked) is
 * usable from assembly.
 *
 * The firmware runs in M-mode (boards that start it at reset) or in S-mode
 * (HAL_SMODE: boards where OpenSBI starts it, board.mk BOARD_PRIV := S).
 * Code that runs in "its own mode" names the CSRs and bits of that mode
 * through CSR_STATUS, CSR_IE, SR_IE, IE_SOFT, ... (the same scheme Linux
 * uses for its M-mode and S-mode builds); the M-mode and S-mode names
 * stay for code that means one mode.
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
#define MSTATUS_VS 0x00000600 /**< vector state: Off, Initial, Clean, Dirty */
#define MSTATUS_VS_INITIAL 0x00000200
#define MSTATUS_MPRV 0x00020000 /**< M-mode loads/stores use MPP's rights */

#define SSTATUS_SIE 0x00000002
#define SSTATUS_SPIE 0x00000020
#define SSTATUS_SPP 0x00000100 /**< previous privilege: 0 U, 1 S */
#define SSTATUS_SUM 0x00040000 /**< S-mode may access U pages */

#define MIP_MSIP 0x00000008 /**< machine software interrupt (IPI) pending */
#define MIP_MTIP 0x00000080 /**< machine timer interrupt pending */
#define MIP_MEIP 0x00000800 /**< machine external interrupt pending (PLIC) */
#define SIP_SSIP 0x00000002 /**< supervisor software interrupt (SBI IPI) */
#define SIP_STIP 0x00000020 /**< supervisor timer interrupt (SBI TIME) */
#define SIP_SEIP 0x00000200 /**< supervisor external interrupt (PLIC) */

/* satp (Sv39 page tables, hal/mmu_sv39.c). */
#define SATP_MODE_SV39 (8UL << 60)

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
#define CAUSE_SUPERVISOR_SOFTWARE_IRQ 1
#define CAUSE_SUPERVISOR_TIMER_IRQ 5
#define CAUSE_SUPERVISOR_EXTERNAL_IRQ 9

/* The firmware's own mode. */
#ifdef HAL_SMODE
#define CSR_STATUS sstatus
#define CSR_IE sie
#define CSR_IP sip
#define CSR_TVEC stvec
#define CSR_SCRATCH sscratch
#define CSR_EPC sepc
#define CSR_CAUSE scause
#define CSR_TVAL stval
#define SR_IE SSTATUS_SIE
#define SR_PIE SSTATUS_SPIE
#define SR_PP SSTATUS_SPP /**< previous privilege (0: U) */
#define SR_PP_OWN SSTATUS_SPP
#define IE_SOFT SIP_SSIP
#define IE_TIMER SIP_STIP
#define IE_EXT SIP_SEIP
#define CAUSE_TIMER_IRQ CAUSE_SUPERVISOR_TIMER_IRQ
#define CAUSE_SOFT_IRQ CAUSE_SUPERVISOR_SOFTWARE_IRQ
#define CAUSE_EXT_IRQ CAUSE_SUPERVISOR_EXTERNAL_IRQ
#define XRET sret
#define HAL_PRIV_NAME "S"
#else
#define CSR_STATUS mstatus
#define CSR_IE mie
#define CSR_IP mip
#define CSR_TVEC mtvec
#define CSR_SCRATCH mscratch
#define CSR_EPC mepc
#define CSR_CAUSE mcause
#define CSR_TVAL mtval
#define SR_IE MSTATUS_MIE
#define SR_PIE MSTATUS_MPIE
#define SR_PP MSTATUS_MPP /**< previous privilege (0: U) */
#define SR_PP_OWN MSTATUS_MPP_M
#define IE_SOFT MIP_MSIP
#define IE_TIMER MIP_MTIP
#define IE_EXT MIP_MEIP
#define CAUSE_TIMER_IRQ CAUSE_MACHINE_TIMER_IRQ
#define CAUSE_SOFT_IRQ CAUSE_MACHINE_SOFTWARE_IRQ
#define CAUSE_EXT_IRQ CAUSE_MACHINE_EXTERNAL_IRQ
#define XRET mret
#define HAL_PRIV_NAME "M"
#endif
/* FS and VS have the same places in mstatus and sstatus. */
#define SR_FS MSTATUS_FS
#define SR_VS MSTATUS_VS

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

/* The CSR's name after macro expansion (csr_read(CSR_STATUS)). */
#define HAL_CSR_STR_(x) #x
#define HAL_CSR_STR(x) HAL_CSR_STR_(x)

#define csr_read(csr)                                                          \
	({                                                                     \
		unsigned long v_;                                              \
		__asm__ volatile("csrr %0, " HAL_CSR_STR(csr)                  \
				 : "=r"(v_)                                    \
				 :                                             \
				 : "memory");                                  \
		v_;                                                            \
	})

#define csr_write(csr, val)                                                    \
	__asm__ volatile("csrw " HAL_CSR_STR(csr) ", %0"                       \
			 :                                                     \
			 : "rK"(val)                                           \
			 : "memory")

/* Write val, return what was there (one csrrw). */
#define csr_swap(csr, val)                                                     \
	({                                                                     \
		unsigned long o_;                                              \
		__asm__ volatile("csrrw %0, " HAL_CSR_STR(csr) ", %1"          \
				 : "=r"(o_)                                    \
				 : "rK"(val)                                   \
				 : "memory");                                  \
		o_;                                                            \
	})

#define csr_set(csr, bits)                                                     \
	__asm__ volatile("csrs " HAL_CSR_STR(csr) ", %0"                       \
			 :                                                     \
			 : "rK"(bits)                                          \
			 : "memory")

#define csr_clear(csr, bits)                                                   \
	__asm__ volatile("csrc " HAL_CSR_STR(csr) ", %0"                       \
			 :                                                     \
			 : "rK"(bits)                                          \
			 : "memory")

#endif /* __ASSEMBLER__ */
#endif
