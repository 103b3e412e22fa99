// SPDX-License-Identifier: MIT
/* IPIs in S-mode through SBI IPI: the supervisor software interrupt (sip.SSIP),
 * which the receiver clears itself. */
#include <hal/csr.h>
#include <hal/ipi.h>
#include <hal/sbi.h>

void hal_ipi_send(unsigned idx)
{
	/* The ecall orders: the SBI implementation writes the receiver's
	 * interrupt after our earlier stores (its M-mode trap is a full
	 * barrier, and OpenSBI fences before the write). */
	__asm__ volatile("fence rw, rw" ::: "memory");
	sbi_send_ipi(1UL, hal_hart_id(idx));
}

void hal_ipi_clear_self(void)
{
	csr_clear(sip, SIP_SSIP);
	__asm__ volatile("fence rw, rw" ::: "memory");
}
