// SPDX-License-Identifier: MIT
/*
 * The firmware's main program: every hart answers a roll-call and joins the
 * executor; hart 0 then serves the mailbox (include/hartpool/mbox.h) over
 * the shared memory of board.h and the serial link on the console UART,
 * pulling work-groups between polls like every other hart, until the host
 * asks the device to stop (`hartpool down`).
 *
 * Bootargs (-append): hartpool.harts=N (boot/), hartpool.poll_us=N (the
 * dispatcher's longest sleep between doorbell checks, default 1000; it
 * wakes at once when the host rings: the UART's receive interrupt, or the
 * doorbell device of hal/doorbell.h, whose default bound is 100000; only
 * packets from a host that never rings are checked for every 10 us),
 * hartpool.isolation=0 (kernels without PMP checks, docs/faults.md).
 */
#include <board.h>
#include <boot/app.h>
#include <executor/exec.h>
#include <hal/barrier.h>
#include <hal/console.h>
#include <hal/csr.h>
#include <hal/doorbell.h>
#include <hal/hart.h>
#include <hal/host_bell.h>
#include <hal/irq.h>
#include <hal/timer.h>
#include <hartpool/mbox.h>
#include <kernels/registry.h>
#include <mailbox/dispatch.h>
#include <mailbox/serial_agent.h>
#include <stdio.h>

/* Code memory for loaded kernel objects (linker/common.ld). */
extern char __kcode_start[], __kcode_end[];

static uint32_t poll_us(void)
{
	unsigned long v = boot_bootarg("hartpool.poll_us", 0);
	return v >= 1 && v <= 1000000 ? (uint32_t)v : 0; /* 0: the default */
}

/* Per-session quotas from the bootargs (docs/sessions.md, "Quotas"):
 * hartpool.shared=0 is a device one host booted for itself (no quotas);
 * hartpool.quota.R=N and hartpool.quota_min.R=N set a session's most and
 * floor of resource R (heap bytes, buffers, objects, rows, queues,
 * commands). Without bootargs (make boot, a -bios image, a board): shared,
 * with the defaults (docs/design.md, 75). */
static const char *const quota_keys[2][HP_QUOTAS] = {
	{"hartpool.quota.heap", "hartpool.quota.buffers",
	 "hartpool.quota.objects", "hartpool.quota.rows",
	 "hartpool.quota.queues", "hartpool.quota.commands"},
	{"hartpool.quota_min.heap", "hartpool.quota_min.buffers",
	 "hartpool.quota_min.objects", "hartpool.quota_min.rows",
	 "hartpool.quota_min.queues", "hartpool.quota_min.commands"},
};
static uint64_t quota_max[HP_QUOTAS], quota_min[HP_QUOTAS];

static bool quotas_read(void)
{
	for (unsigned r = 0; r < HP_QUOTAS; r++)
		for (unsigned m = 0; m < 2; m++) {
			unsigned long v = boot_bootarg(quota_keys[m][r], ~0UL);
			uint64_t q = v == ~0UL ? UINT64_MAX : v;
			if (m)
				quota_min[r] = q;
			else
				quota_max[r] = q;
		}
	return boot_bootarg("hartpool.shared", 1) != 0;
}

/* The dispatcher's device work when it wakes: take what interrupted it
 * (the UART, the doorbell), drain the UART, then complete the sources, so
 * a byte or ring that comes after the drain interrupts again. */
static bool serve_devices(void)
{
	unsigned claimed[2], n = 0, src;
	/* The controller only when it has something: on QEMU every claim
	 * updates the interrupt lines of every hart (work that grows with
	 * the harts), and most wake-ups are an IPI or the timer. */
	while (n < 2 && (csr_read(CSR_IP) & IE_EXT) &&
	       (src = hal_irq_claim()) != 0) {
		/* The doorbell device or the UART: either is a ring (a host
		 * that booted the device rings the UART after each packet). */
		if (src == hal_doorbell_irq())
			hal_doorbell_ack();
		dispatch_doorbell_rang();
		claimed[n++] = src;
	}
	bool did = serial_agent_poll();
	while (n)
		hal_irq_complete(claimed[--n]);
	return did;
}

