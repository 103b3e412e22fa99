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
#ifdef HAL_SMODE
#include <hal/irq.h>
#include <hal/sbi.h>
#endif
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* Set by the hart table code in hal/hart.c; read by start.S. */
extern uint32_t hal_hart_ids[];
extern uint8_t hal_hart_caps_tab[];
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
unsigned long boot_dtb_base, boot_dtb_size;
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

/* What a board without a device tree declares (board.h BOARD_HARTS: an
 * initializer list of {hart id, HAL_HART_* bits}, ascending ids). */
#ifdef BOARD_HARTS
static const struct {
	uint32_t id;
	uint8_t caps;
} boot_board_harts[] = BOARD_HARTS;
#endif

_Static_assert(HAL_HART_F == FDT_HART_F && HAL_HART_D == FDT_HART_D &&
		       HAL_HART_MMU == FDT_HART_MMU && HAL_HART_S == FDT_HART_S,
	       "hal/hart.h and hal/fdt.h hart capability bits differ");

/* Harts the device tree lists that boot does not use, and why. */
boot_skipped_hart boot_skipped[BOOT_SKIPPED_MAX];
unsigned boot_skipped_num;
unsigned boot_uart_irq;
unsigned long boot_doorbell_base;
unsigned boot_doorbell_irq;

#ifdef HAL_SMODE
static void boot_skip(uint32_t id, const char *why)
{
	if (boot_skipped_num < BOOT_SKIPPED_MAX)
		boot_skipped[boot_skipped_num] =
			(boot_skipped_hart){.id = id, .why = why};
	boot_skipped_num++;
}

extern uintptr_t hal_exit_finisher;
extern char _start_secondary[];
/* The image's extent: a device tree inside it would be overwritten when
 * .bss and the heaps are cleared. */
extern char _start[], __heap_end[];

/* Keep only the harts that can run an S-mode payload; the others (monitor
 * cores such as the E51 on FU540/FU740/JH7110/PolarFire) are skipped. */
static unsigned boot_keep_s_harts(unsigned n, int32_t *plic_ctx)
{
	unsigned kept = 0;
	for (unsigned i = 0; i < n; i++) {
		if (!(hal_hart_caps_tab[i] & HAL_HART_S)) {
			boot_skip(hal_hart_ids[i],
				  hal_hart_caps_tab[i] & HAL_HART_MMU
					  ? "no S-mode"
					  : "no S-mode (no mmu-type, no 's' "
					    "in riscv,isa)");
			continue;
		}
		hal_hart_ids[kept] = hal_hart_ids[i];
		hal_hart_caps_tab[kept] = hal_hart_caps_tab[i];
		plic_ctx[kept] = plic_ctx[i];
		kept++;
	}
	return kept;
}
#endif

/* The hart table from the device tree: ids, capabilities, and in S-mode
 * the console, the PLIC context and the finisher. */
static void boot_read_tree(const void *dtb, fdt_info *fi)
{
	static int32_t plic_ctx[HAL_MAX_HARTS];
	*fi = (fdt_info){.hart_ids = hal_hart_ids,
			 .hart_ids_cap = HAL_MAX_HARTS,
			 .hart_caps = hal_hart_caps_tab,
			 .hart_plic_ctx = plic_ctx,
#ifdef HAL_SMODE
			 .plic_line = CAUSE_SUPERVISOR_EXTERNAL_IRQ
#else
			 .plic_line = CAUSE_MACHINE_EXTERNAL_IRQ
#endif
	};
	size_t size = fdt_total_size(dtb);
	int rc = fdt_read(dtb, size, fi);
	if (rc != FDT_OK)
		boot_fatal("no usable device tree at %p (fdt error %d)\n", dtb,
			   rc);
	if (fi->hart_num == 0)
		boot_fatal("the device tree lists no enabled harts\n");
	unsigned n =
		fi->hart_num < HAL_MAX_HARTS ? fi->hart_num : HAL_MAX_HARTS;
#ifdef HAL_SMODE
	/* The console first, so what follows can be read. */
	if (hal_console_configure(&fi->uart)) {
		hal_console_init();
		boot_uart_irq = fi->uart.irq;
	}
	hal_exit_finisher = (uintptr_t)fi->test_base;
	n = boot_keep_s_harts(n, plic_ctx);
	if (n == 0)
		boot_fatal("the device tree lists no hart that runs S-mode\n");
	/* Device interrupts go to hart index 0's S-mode context. */
	hal_irq_setup((uintptr_t)fi->plic_base, plic_ctx[0]);
#endif
	hal_hart_found = n;
}

