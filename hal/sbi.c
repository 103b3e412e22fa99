// SPDX-License-Identifier: MIT
/* SBI calls (hal/sbi.h). */
#include <hal/sbi.h>

sbi_ret sbi_call(unsigned long ext, unsigned long fid, unsigned long a0,
		 unsigned long a1, unsigned long a2)
{
	register unsigned long r0 __asm__("a0") = a0;
	register unsigned long r1 __asm__("a1") = a1;
	register unsigned long r2 __asm__("a2") = a2;
	register unsigned long r6 __asm__("a6") = fid;
	register unsigned long r7 __asm__("a7") = ext;
	__asm__ volatile("ecall"
			 : "+r"(r0), "+r"(r1)
			 : "r"(r2), "r"(r6), "r"(r7)
			 : "memory");
	return (sbi_ret){(long)r0, (long)r1};
}

int sbi_probe(unsigned long ext)
{
	sbi_ret r = sbi_call(SBI_EXT_BASE, 3, ext, 0, 0);
	return r.error == SBI_SUCCESS && r.value != 0;
}

long sbi_hart_start(unsigned long hart_id, unsigned long addr,
		    unsigned long opaque)
{
	return sbi_call(SBI_EXT_HSM, 0, hart_id, addr, opaque).error;
}

long sbi_remote_sfence_vma(unsigned long mask, unsigned long base,
			   unsigned long start, unsigned long size)
{
	register unsigned long r0 __asm__("a0") = mask;
	register unsigned long r1 __asm__("a1") = base;
	register unsigned long r2 __asm__("a2") = start;
	register unsigned long r3 __asm__("a3") = size;
	register unsigned long r6 __asm__("a6") = 1; /* remote_sfence_vma */
	register unsigned long r7 __asm__("a7") = SBI_EXT_RFENCE;
	__asm__ volatile("ecall"
			 : "+r"(r0), "+r"(r1)
			 : "r"(r2), "r"(r3), "r"(r6), "r"(r7)
			 : "memory");
	return (long)r0;
}

long sbi_send_ipi(unsigned long mask, unsigned long base)
{
	return sbi_call(SBI_EXT_IPI, 0, mask, base, 0).error;
}

void sbi_set_timer(uint64_t t)
{
#if __riscv_xlen == 64
	sbi_call(SBI_EXT_TIME, 0, t, 0, 0);
#else
	sbi_call(SBI_EXT_TIME, 0, (unsigned long)t, (unsigned long)(t >> 32),
		 0);
#endif
}

void sbi_shutdown(unsigned reason)
{
	sbi_call(SBI_EXT_SRST, 0, SBI_SRST_SHUTDOWN, reason, 0);
}

void sbi_console_putchar(int c)
{
	sbi_call(SBI_EXT_LEGACY_PUTCHAR, 0, (unsigned long)c, 0, 0);
}

int sbi_console_getchar(void)
{
	return (int)sbi_call(SBI_EXT_LEGACY_GETCHAR, 0, 0, 0, 0).error;
}