/* End of the memory the buffer heap may use: DRAM's end, below the last
 * page of the address space (an end address must fit a pointer: rv32). */
static uint64_t dram_end(uint64_t *size)
{
	uint64_t base = boot_mem_size ? boot_mem_base : BOARD_DRAM_BASE;
	*size = boot_mem_size ? boot_mem_size : BOARD_DRAM_SIZE_DEFAULT;
	uint64_t end = base + *size;
	uint64_t top = (uint64_t)UINTPTR_MAX - 4095;
	return end < top ? end : top;
}

/* "id 0: no S-mode (...); ..." for hp_device_info.skipped. */
static const char *skipped_text(void)
{
	static char text[120];
	size_t at = 0;
	for (unsigned i = 0; i < boot_skipped_num && i < BOOT_SKIPPED_MAX;
	     i++) {
		int n = snprintf(text + at, sizeof(text) - at, "%sid %lu: %s",
				 i ? "; " : "",
				 (unsigned long)boot_skipped[i].id,
				 boot_skipped[i].why);
		if (n < 0 || (size_t)n >= sizeof(text) - at)
			break;
		at += (size_t)n;
	}
	return text;
}

/* Whether DRAM reads as zeros at boot (board.mk BOARD_RAM_ZEROED: set
 * for the QEMU boards, whose RAM is a new file; a real board's is not). */
#ifndef BOARD_RAM_ZEROED
#define BOARD_RAM_ZEROED 0
#endif

/* On by default; a board whose harts cannot isolate kernels (K210: privilege
 * spec 1.9.1, no PMP of the 1.10 kind) turns it off in board.h. */
#ifndef BOARD_ISOLATION_DEFAULT
#define BOARD_ISOLATION_DEFAULT 1
#endif

/* hartpool.host_bell=CFG[ hartpool.host_bell_reg=OFF]: the device rings
 * the host beside it by writing 1 at BAR0 + OFF (default 0x60, QEMU's edu)
 * of the PCI function whose configuration space is at CFG
 * (hal/host_bell.h; docs/boards/qemu-virt-amp.md). */
static bool host_bell(void)
{
	unsigned long cfg = boot_bootarg("hartpool.host_bell", 0);
	unsigned long reg = boot_bootarg("hartpool.host_bell_reg", 0x60);
	if (!cfg)
		return false;
	if (reg <= UINT32_MAX && hal_host_bell_setup(cfg, (uint32_t)reg))
		return true;
	hal_printf("hartpool: no host bell: no PCI memory function at 0x%lx, "
		   "or register 0x%lx is not a 4-aligned offset below 1 MiB\n",
		   cfg, reg);
	return false;
}

static bool isolation(void)
{
	return boot_bootarg("hartpool.isolation", BOARD_ISOLATION_DEFAULT) != 0;
}

/* The time slice between sessions (docs/sessions.md): 10 ms unless
 * hartpool.slice_us=N says otherwise (0: kernels are never preempted). */
#define SLICE_US_DEFAULT 10000u
#define SLICE_US_MAX 10000000u /* 10 s */
static uint32_t slice_us(void)
{
	unsigned long us = boot_bootarg("hartpool.slice_us", SLICE_US_DEFAULT);
	return us > SLICE_US_MAX ? SLICE_US_MAX : (uint32_t)us;
}

