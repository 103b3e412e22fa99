// SPDX-License-Identifier: MIT
/* U-mode for kernels in M-mode: PMP programming; see hal/isolation.h. The
 * call into U-mode and the ecall helpers are hal/user.c's. */
#include <hal/csr.h>
#include <hal/isolation.h>

extern char __text_start[], __rodata_end[], __kcode_start[], __kcode_end[],
	__hart_tls_start[], __hart_tls_end[], __kdata_start[], __heap_end[];

#define write_pmpaddr(n, v) csr_write(pmpaddr##n, (v))

static unsigned long napot(uintptr_t base, uintptr_t size)
{
	return (unsigned long)((base >> 2) | ((size >> 3) - 1));
}

/* Entry i's configuration byte. */
static void set_cfg(unsigned long cfg[4], unsigned i, unsigned v)
{
	unsigned per = sizeof(long); /* entries per pmpcfg register */
	cfg[i / per] |= (unsigned long)v << (8 * (i % per));
}

bool hal_isolation_setup(const hal_range *deny, unsigned n, const hal_range *rw,
			 unsigned nrw)
{
	/* The firmware's code and the loaded kernels' code memory: one
	 * range where the latter follows the former in RAM, two where the
	 * code runs from ROM (icicle-kit: eNVM, and the code memory in
	 * DRAM); one range over both would cover the device registers in
	 * between. */
	uintptr_t code_end = (uintptr_t)__kcode_end;
	bool split = (uintptr_t)__kcode_start < (uintptr_t)__text_start ||
		     (uintptr_t)__kcode_start - (uintptr_t)__rodata_end >= 4096;
	if (split)
		code_end = (uintptr_t)__rodata_end;
	/* The layout below uses entries 0-11, 0-13 with the code split
	 * (QEMU's harts have 16): does the last one exist? (WARL:
	 * unimplemented ones read back 0.) */
	if (split) {
		write_pmpaddr(13, ~0UL);
		if (csr_read(pmpaddr13) == 0)
			return false;
	}
	write_pmpaddr(11, ~0UL);
	if (csr_read(pmpaddr11) == 0 || n > 4 || nrw > 1)
		return false;
	unsigned long cfg[4] = {0, 0, 0, 0};
	/* 0-3: the given ranges, no access (they win: lowest entries). */
	unsigned long a[4] = {0, 0, 0, 0};
	for (unsigned i = 0; i < n; i++) {
		a[i] = napot(deny[i].base, deny[i].size);
		set_cfg(cfg, i, PMP_A_NAPOT);
	}
	write_pmpaddr(0, a[0]);
	write_pmpaddr(1, a[1]);
	write_pmpaddr(2, a[2]);
	write_pmpaddr(3, a[3]);
	/* 4-5: code and read-only data, and (not split) the code memory of
	 * loaded kernel objects right after them (TOR: [previous entry's
	 * address, this one's)). */
	write_pmpaddr(4, (uintptr_t)__text_start >> 2);
	write_pmpaddr(5, code_end >> 2);
	set_cfg(cfg, 5, PMP_A_TOR | PMP_R | PMP_X);
	/* 6-7: TLS blocks, read only. */
	write_pmpaddr(6, (uintptr_t)__hart_tls_start >> 2);
	write_pmpaddr(7, (uintptr_t)__hart_tls_end >> 2);
	set_cfg(cfg, 7, PMP_A_TOR | PMP_R);
	/* 8-9: kernel-visible data and heap. */
	write_pmpaddr(8, (uintptr_t)__kdata_start >> 2);
	write_pmpaddr(9, (uintptr_t)__heap_end >> 2);
	set_cfg(cfg, 9, PMP_A_TOR | PMP_R | PMP_W);
	/* 10-11: the device buffers. */
	write_pmpaddr(10, nrw ? rw[0].base >> 2 : 0);
	write_pmpaddr(11, nrw ? (rw[0].base + rw[0].size) >> 2 : 0);
	if (nrw)
		set_cfg(cfg, 11, PMP_A_TOR | PMP_R | PMP_W);
	/* 12-13 (split): the code memory of loaded kernel objects. */
	if (split) {
		write_pmpaddr(12, (uintptr_t)__kcode_start >> 2);
		write_pmpaddr(13, (uintptr_t)__kcode_end >> 2);
		set_cfg(cfg, 13, PMP_A_TOR | PMP_R | PMP_X);
	}
	/* Nothing else: U-mode accesses no entry matches fail. */
#if __riscv_xlen == 64
	csr_write(pmpcfg0, cfg[0]);
	csr_write(pmpcfg2, cfg[1]);
#else
	csr_write(pmpcfg0, cfg[0]);
	csr_write(pmpcfg1, cfg[1]);
	csr_write(pmpcfg2, cfg[2]);
	csr_write(pmpcfg3, cfg[3]);
#endif
	return true;
}
