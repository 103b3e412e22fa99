// SPDX-License-Identifier: MIT
/* Ending the run in S-mode. Under QEMU the device tree names the sifive_test
 * finisher, which S-mode may write: the exit status is then the verdict, as
 * in M-mode. Elsewhere SBI SRST shuts the system down (reason "system
 * failure" for a non-zero code: SRST carries no number). */
#include "mmio.h"
#include <hal/exit.h>
#include <hal/sbi.h>

uintptr_t hal_exit_finisher;

void hal_exit(unsigned code)
{
	mmio_fence();
	if (hal_exit_finisher)
		mmio_write32(hal_exit_finisher,
			     code == 0 ? 0x5555u
				       : (code & 0xffffu) << 16 | 0x3333u);
	sbi_shutdown(code ? SBI_SRST_REASON_FAILURE : SBI_SRST_REASON_NONE);
	for (;;)
		__asm__ volatile("wfi");
}
