// SPDX-License-Identifier: MIT
/* U-mode isolation in S-mode: one Sv39 page table for kernels
 * (hal/isolation.h; docs/faults.md has the table of what they may touch).
 *
 * The firmware itself runs with satp = 0 (physical addresses): it needs no
 * page table, and a kernel's table can be strict. The table is live only
 * while a hart runs kernel code: hal_user_enter (hal/user_riscv.S) writes
 * satp just before sret, trap_entry (boot/start.S) clears it as its first
 * instruction and sets it again when it returns to U-mode. Everything is
 * identity mapped, so the pc stays valid across the switch. The table maps
 *   - the entry and trap entry (.text.boot): S-mode, read/execute (the
 *     switch instructions run from there; U pages are never executable in
 *     S-mode);
 *   - the firmware stacks with the trap areas: S-mode, read/write (the trap
 *     entry saves registers there before it clears satp);
 *   - firmware code, rodata and loaded kernel code: U, read/execute;
 *   - the harts' TLS blocks: U, read;
 *   - kernel-visible data (HP_KERNEL_DATA): U, read/write;
 *   - of the kernel-visible heap, what the domain claimed last
 *     (hal_isolation_claim: the contexts its kernels run with, the views
 *     of its instances; never the guards inside a context): U, read/write;
 *   - the device buffers: U, read/write;
 * and nothing else. Huge pages (1 GiB, 2 MiB) wherever a range allows,
 * split on demand; tables come from the private heap. */
#include <hal/csr.h>
#include <hal/heap.h>
#include <hal/isolation.h>
#include <hal/lock.h>
#include <hal/sbi.h>
#include <stdint.h>
#include <string.h>

extern char _start[], __text_start[], __kcode_end[], __hart_tls_start[],
	__hart_tls_end[], __kdata_start[], __kdata_end[], __stacks_start[],
	__stacks_end[];

#define PAGE 4096UL
#define PTE_V 0x001UL
#define PTE_R 0x002UL
#define PTE_W 0x004UL
#define PTE_X 0x008UL
#define PTE_U 0x010UL
#define PTE_A 0x040UL
#define PTE_D 0x080UL
#define PTE_LEAF (PTE_R | PTE_W | PTE_X)
#define PTE_FLAGS 0x3ffUL

typedef uint64_t pte;

/* The calling hart's satp for kernels (start.S and user_riscv.S load it
 * through the hart's tp); 0 until built. */
__thread unsigned long hal_user_satp;

/* One table per domain: the same base mappings and guards, and the
 * domain's read/write ranges. Built when a hart first runs a kernel of the
 * domain, changed in place afterwards (a hart running kernel code of the
 * domain meanwhile keeps its TLB entries until its next entry, which
 * flushes them). */
static struct {
	pte *root;
	unsigned gen;
	hal_range rw[HAL_ISO_RANGES_MAX];
	unsigned nrw;
} doms[HAL_ISO_DOMAINS];
static hal_lock pt_lock = HAL_LOCK_INIT;

/* Who claimed which range of the kernel-visible heap last (a context or a
 * view, named by its first range's base): mapped in that domain's table
 * only. A context is claimed by its hart whenever a kernel of another
 * domain is about to run with it, a view when an instance of another
 * domain takes its slot. */
#define CLAIMS_MAX (4 * HAL_MAX_HARTS + 64)
static struct claim {
	hal_range r[2];
	unsigned n, dom;
} claims[CLAIMS_MAX];
static unsigned num_claims;

static pte *pt_alloc(void)
{
	pte *t = hal_heap_alloc_private(PAGE, PAGE);
	if (t)
		memset(t, 0, PAGE);
	return t;
}

static pte leaf(uintptr_t pa, pte perm)
{
	return (pte)(pa >> 12) << 10 | perm | PTE_V | PTE_A | PTE_D;
}

static pte *table_of(pte e)
{
	return (pte *)(uintptr_t)((e >> 10) << 12);
}

/* Map [va, end) in table t of level `level` (2: 1 GiB entries) with perm
 * (0: unmap). va and end are page aligned. */
