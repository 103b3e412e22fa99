// SPDX-License-Identifier: MIT
/* U-mode for kernels in M-mode: PMP programming; see hal/isolation.h. The
 * call into U-mode and the ecall helpers are hal/user.c's. */
#include <hal/csr.h>
#include <hal/isolation.h>

extern char __text_start[], __rodata_end[], __kcode_start[], __kcode_end[],
	__hart_tls_start[], __hart_tls_end[], __kdata_end[];

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

/* The layout (entries, lowest first: the lowest matching entry wins):
 *   0      the guard inside the hart's context: NAPOT, no access
 *   1-2    firmware code and read-only data, and (not split) the code
 *          memory of loaded kernel objects right after them: TOR, R X
 *   3-5    the TLS blocks (TOR, R), and right after them kernel-visible
 *          data (TOR, R W: one entry, the TLS end is its base)
 *   6-7    the hart's context: TOR, R W
 *   8      its instance's view: NAPOT, R W (hal_isolation_view)
 *   9      a team's local memory: NAPOT, R W (or off)
 *   10-11  (split) the code memory of loaded kernel objects: TOR, R X
 * then the domain's ranges, a TOR pair each. */
#define E_GUARD 0
#define E_VIEW 8
#define E_TEAM 9

static bool code_split(void)
{
	return (uintptr_t)__kcode_start < (uintptr_t)__text_start ||
	       (uintptr_t)__kcode_start - (uintptr_t)__rodata_end >= 4096;
}

/* Entries this hart implements (WARL: an unimplemented pmpaddr reads back
 * 0); QEMU's harts have 16. Probed once per hart. */
static __thread unsigned pmp_entries;

static unsigned entries(void)
{
	if (pmp_entries)
		return pmp_entries;
	unsigned n = 0;
#define PROBE(i)                                                               \
	do {                                                                   \
		unsigned long o = csr_read(pmpaddr##i);                        \
		write_pmpaddr(i, ~0UL);                                        \
		if (csr_read(pmpaddr##i))                                      \
			n = (i) + 1;                                           \
		write_pmpaddr(i, o);                                           \
	} while (0)
	PROBE(7);
	PROBE(9);
	PROBE(11);
	PROBE(13);
	PROBE(15);
#undef PROBE
	pmp_entries = n ? n : 1;
	return pmp_entries;
}

static unsigned first_range_entry(void)
{
	return code_split() ? 12 : 10;
}

unsigned hal_isolation_max_ranges(void)
{
	unsigned e = entries(), f = first_range_entry();
	unsigned n = e > f ? (e - f) / 2 : 0;
	return n < HAL_ISO_RANGES_MAX ? n : HAL_ISO_RANGES_MAX;
}

uintptr_t hal_isolation_granule(void)
{
	return 4096;
}

/* pmpaddr[i] = v, for i in 10..15 (csrw needs the number in the
 * instruction). */
static void write_pmpaddr_n(unsigned i, unsigned long v)
{
	switch (i) {
	case 10:
		write_pmpaddr(10, v);
		break;
	case 11:
		write_pmpaddr(11, v);
		break;
	case 12:
		write_pmpaddr(12, v);
		break;
	case 13:
		write_pmpaddr(13, v);
		break;
	case 14:
		write_pmpaddr(14, v);
		break;
	case 15:
		write_pmpaddr(15, v);
		break;
	}
}

bool hal_isolation_setup(const hal_iso_own *own, unsigned dom, unsigned gen,
			 const hal_range *rw, unsigned nrw)
{
	(void)dom;
	(void)gen;
	/* The firmware's code and the loaded kernels' code memory: one
	 * range where the latter follows the former in RAM, two where the
	 * code runs from ROM (icicle-kit: eNVM, and the code memory in
	 * DRAM); one range over both would cover the device registers in
	 * between. */
	bool split = code_split();
	uintptr_t code_end =
		split ? (uintptr_t)__rodata_end : (uintptr_t)__kcode_end;
	unsigned first = first_range_entry();
	if (entries() < first || nrw > hal_isolation_max_ranges())
		return false;
	unsigned long cfg[4] = {0, 0, 0, 0};
	write_pmpaddr(0, own->guard.size
				 ? napot(own->guard.base, own->guard.size)
				 : 0);
	if (own->guard.size)
		set_cfg(cfg, E_GUARD, PMP_A_NAPOT);
	write_pmpaddr(1, (uintptr_t)__text_start >> 2);
	write_pmpaddr(2, code_end >> 2);
	set_cfg(cfg, 2, PMP_A_TOR | PMP_R | PMP_X);
	write_pmpaddr(3, (uintptr_t)__hart_tls_start >> 2);
	write_pmpaddr(4, (uintptr_t)__hart_tls_end >> 2);
	set_cfg(cfg, 4, PMP_A_TOR | PMP_R);
	write_pmpaddr(5, (uintptr_t)__kdata_end >> 2);
	set_cfg(cfg, 5, PMP_A_TOR | PMP_R | PMP_W);
	write_pmpaddr(6, own->ctx.base >> 2);
	write_pmpaddr(7, (own->ctx.base + own->ctx.size) >> 2);
	set_cfg(cfg, 7, PMP_A_TOR | PMP_R | PMP_W);
	write_pmpaddr(8, napot(own->view.base, own->view.size));
	set_cfg(cfg, E_VIEW, PMP_A_NAPOT | PMP_R | PMP_W);
	write_pmpaddr(9, own->team.size ? napot(own->team.base, own->team.size)
					: 0);
	if (own->team.size)
		set_cfg(cfg, E_TEAM, PMP_A_NAPOT | PMP_R | PMP_W);
	if (split) {
		write_pmpaddr(10, (uintptr_t)__kcode_start >> 2);
		write_pmpaddr(11, (uintptr_t)__kcode_end >> 2);
		set_cfg(cfg, 11, PMP_A_TOR | PMP_R | PMP_X);
	}
	/* Then the domain's ranges, a TOR pair each; unused pairs match
	 * nothing (OFF). */
	for (unsigned e = first, i = 0; e + 1 < entries() && e + 1 < 16;
	     e += 2, i++) {
		bool on = i < nrw;
		write_pmpaddr_n(e, on ? rw[i].base >> 2 : 0);
		write_pmpaddr_n(e + 1, on ? (rw[i].base + rw[i].size) >> 2 : 0);
		if (on)
			set_cfg(cfg, e + 1, PMP_A_TOR | PMP_R | PMP_W);
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

void hal_isolation_view(uintptr_t base)
{
	write_pmpaddr(8, napot(base, 4096));
}

bool hal_isolation_claim(unsigned dom, const hal_range *r, unsigned n)
{
	(void)dom;
	(void)r;
	(void)n;
	return true;
}
