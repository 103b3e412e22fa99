// SPDX-License-Identifier: MIT
/*
 * Code of exactly known instruction count between markers, for the hpcount
 * plugin (tests/count_check.sh checks each hart's marker deltas). A delta is
 * end count - begin count, so it includes the end marker:
 *
 *   region 0     hart h: 1000 * (h + 1) rounds of a 2-instruction loop,
 *                delta 2000 * (h + 1) + 1
 *   region 1     the last hart sleeps in wfi until a timer 10 ms away
 *                (only the timer is enabled), k wake-ups of a 5-instruction
 *                loop: delta 5k + 1, while the others run region 0
 *   region 2     every hart: 100 loads of mtime (MMIO; under -icount each
 *                one leaves its block to be redone as I/O), delta 301
 *   regions 3, 4 hart 0: 10 / 30 addi, a load that faults (nothing is
 *                mapped at address 0; the trap hook resumes after it), 10 /
 *                50 addi, all in one block: the deltas differ by exactly
 *                60, the trap path being the same both times
 *
 * Markers are written out as HP_MARKER(id) emits them (`slti x0, x0, id`),
 * so that each region is one asm statement of known length. The plugin's
 * vCPU index is the hart index here (QEMU virt numbers harts from 0 in
 * order). Without the plugin the markers are no-ops and the test
 * checks that it runs and took both faults.
 */
#include "tt.h"
#include <board.h>
#include <boot/app.h>
#include <hal/csr.h>
#include <hal/timer.h>
#include <stdint.h>

static unsigned long woke;
static unsigned faults;

bool app_trap_hook(boot_trap_frame *frame, unsigned long cause,
		   unsigned long tval)
{
	if (cause != CAUSE_LOAD_ACCESS || tval != 0)
		return false;
	frame->epc += 4; /* the lw, not compressed (norvc) */
	faults++;
	return true;
}

static void loop_region(unsigned long n)
{
	__asm__ volatile(".insn i 0x13, 2, x0, x0, 0\n"
			 "1: addi %0, %0, -1\n"
			 "bnez %0, 1b\n"
			 ".insn i 0x13, 2, x0, x0, 1"
			 : "+r"(n)
			 :
			 : "memory");
}

static void set_mtimecmp(uint64_t t)
{
	volatile uint32_t *cmp =
		(volatile uint32_t *)(BOARD_CLINT_BASE +
				      BOARD_CLINT_MTIMECMP_OFFSET +
				      8 * csr_read(mhartid));
	cmp[1] = UINT32_MAX; /* never below t while half written */
	cmp[0] = (uint32_t)t;
	cmp[1] = (uint32_t)(t >> 32);
}

static void sleep_region(void)
{
	unsigned long k = 0, saved = csr_read(mie);
	set_mtimecmp(hal_timer_now() + hal_timer_freq() / 100);
	csr_write(mie, MIP_MTIP);
	__asm__ volatile(".insn i 0x13, 2, x0, x0, 2\n"
			 "1: wfi\n"
			 "addi %0, %0, 1\n"
			 "csrr t0, mip\n"
			 "andi t0, t0, %1\n"
			 "beqz t0, 1b\n"
			 ".insn i 0x13, 2, x0, x0, 3"
			 : "+r"(k)
			 : "i"(MIP_MTIP)
			 : "t0", "memory");
	set_mtimecmp(UINT64_MAX);
	csr_write(mie, saved);
	woke = k;
}

static void mmio_region(void)
{
	unsigned long n = 100;
	__asm__ volatile(".insn i 0x13, 2, x0, x0, 4\n"
			 "1: lw t0, 0(%1)\n"
			 "addi %0, %0, -1\n"
			 "bnez %0, 1b\n"
			 ".insn i 0x13, 2, x0, x0, 5"
			 : "+r"(n)
			 : "r"(BOARD_CLINT_BASE + BOARD_CLINT_MTIME_OFFSET)
			 : "t0", "memory");
}

/* BEFORE addi, a load from address 0 (an access fault), AFTER addi. */
#define FAULT_ASM(begin, end, before, after)                                   \
	".option push\n"                                                       \
	".option norvc\n"                                                      \
	".insn i 0x13, 2, x0, x0, " #begin "\n"                                \
	".rept " #before "\n"                                                  \
	"addi t0, t0, 1\n"                                                     \
	".endr\n"                                                              \
	"lw t0, 0(zero)\n"                                                     \
	".rept " #after "\n"                                                   \
	"addi t0, t0, 1\n"                                                     \
	".endr\n"                                                              \
	".insn i 0x13, 2, x0, x0, " #end "\n"                                  \
	".option pop\n"

int app_main(void)
{
	unsigned me = hal_hart_idx(), n = hal_hart_num();
	TT_CHECK(csr_read(mhartid) == me);
	boot_barrier_all();
	if (me == n - 1)
		sleep_region();
	loop_region(1000ul * (me + 1));
	mmio_region();
	boot_barrier_all();
	if (me == 0) {
		__asm__ volatile(FAULT_ASM(6, 7, 10, 10)::: "t0", "memory");
		__asm__ volatile(FAULT_ASM(8, 9, 30, 50)::: "t0", "memory");
		TT_CHECK(faults == 2);
		hal_printf("count: hart %u woke %lu times\n", n - 1, woke);
		hal_printf("count: %u harts, %u faults taken\n", n, faults);
	}
	return tt_result();
}
