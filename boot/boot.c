// SPDX-License-Identifier: MIT
/* C side of the boot sequence; the order is in boot/start.S and docs/boot.md.
 */
#include <board.h>
#include <boot/app.h>
#include <hal/barrier.h>
#include <hal/console.h>
#include <hal/csr.h>
#include <hal/exit.h>
#include <hal/fdt.h>
#include <hal/hart.h>
#include <hal/ipi.h>
#include <hal/timer.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Set by the hart table code in hal/hart.c; read by start.S. */
extern uint32_t hal_hart_ids[];
extern unsigned hal_hart_found, hal_hart_used;

/* Linker symbols (linker/common.ld). */
extern char __data_start[], __data_end[], __data_load[];
extern char __bss_start[], __bss_end[], __kdata_start[], __kdata_end[];
extern char __tdata_start[], __tdata_end[], __tbss_start[], __tbss_end[];
extern char __hart_tls_start[], __hart_tls_stride[];

/* Touched by every hart before .bss is cleared, so not in .bss. */
__attribute__((section(".boot.data"))) unsigned boot_lottery;
__attribute__((section(".boot.data"))) unsigned boot_released;

unsigned long long boot_time_start;
const char *boot_bootargs;
unsigned boot_bootargs_len;
unsigned long long boot_mem_base, boot_mem_size;
/* The bootargs, copied: nothing reads the device tree after boot_init, so
 * the memory QEMU put it in can be handed out (the buffer heap). */
static char boot_bootargs_copy[1024];
static hal_barrier boot_barrier;
static unsigned boot_exit_status;

__attribute__((noreturn)) void boot_park(void);

/* Point tp at the TLS block `slot` and initialise it from the image. Must
 * not itself touch thread-local variables. */
static void boot_tls_setup(unsigned slot)
{
	char *tls = __hart_tls_start + slot * (uintptr_t)__hart_tls_stride;
	size_t tdata = (size_t)(__tdata_end - __tdata_start);
	memcpy(tls, __tdata_start, tdata);
	memset(tls + tdata, 0, (size_t)(__tbss_end - __tbss_start));
	__asm__ volatile("mv tp, %0" : : "r"(tls) : "memory");
}

__attribute__((noreturn, format(printf, 1, 2))) static void
boot_fatal(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	hal_printf("hartpool: fatal boot error: ");
	hal_vprintf(fmt, ap);
	va_end(ap);
	hal_exit(HAL_EXIT_BOOT);
}

/* Runs on the boot hart only, on the boot stack, while the others sleep. */
void boot_init(unsigned long hart_id, const void *dtb)
{
	/* The boot hart uses the spare TLS block past the per-index ones, as
	 * its own index is not known yet. */
	boot_tls_setup(HAL_MAX_HARTS);
	if ((uintptr_t)__data_load != (uintptr_t)__data_start)
		memcpy(__data_start, __data_load,
		       (size_t)(__data_end - __data_start));
	memset(__bss_start, 0, (size_t)(__bss_end - __bss_start));
	memset(__kdata_start, 0, (size_t)(__kdata_end - __kdata_start));

	hal_console_init();
	boot_time_start = hal_timer_now();

	fdt_info fi = {.hart_ids = hal_hart_ids, .hart_ids_cap = HAL_MAX_HARTS};
	size_t size = fdt_total_size(dtb);
	int rc = fdt_read(dtb, size, &fi);
	if (rc != FDT_OK)
		boot_fatal("no usable device tree at %p (fdt error %d)\n", dtb,
			   rc);
	if (fi.hart_num == 0)
		boot_fatal("the device tree lists no enabled harts\n");
	hal_hart_found =
		fi.hart_num < HAL_MAX_HARTS ? fi.hart_num : HAL_MAX_HARTS;
	hal_hart_used = hal_hart_found;
	if (fi.bootargs) {
		unsigned n = fi.bootargs_len;
		if (n >= sizeof(boot_bootargs_copy)) {
			n = sizeof(boot_bootargs_copy) - 1;
			hal_printf("hartpool: warning: bootargs cut to %u "
				   "bytes\n",
				   n);
		}
		memcpy(boot_bootargs_copy, fi.bootargs, n);
		boot_bootargs = boot_bootargs_copy;
		boot_bootargs_len = n;
	}
	boot_mem_base = fi.mem_base;
	boot_mem_size = fi.mem_size;

	unsigned long cap;
	int have_cap = fdt_bootarg_uint(fi.bootargs, fi.bootargs_len,
					"hartpool.harts", &cap);
	if (have_cap < 0 || (have_cap > 0 && cap == 0))
		hal_printf("hartpool: warning: ignoring malformed "
			   "hartpool.harts= in bootargs\n");
	else if (have_cap > 0 && cap < hal_hart_used)
		hal_hart_used = (unsigned)cap;

	hal_timer_init(fi.timebase_hz);
	hal_barrier_init(&boot_barrier, hal_hart_used);

	hal_printf("hartpool: board " BOARD_NAME ", %u harts in use of %u "
		   "found (%u parked), boot hart id %lu, timebase %lu Hz\n",
		   hal_hart_used, fi.hart_num, fi.hart_num - hal_hart_used,
		   hart_id, (unsigned long)hal_timer_freq());

	/* Release: everything above is published by this store. */
	hal_store_release(&boot_released, 1u);
	for (unsigned i = 0; i < hal_hart_found; i++)
		if (hal_hart_ids[i] != hart_id)
			hal_ipi_send(i);
}