static bool map_level(pte *t, int level, uintptr_t va, uintptr_t end, pte perm)
{
	unsigned shift = 12 + 9 * (unsigned)level;
	uintptr_t span = (uintptr_t)1 << shift;
	while (va < end) {
		pte *e = &t[(va >> shift) & 511];
		uintptr_t lo = va & ~(span - 1), hi = lo + span;
		uintptr_t to = end < hi ? end : hi;
		if (va == lo && to == hi) {
			/* A whole entry (a table it pointed to stays
			 * allocated: the few split pages are not worth a
			 * free list). */
			__atomic_store_n(e, perm ? leaf(lo, perm) : 0,
					 __ATOMIC_RELEASE);
		} else {
			pte *next;
			pte old = *e;
			if (!perm && !(old & PTE_V)) {
				va = to; /* nothing mapped there to take away */
				continue;
			}
			if (!(old & PTE_V) || (old & PTE_LEAF)) {
				/* Split a huge page (or fill an empty entry)
				 * into a full table before linking it, so no
				 * hart ever sees a half-made table. */
				next = pt_alloc();
				if (!next)
					return false;
				if (old & PTE_V) {
					uintptr_t sub = span >> 9;
					for (unsigned j = 0; j < 512; j++)
						next[j] =
							leaf(lo + j * sub,
							     old & PTE_FLAGS &
								     ~(PTE_V |
								       PTE_A |
								       PTE_D));
				}
				__atomic_store_n(e,
						 (pte)((uintptr_t)next >> 12)
								 << 10 |
							 PTE_V,
						 __ATOMIC_RELEASE);
			} else {
				next = table_of(old);
			}
			if (!map_level(next, level - 1, va, to, perm))
				return false;
		}
		va = to;
	}
	return true;
}

/* [base, base + size) rounded inward to pages (a partial page is never
 * given to a kernel) or, for unmapping, outward, in the table at root. */
static bool map(pte *root, uintptr_t base, uintptr_t size, pte perm)
{
	uintptr_t lo = base, hi = base + size;
	if (perm) {
		lo = (lo + PAGE - 1) & ~(PAGE - 1);
		hi &= ~(PAGE - 1);
	} else {
		lo &= ~(PAGE - 1);
		hi = (hi + PAGE - 1) & ~(PAGE - 1);
	}
	return lo >= hi || map_level(root, 2, lo, hi, perm);
}

/* A new table with the mappings every domain has and every guard so
 * far; NULL if the private heap is exhausted. */
static pte *build_base(void)
{
	pte *root = pt_alloc();
	bool ok = root &&
		  map(root, (uintptr_t)_start,
		      (uintptr_t)(__text_start - _start), PTE_R | PTE_X) &&
		  map(root, (uintptr_t)__stacks_start,
		      (uintptr_t)(__stacks_end - __stacks_start),
		      PTE_R | PTE_W) &&
		  map(root, (uintptr_t)__text_start,
		      (uintptr_t)(__kcode_end - __text_start),
		      PTE_U | PTE_R | PTE_X) &&
		  map(root, (uintptr_t)__hart_tls_start,
		      (uintptr_t)(__hart_tls_end - __hart_tls_start),
		      PTE_U | PTE_R) &&
		  map(root, (uintptr_t)__kdata_start,
		      (uintptr_t)(__kdata_end - __kdata_start),
		      PTE_U | PTE_R | PTE_W);
	return ok ? root : NULL;
}

/* Unmap the parts of `old` that none of keep[0..n) covers. */
static bool unmap_outside(pte *root, hal_range old, const hal_range *keep,
			  unsigned n)
{
	uintptr_t at = old.base, end = old.base + old.size;
	while (at < end) {
		/* The kept range that covers `at`, or the next one to start. */
		uintptr_t next = end;
		bool covered = false;
		for (unsigned i = 0; i < n; i++) {
			uintptr_t lo = keep[i].base, hi = lo + keep[i].size;
			if (lo <= at && at < hi) {
				at = hi;
				covered = true;
				break;
			}
			if (lo > at && lo < next)
				next = lo;
		}
		if (covered)
			continue;
		if (!map(root, at, next - at, 0))
			return false;
		at = next;
	}
	return true;
}