/* Runs on the boot hart only, on the boot stack, while the others sleep. */
/* The firmware's memory as the image left it: .data copied where it runs
 * from ROM, .bss and kernel-visible data zeroed. S-mode: a device tree
 * inside the firmware's memory would be overwritten. */
static void memory_init(const void *dtb)
{
#ifdef HAL_SMODE
	if ((const char *)dtb >= _start && (const char *)dtb < __heap_end)
		boot_fatal("the device tree at %p lies inside the firmware's "
			   "memory (%p-%p): load it higher\n",
			   dtb, (void *)_start, (void *)__heap_end);
#else
	(void)dtb;
#endif
	if ((uintptr_t)__data_load != (uintptr_t)__data_start)
		memcpy(__data_start, __data_load,
		       (size_t)(__data_end - __data_start));
	memset(__bss_start, 0, (size_t)(__bss_end - __bss_start));
	memset(__kdata_start, 0, (size_t)(__kdata_end - __kdata_start));
}

/* M-mode boards know their console; S-mode ones learn it from the device
 * tree (SBI's console until then). */
static void console_early(void)
{
#ifndef HAL_SMODE
	hal_console_init();
#ifdef BOARD_UART_IRQ
	boot_uart_irq = BOARD_UART_IRQ;
#endif
#endif
}

/* The harts and the rest of what boot needs of the device tree, into
 * @p fi; a board without a tree (BOARD_HARTS) has its own hart table. */
static void harts_discover(const void *dtb, fdt_info *fi)
{
#ifdef BOARD_HARTS
	if (fdt_total_size(dtb) == 0) {
		unsigned n =
			sizeof(boot_board_harts) / sizeof(boot_board_harts[0]);
		for (unsigned i = 0; i < n && i < HAL_MAX_HARTS; i++) {
			hal_hart_ids[i] = boot_board_harts[i].id;
			hal_hart_caps_tab[i] = boot_board_harts[i].caps;
		}
		fi->hart_num = n;
		hal_hart_found = n < HAL_MAX_HARTS ? n : HAL_MAX_HARTS;
		return;
	}
#endif
	boot_read_tree(dtb, fi);
}

/* What boot keeps of the tree: a copy of the bootargs, the doorbell, the
 * memory and the tree's own place; and the harts in use (hartpool.harts
 * may hold some back). */
static void tree_keep(const void *dtb, const fdt_info *fi)
{
	if (fi->bootargs) {
		unsigned n = fi->bootargs_len;
		if (n >= sizeof(boot_bootargs_copy)) {
			n = sizeof(boot_bootargs_copy) - 1;
			hal_printf("hartpool: warning: bootargs cut to %u "
				   "bytes\n",
				   n);
		}
		memcpy(boot_bootargs_copy, fi->bootargs, n);
		boot_bootargs = boot_bootargs_copy;
		boot_bootargs_len = n;
	}
	boot_doorbell_base = (unsigned long)fi->doorbell_base;
	boot_doorbell_irq = fi->doorbell_irq;
	boot_mem_base = fi->mem_base;
	boot_mem_size = fi->mem_size;
	boot_dtb_base = (unsigned long)(uintptr_t)dtb;
	boot_dtb_size = fi->hart_num ? (unsigned long)fdt_total_size(dtb) : 0;

	hal_hart_used = hal_hart_found;
	unsigned long cap;
	int have_cap = fdt_bootarg_uint(fi->bootargs, fi->bootargs_len,
					"hartpool.harts", &cap);
	if (have_cap < 0 || (have_cap > 0 && cap == 0))
		hal_printf("hartpool: warning: ignoring malformed "
			   "hartpool.harts= in bootargs\n");
	else if (have_cap > 0 && cap < hal_hart_used)
		hal_hart_used = (unsigned)cap;
}