/* Every hart in use, on its own stack, once the hart table is ready. */
__attribute__((noreturn)) void boot_hart_main(unsigned idx)
{
	boot_tls_setup(idx);
	hal_tls_hart_idx = idx;
	/* The trap entry takes the firmware's tp from below the trap area's
	 * top (interrupted code may have changed tp). */
	unsigned long tp;
	__asm__("mv %0, tp" : "=r"(tp));
	*(unsigned long *)(csr_read(mscratch) + BOOT_TRAP_TP) = tp;
	hal_ipi_clear_self(); /* the release IPI */
	csr_write(mie, MIP_MSIP);

	hal_barrier_wait(&boot_barrier); /* everyone online */
	int rc = app_main();
	if (rc) {
		unsigned zero = 0;
		hal_cas(&boot_exit_status, &zero, (unsigned)rc);
	}
	hal_barrier_wait(&boot_barrier); /* everyone done */
	if (idx == 0)
		hal_exit(hal_load_acquire(&boot_exit_status));
	boot_park();
}

void boot_barrier_all(void)
{
	hal_barrier_wait(&boot_barrier);
}

__attribute__((weak)) bool
app_trap_hook(boot_trap_frame *frame, unsigned long cause, unsigned long tval)
{
	(void)frame;
	(void)cause;
	(void)tval;
	return false;
}

void boot_trap_redirect(boot_trap_frame *f, void (*fn)(void *, int), void *a0,
			int a1)
{
	unsigned long gp, tp;
	__asm__("mv %0, gp" : "=r"(gp));
	__asm__("mv %0, tp" : "=r"(tp));
	f->epc = (unsigned long)fn;
	f->sp = (unsigned long)f; /* the trap stack below the frame */
	f->gp = gp;
	f->tp = tp; /* the firmware's: U-mode code may have changed it */
	f->a0 = (unsigned long)a0;
	f->a1 = (unsigned long)(long)a1;
	/* mret to M-mode with MIE = MPIE = 0 and no MPRV. */
	f->mstatus =
		(f->mstatus & ~(MSTATUS_MPIE | MSTATUS_MPRV)) | MSTATUS_MPP_M;
}

__attribute__((weak)) bool boot_recover_hook(boot_trap_frame *frame,
					     unsigned long cause,
					     unsigned long tval)
{
	(void)frame;
	(void)cause;
	(void)tval;
	return false;
}

/* Index of hart_id without using TLS (a trap may come before tp is set). */
static long boot_idx_of(unsigned long hart_id)
{
	unsigned n = hal_load_acquire(&boot_released) ? hal_hart_found : 0;
	for (unsigned i = 0; i < n; i++)
		if (hal_hart_ids[i] == hart_id)
			return i;
	return -1;
}

/* Hart id + 1 of the hart that holds the trap report claim, 0 if none. */
static unsigned long boot_trap_owner;

void boot_trap_handler(boot_trap_frame *f)
{
	unsigned long cause = csr_read(mcause), tval = csr_read(mtval);
	unsigned long hart_id = csr_read(mhartid);

	/* The order is boot/app.h's. 1: contained faults first, without
	 * the claim: harts may trap in kernels at the same time, and each
	 * recovers on its own. */
	if (boot_recover_hook(f, cause, tval))
		return;
	/* 2: claim the report. Held by this hart: a trap inside
	 * app_trap_hook or the report ends the run now. Held by another
	 * hart: park for good (that hart reports, or its hook resumes it). */
	unsigned long none = 0;
	if (!hal_cas(&boot_trap_owner, &none, hart_id + 1)) {
		if (none == hart_id + 1)
			hal_exit(HAL_EXIT_TRAP);
		boot_park();
	}
	/* 3: the application's hook, with the claim held. */
	if (app_trap_hook(f, cause, tval)) {
		hal_store_release(&boot_trap_owner, 0UL);
		return;
	}
	/* 4: report and stop. */
	char line[HAL_PRINTF_MAX];
	int n = snprintf(line, sizeof(line),
			 "hartpool: unexpected trap on hart %ld (id %lu): "
			 "cause %lu (%s) epc 0x%lx tval 0x%lx ra 0x%lx sp "
			 "0x%lx\n",
			 boot_idx_of(hart_id), hart_id, cause,
			 hal_cause_name(cause), f->epc, tval, f->ra, f->sp);
	hal_console_write_fatal(line, n > 0 ? (size_t)n : 0);
	hal_exit(HAL_EXIT_TRAP);
}
