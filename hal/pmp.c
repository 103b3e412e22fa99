// SPDX-License-Identifier: MIT
/* PMP programming for kernel isolation; see hal/isolation.h. */
#include <hal/csr.h>
#include <hal/hart.h>
#include <hal/isolation.h>

extern char __text_start[], __rodata_end[], __stacks_start[], __stacks_end[];

#define PMP_R 0x01u
#define PMP_W 0x02u
#define PMP_X 0x04u
#define PMP_TOR 0x08u
#define PMP_NAPOT 0x18u

#define write_pmpaddr(n, v) csr_write(pmpaddr##n, (v))

static unsigned long napot(uintptr_t base, uintptr_t size)
{
	return (unsigned long)((base >> 2) | ((size >> 3) - 1));
}

void hal_isolation_own_stack(uintptr_t *lo, uintptr_t *hi)
{
	*lo = (uintptr_t)__stacks_start +
	      (uintptr_t)hal_hart_idx() * BOARD_STACK_SIZE;
	*hi = *lo + BOARD_STACK_SIZE;
}

/* Entry i's configuration byte. */
static void set_cfg(unsigned long cfg[3], unsigned i, unsigned v)
{
	unsigned per = sizeof(long); /* entries per pmpcfg register */
	cfg[i / per] |= (unsigned long)v << (8 * (i % per));
}

bool hal_isolation_setup(const hal_range *deny, unsigned n)
{
	/* The layout below uses entries 0-10 (QEMU's virt harts have 16):
	 * does entry 10 exist? (WARL: unimplemented ones read back 0.) */
	write_pmpaddr(10, ~0UL);
	if (csr_read(pmpaddr10) == 0 || n > 4)
		return false;
	uintptr_t lo, hi;
	hal_isolation_own_stack(&lo, &hi);
	unsigned long cfg[3] = {0, 0, 0};
	/* 0-3: the given ranges, no access. */
	unsigned long a[4] = {0, 0, 0, 0};
	for (unsigned i = 0; i < n; i++) {
		a[i] = napot(deny[i].base, deny[i].size);
		set_cfg(cfg, i, PMP_NAPOT);
	}
	write_pmpaddr(0, a[0]);
	write_pmpaddr(1, a[1]);
	write_pmpaddr(2, a[2]);
	write_pmpaddr(3, a[3]);
	/* 4-5: the other harts' stacks below ours, 6: those above (TOR:
	 * [previous entry's address, this one's)). */
	write_pmpaddr(4, (uintptr_t)__stacks_start >> 2);
	write_pmpaddr(5, lo >> 2);
	set_cfg(cfg, 5, PMP_TOR);
	write_pmpaddr(6, hi >> 2);
	write_pmpaddr(7, (uintptr_t)__stacks_end >> 2);
	set_cfg(cfg, 7, PMP_TOR);
	/* 8-9: code and read-only data: read and execute. */
	write_pmpaddr(8, (uintptr_t)__text_start >> 2);
	write_pmpaddr(9, (uintptr_t)__rodata_end >> 2);
	set_cfg(cfg, 9, PMP_TOR | PMP_R | PMP_X);
	/* 10: everything else. */
	write_pmpaddr(10, ~0UL);
	set_cfg(cfg, 10, PMP_NAPOT | PMP_R | PMP_W | PMP_X);
#if __riscv_xlen == 64
	csr_write(pmpcfg0, cfg[0]);
	csr_write(pmpcfg2, cfg[1]);
#else
	csr_write(pmpcfg0, cfg[0]);
	csr_write(pmpcfg1, cfg[1]);
	csr_write(pmpcfg2, cfg[2]);
#endif
	return true;
}

void hal_isolation_enter(void)
{
	csr_clear(mstatus, MSTATUS_MPP); /* MPP = U */
	csr_set(mstatus, MSTATUS_MPRV);
}

void hal_isolation_leave(void)
{
	csr_clear(mstatus, MSTATUS_MPRV);
}