/* The boot line, the barrier unit and the harts skipped. */
static void report(unsigned long hart_id, bool unit)
{
	hal_printf("hartpool: board " BOARD_NAME " (" HAL_PRIV_NAME
		   "-mode), %u harts in use of %u found (%u parked, %u "
		   "skipped), boot hart id %lu, timebase %lu Hz\n",
		   hal_hart_used, hal_hart_found + boot_skipped_num,
		   hal_hart_found - hal_hart_used, boot_skipped_num, hart_id,
		   (unsigned long)hal_timer_freq());
	if (unit)
		hal_printf("hartpool: team barriers in the barrier unit\n");
	for (unsigned i = 0; i < boot_skipped_num && i < BOOT_SKIPPED_MAX; i++)
		hal_printf("hartpool: skipped hart id %lu: %s\n",
			   (unsigned long)boot_skipped[i].id,
			   boot_skipped[i].why);
}

/* The other harts go: S-mode's are stopped in OpenSBI (start those in
 * use), M-mode's wait for an IPI after the release. */
static void others_start(unsigned long hart_id)
{
#ifdef HAL_SMODE
	for (unsigned i = 0; i < hal_hart_used; i++) {
		if (hal_hart_ids[i] == hart_id)
			continue;
		long err = sbi_hart_start(hal_hart_ids[i],
					  (unsigned long)_start_secondary, 0);
		if (err)
			boot_fatal("SBI could not start hart id %lu (error "
				   "%ld)\n",
				   (unsigned long)hal_hart_ids[i], err);
	}
#else
	for (unsigned i = 0; i < hal_hart_found; i++)
		if (hal_hart_ids[i] != hart_id)
			hal_ipi_send(i);
#endif
}

void boot_init(unsigned long hart_id, const void *dtb)
{
	/* The boot hart uses the spare TLS block past the per-index ones, as
	 * its own index is not known yet. */
	boot_tls_setup(HAL_MAX_HARTS);
	memory_init(dtb);
	console_early();
	boot_time_start = hal_timer_now();

	fdt_info fi = {0};
	harts_discover(dtb, &fi);
	tree_keep(dtb, &fi);

	hal_timer_init(fi.timebase_hz);
	hal_barrier_init(&boot_barrier, hal_hart_used);
	/* hartpool.barrier_unit=0: software team barriers even where the
	 * board has a unit (benchmarks compare the two on one machine). */
	unsigned long use_unit = 1;
	fdt_bootarg_uint(fi.bootargs, fi.bootargs_len, "hartpool.barrier_unit",
			 &use_unit);
	bool unit = use_unit &&
		    hal_barrier_unit_setup((uintptr_t)fi.barrier_unit_base);
	report(hart_id, unit);

	/* Release: everything above is published by this store. */
	hal_store_release(&boot_released, 1u);
	others_start(hart_id);
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
	*(unsigned long *)(csr_read(CSR_SCRATCH) + BOOT_TRAP_TP) = tp;
	hal_ipi_clear_self(); /* the release IPI */
	csr_write(CSR_IE, IE_SOFT);

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

unsigned long boot_bootarg(const char *key, unsigned long dflt)
{
	unsigned long v;
	return fdt_bootarg_uint(boot_bootargs, boot_bootargs_len, key, &v) == 1
		       ? v
		       : dflt;
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
	/* Return to the firmware's mode with interrupts off (M-mode: and no
	 * MPRV). */
#ifdef HAL_SMODE
	f->status = (f->status & ~SR_PIE) | SR_PP_OWN;
#else
	f->status = (f->status & ~(SR_PIE | SR_PP | MSTATUS_MPRV)) | SR_PP_OWN;
#endif
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

/* The trapping hart's id: mhartid in M-mode; in S-mode the word start.S
 * left at its trap area's top (~0 for a trap before the hart has one, or
 * inside the handler). */
static unsigned long boot_trap_hart_id(const boot_trap_frame *f)
{
#ifdef HAL_SMODE
	if (!f->scratch)
		return ~0UL;
	return *(const unsigned long *)(f->scratch + BOOT_TRAP_HARTID);
#else
	(void)f;
	return csr_read(mhartid);
#endif
}

/* Hart id + 1 of the hart that holds the trap report claim, 0 if none. */
static unsigned long boot_trap_owner;

void boot_trap_handler(boot_trap_frame *f)
{
	unsigned long cause = csr_read(CSR_CAUSE), tval = csr_read(CSR_TVAL);
	unsigned long hart_id = boot_trap_hart_id(f);

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