int app_main(void)
{
	unsigned me = hal_hart_idx(), n = hal_hart_num();
	if (n <= 8 || me == 0)
		hal_printf("hart %u (id %lu) online\n", me,
			   (unsigned long)hal_hart_id(me));
	if (!exec_start(boot_barrier_all, true))
		return 0;
	exec_dev.isolation = isolation();
	exec_dev.slice_ticks =
		(uint64_t)slice_us() * hal_timer_freq() / 1000000u;
	/* without isolation kernels run on the hart's own stack (less its
	 * trap area and the executor's frames) */
	if (!exec_dev.isolation)
		exec_dev.kernel_stack = BOARD_STACK_SIZE / 2;
	uint64_t dram_size, end = dram_end(&dram_size);
	if (end <= BOARD_BUF_BASE) {
		hal_printf(
			"hartpool: DRAM ends at 0x%llx, below the mailbox "
			"and buffers at 0x%lx-0x%lx: boot with more memory\n",
			(unsigned long long)end, (unsigned long)BOARD_MBOX_BASE,
			(unsigned long)BOARD_BUF_BASE);
		exec_shutdown();
		return 2;
	}
	/* where buffers are: the global memory of OpenCL's to_global */
	exec_dev.global_base = BOARD_BUF_BASE;
	exec_dev.global_size = end - BOARD_BUF_BASE;
	bool shared = quotas_read();
	dispatch_config cfg = {
		.unshared = !shared,
		.quota_max = quota_max,
		.quota_min = quota_min,
		.mbox_addr = BOARD_MBOX_BASE,
		.mbox_size = BOARD_MBOX_SIZE,
		.buf_base = BOARD_BUF_BASE,
		.buf_size = end - BOARD_BUF_BASE,
		/* hartpool.ram_zeroed=0: e.g. a boot loader used the RAM */
		.ram_zeroed = boot_bootarg("hartpool.ram_zeroed",
					   BOARD_RAM_ZEROED) != 0,
		.dirty_base = boot_dtb_base,
		.dirty_size = boot_dtb_size,
		.dram_base = BOARD_DRAM_BASE,
		.dram_size = dram_size,
		.code_base = (uintptr_t)__kcode_start,
		.code_size = (uintptr_t)(__kcode_end - __kcode_start),
		.kernels = hp_kernel_registry,
		.board = BOARD_NAME,
		.privilege = HAL_PRIV_NAME,
		.harts_skipped = boot_skipped_num,
		.slice_us = slice_us(),
		.skipped_why = skipped_text(),
		.poll_us = poll_us(),
		.features = (hal_doorbell_setup(boot_doorbell_base,
						boot_doorbell_irq)
				     ? HP_DEV_HAS_DOORBELL
				     : 0) |
			    (hal_barrier_unit ? HP_DEV_HAS_BARRIER_UNIT : 0) |
			    (host_bell() ? HP_DEV_HAS_HOST_BELL : 0),
		.host_bell = hal_host_bell_ring,
	};
	int rc = dispatch_init(&cfg);
	if (rc) {
		hal_printf("hartpool: mailbox does not fit: %s\n",
			   hp_error_name(rc));
		exec_shutdown();
		return 2;
	}
	serial_agent_init();
	hal_printf("hartpool: %u harts serving, mailbox at 0x%lx, %llu MiB "
		   "of buffers, %s, kernel isolation %s\n",
		   n, (unsigned long)BOARD_MBOX_BASE,
		   (unsigned long long)(cfg.buf_size >> 20),
		   cfg.features & HP_DEV_HAS_DOORBELL
			   ? "doorbell device interrupt"
			   : "doorbell check on a timer",
		   exec_dev.isolation ? "on" : "off");
	if (cfg.features & HP_DEV_HAS_HOST_BELL)
		hal_printf("hartpool: host bell: PCI function at 0x%lx\n",
			   boot_bootarg("hartpool.host_bell", 0));
	hal_printf("hartpool: buffer memory %s\n",
		   cfg.ram_zeroed ? "zero at boot"
				  : "not zero at boot: idle harts clear it");
	hal_printf("hartpool: %s\n",
		   shared ? "shared: per-session quotas (hartpool info)"
			  : "private: no quotas");
	dispatch_serve(serve_devices);
	exec_shutdown();
	dispatch_stopped();
	hal_printf("hartpool: stopped by the host\n");
	return 0;
}
