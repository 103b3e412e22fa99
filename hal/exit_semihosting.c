// SPDX-License-Identifier: MIT
/* Exit through RISC-V semihosting (SYS_EXIT_EXTENDED), for machines
 * without a finisher device (QEMU's sifive_u and microchip-icicle-kit):
 * QEMU started with `-semihosting-config enable=on,target=native` ends
 * with the firmware's code as its exit status (board.mk QEMU_EXIT :=
 * semihosting). Without semihosting the ebreak is a breakpoint trap: the
 * hart then prints "hartpool: exit status N" and parks, and whoever runs
 * QEMU stops it (docs/boards/). On hardware a debugger may catch the
 * ebreak the same way. */
#include "mmio.h"
#include <hal/console.h>
#include <hal/csr.h>
#include <hal/exit.h>
#include <stdint.h>
#include <stdio.h>

#define SYS_EXIT_EXTENDED 0x20
#define ADP_STOPPED_APPLICATION_EXIT 0x20026

/* The semihosting call: uncompressed, and the three instructions in one
 * page (the 16-byte aligned start keeps them there). a0 = operation, a1 =
 * parameter block. */
long hal_semihost_call(long op, void *param);
__asm__(".pushsection .text.hal_semihost, \"ax\", @progbits\n"
	".balign 16\n"
	".option push\n"
	".option norvc\n"
	".globl hal_semihost_call\n"
	"hal_semihost_call:\n"
	"	slli x0, x0, 0x1f\n"
	"	ebreak\n"
	"	srai x0, x0, 7\n"
	"	ret\n"
	".option pop\n"
	".popsection\n");

static unsigned exit_code;

/* The breakpoint trap of a QEMU without semihosting lands here (mtvec),
 * on the stack hal_exit ran on: say it, and park. */
__attribute__((noreturn, used)) static void no_semihosting(void)
{
	char line[64];
	int n = snprintf(line, sizeof(line), "hartpool: exit status %u\n",
			 exit_code);
	hal_console_write_fatal(line, n > 0 ? (size_t)n : 0);
	for (;;)
		__asm__ volatile("wfi");
}
__asm__(".pushsection .text.hal_semihost_trap, \"ax\", @progbits\n"
	".balign 4\n"
	"hal_semihost_trap:\n"
	"	j no_semihosting\n"
	".popsection\n");

void hal_exit(unsigned code)
{
	extern char hal_semihost_trap[];
	uint64_t block[2] = {ADP_STOPPED_APPLICATION_EXIT, code & 0xffffu};
	exit_code = code & 0xffffu;
	/* No interrupt, and no trap into the firmware's handler: this hart
	 * is done. */
	csr_write(mie, 0);
	csr_clear(mstatus, MSTATUS_MIE);
	csr_write(mtvec, (uintptr_t)hal_semihost_trap);
	mmio_fence();
	hal_semihost_call(SYS_EXIT_EXTENDED, block);
	no_semihosting();
}
