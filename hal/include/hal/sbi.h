/* SPDX-License-Identifier: MIT */
/**
 * @file Calls into the SBI firmware (OpenSBI) below an S-mode build: the
 * RISC-V SBI specification's calling convention (a7 = extension id, a6 =
 * function id, a0-a5 arguments; a0 = error, a1 = value back).
 */
#ifndef HAL_SBI_H
#define HAL_SBI_H

#include <stdint.h>

#define SBI_EXT_LEGACY_PUTCHAR 0x01
#define SBI_EXT_LEGACY_GETCHAR 0x02
#define SBI_EXT_BASE 0x10
#define SBI_EXT_TIME 0x54494d45	  /* "TIME" */
#define SBI_EXT_IPI 0x735049	  /* "sPI" */
#define SBI_EXT_HSM 0x48534d	  /* "HSM" */
#define SBI_EXT_SRST 0x53525354	  /* "SRST" */
#define SBI_EXT_RFENCE 0x52464e43 /* "RFNC" */

#define SBI_SUCCESS 0
#define SBI_ERR_FAILED (-1)
#define SBI_ERR_NOT_SUPPORTED (-2)
#define SBI_ERR_INVALID_PARAM (-3)
#define SBI_ERR_ALREADY_AVAILABLE (-6)

#define SBI_SRST_SHUTDOWN 0
#define SBI_SRST_REASON_NONE 0
#define SBI_SRST_REASON_FAILURE 1

typedef struct {
	long error;
	long value;
} sbi_ret;

sbi_ret sbi_call(unsigned long ext, unsigned long fid, unsigned long a0,
		 unsigned long a1, unsigned long a2);

/** Does the SBI implementation have extension @p ext? */
int sbi_probe(unsigned long ext);
/** Start hart @p hart_id at @p addr with a1 = @p opaque (HSM). */
long sbi_hart_start(unsigned long hart_id, unsigned long addr,
		    unsigned long opaque);
/** Supervisor software interrupt to the harts of @p mask << @p base. */
long sbi_send_ipi(unsigned long mask, unsigned long base);
/** Every hart of @p mask (from @p base; base -1: all harts) flushes its
 * TLB of [start, start + size); returns when they did. */
long sbi_remote_sfence_vma(unsigned long mask, unsigned long base,
			   unsigned long start, unsigned long size);
/** Program the supervisor timer (clears a pending one). */
void sbi_set_timer(uint64_t t);
/** Shut the system down (SRST); returns only if that failed. */
void sbi_shutdown(unsigned reason);
/** The legacy console (SBI v0.1 putchar/getchar): the console of last
 * resort when the device tree names no UART hartpool drives. */
void sbi_console_putchar(int c);
int sbi_console_getchar(void);

#endif