/* Domain d's table with the ranges of generation gen. */
static bool domain_apply(unsigned d, unsigned gen, const hal_range *rw,
			 unsigned nrw)
{
	if (!doms[d].root && !(doms[d].root = build_base()))
		return false;
	if (doms[d].gen == gen)
		return true;
	pte *root = doms[d].root;
	/* New ranges first, then what is left of the old ones unmapped: a
	 * range kept (a region that grew while kernels of the domain run on
	 * other harts) is never unmapped on the way. */
	for (unsigned i = 0; i < nrw; i++)
		if (!map(root, rw[i].base, rw[i].size, PTE_U | PTE_R | PTE_W))
			return false;
	for (unsigned i = 0; i < doms[d].nrw; i++)
		if (!unmap_outside(root, doms[d].rw[i], rw, nrw))
			return false;
	doms[d].nrw = 0;
	for (unsigned i = 0; i < nrw; i++)
		doms[d].rw[doms[d].nrw++] = rw[i];
	doms[d].gen = gen;
	return true;
}

unsigned hal_isolation_max_ranges(void)
{
	return HAL_ISO_RANGES_MAX;
}

uintptr_t hal_isolation_granule(void)
{
	return 2UL << 20; /* megapages: no page-level tables for buffers */
}

bool hal_isolation_setup(const hal_iso_own *own, unsigned dom, unsigned gen,
			 const hal_range *rw, unsigned nrw)
{
	(void)own; /* mapped where the domain claimed them */
	if (nrw > HAL_ISO_RANGES_MAX || dom >= HAL_ISO_DOMAINS)
		return false;
	hal_lock_acquire(&pt_lock);
	bool ok = domain_apply(dom, gen, rw, nrw);
	if (ok)
		hal_user_satp =
			SATP_MODE_SV39 | (uintptr_t)doms[dom].root >> 12;
	hal_lock_release(&pt_lock);
	/* This hart's next hal_user_enter flushes its TLB (sfence.vma). */
	return ok;
}

void hal_isolation_view(uintptr_t base)
{
	(void)base; /* claimed with its instance */
}

/* Every hart's TLB forgets [base, base + size): the SBI's remote fence
 * returns once they all did (OpenSBI waits for each). Kernel code runs
 * with its TLB flushed at every entry from S-mode, so only a kernel that
 * runs on meanwhile could still hold an old translation. */
static void flush_everywhere(uintptr_t base, uintptr_t size)
{
	(void)sbi_remote_sfence_vma(0, (unsigned long)-1, base, size);
}

bool hal_isolation_claim(unsigned dom, const hal_range *r, unsigned n)
{
	if (dom >= HAL_ISO_DOMAINS || n == 0 || n > 2)
		return false;
	for (unsigned j = 0; j < n; j++)
		if (r[j].base % PAGE || r[j].size % PAGE)
			return false;
	hal_lock_acquire(&pt_lock);
	struct claim *c = NULL;
	for (unsigned i = 0; i < num_claims && !c; i++)
		if (claims[i].r[0].base == r[0].base)
			c = &claims[i];
	bool ok = true;
	if (c && c->dom == dom) {
		hal_lock_release(&pt_lock);
		return true;
	}
	if (c) {
		/* Out of the last claimant's table, and out of every TLB,
		 * before the new owner's kernels put anything there. */
		for (unsigned j = 0; ok && j < c->n; j++)
			ok = map(doms[c->dom].root, c->r[j].base, c->r[j].size,
				 0);
		for (unsigned j = 0; j < c->n; j++)
			flush_everywhere(c->r[j].base, c->r[j].size);
	} else if (num_claims < CLAIMS_MAX) {
		c = &claims[num_claims++];
	} else {
		ok = false;
	}
	if (ok && !doms[dom].root && !(doms[dom].root = build_base()))
		ok = false;
	for (unsigned j = 0; ok && j < n; j++)
		ok = map(doms[dom].root, r[j].base, r[j].size,
			 PTE_U | PTE_R | PTE_W);
	if (c) {
		c->n = n;
		c->r[0] = r[0];
		c->r[1] = n > 1 ? r[1] : (hal_range){0, 0};
		c->dom = ok ? dom : c->dom;
	}
	hal_lock_release(&pt_lock);
	return ok;
}
