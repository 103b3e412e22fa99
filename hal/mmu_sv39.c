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
 *   - kernel-visible data and heap: U, read/write, minus every hart's guard
 *     pages (unmapped: one table serves all harts, so a guard is no-access
 *     for every kernel, not only its own hart's);
 *   - the device buffers: U, read/write;
 * and nothing else. Huge pages (1 GiB, 2 MiB) wherever a range allows,
 * split on demand; tables come from the private heap. */
#include <hal/csr.h>
#include <hal/heap.h>
#include <hal/isolation.h>
#include <hal/lock.h>
#include <stdint.h>
#include <string.h>

extern char _start[], __text_start[], __kcode_end[], __hart_tls_start[],
	__hart_tls_end[], __kdata_start[], __heap_end[], __stacks_start[],
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

/* satp for kernels (start.S and user_riscv.S load it); 0 until built. */
unsigned long hal_user_satp;

static pte *root;
static hal_lock pt_lock = HAL_LOCK_INIT;
static hal_range rw_now;

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
 * given to a kernel) or, for unmapping, outward. */
static bool map(uintptr_t base, uintptr_t size, pte perm)
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

static bool build_base(void)
{
	root = pt_alloc();
	return root &&
	       map((uintptr_t)_start, (uintptr_t)(__text_start - _start),
		   PTE_R | PTE_X) &&
	       map((uintptr_t)__stacks_start,
		   (uintptr_t)(__stacks_end - __stacks_start), PTE_R | PTE_W) &&
	       map((uintptr_t)__text_start,
		   (uintptr_t)(__kcode_end - __text_start),
		   PTE_U | PTE_R | PTE_X) &&
	       map((uintptr_t)__hart_tls_start,
		   (uintptr_t)(__hart_tls_end - __hart_tls_start),
		   PTE_U | PTE_R) &&
	       map((uintptr_t)__kdata_start,
		   (uintptr_t)(__heap_end - __kdata_start),
		   PTE_U | PTE_R | PTE_W);
}

bool hal_isolation_setup(const hal_range *deny, unsigned n, const hal_range *rw,
			 unsigned nrw)
{
	if (n > 4 || nrw > 1)
		return false;
	for (unsigned i = 0; i < n; i++)
		if (deny[i].base % PAGE || deny[i].size % PAGE)
			return false; /* a guard must be whole pages */
	bool ok = true;
	hal_lock_acquire(&pt_lock);
	if (!root)
		ok = build_base();
	hal_range want = nrw ? rw[0] : (hal_range){0, 0};
	if (ok && (want.base != rw_now.base || want.size != rw_now.size)) {
		ok = map(rw_now.base, rw_now.size, 0) &&
		     map(want.base, want.size, PTE_U | PTE_R | PTE_W);
		rw_now = want;
	}
	for (unsigned i = 0; ok && i < n; i++)
		ok = map(deny[i].base, deny[i].size, 0);
	if (ok)
		__atomic_store_n(&hal_user_satp,
				 SATP_MODE_SV39 | (uintptr_t)root >> 12,
				 __ATOMIC_RELEASE);
	hal_lock_release(&pt_lock);
	/* This hart's next hal_user_enter flushes its TLB (sfence.vma). */
	return ok;
}
