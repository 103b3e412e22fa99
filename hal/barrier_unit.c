// SPDX-License-Identifier: MIT
/*
 * The hartpool cluster's barrier unit (docs/barrier-unit.md): barriers
 * with a hart mask each; a hart arrives with one store, then sleeps in wfi
 * until the unit raises its line (mip.SSIP in M-mode). From arrival to
 * departure mie has SSIP instead of the IPI (a stale IPI would end every
 * wfi: the wait would spin on the unit's registers), the timer as it was;
 * with mstatus.MIE = 0, so nothing traps. hal_barrier_sleep() alone takes
 * the IPI too: its caller cleared it before looking (hal/sleep.h). Masks are by
 * hart id; the HAL's teams are by index, translated here.
 */
#include "mmio.h"
#include <hal/atomic.h>
#include <hal/barrier.h>
#include <hal/console.h>
#include <hal/csr.h>
#include <hal/hart.h>

#ifdef HAL_SMODE
#error "the barrier unit raises SSIP: M-mode firmware only"
#endif

#define BU_ID 0x0000u
#define BU_NUM_BARRIERS 0x0008u
#define BU_NUM_HARTS 0x000cu
#define BU_BARRIER(b) (0x1000u + (uintptr_t)(b)*0x100u)
#define BU_GEN 0x00u
#define BU_RESET 0x0cu
#define BU_MASK(i) (0x40u + 4u * (i))
#define BU_HART(h) (0x20000u + (uintptr_t)(h)*0x40u)
#define BU_ARRIVE 0x00u
#define BU_LEAVE 0x04u
#define BU_ACK 0x0cu

#define BU_ID_VALUE 0x55425048u /* "HPBU" */
#define BU_MASK_WORDS 16u	/* 512 harts */
#define BU_MAX 256u

/* This hart's interrupt enables before its arrival, while it waits. */
static __thread unsigned long bu_ie;
static __thread bool bu_waiting;

static uintptr_t bu_base;
static unsigned bu_num;
/* Barriers in use (bit set), claimed with AMOs. */
static unsigned long bu_used[BU_MAX / HAL_HARTMASK_BITS];

/* This hart's registers (found on first use). */
static __thread uintptr_t bu_me;

static uintptr_t hart_reg(unsigned off)
{
	if (!bu_me)
		bu_me = bu_base + BU_HART(hal_hart_id(hal_hart_idx()));
	return bu_me + off;
}

/* Write the team's mask: every word (`all`), or only the words it has
 * members in (a reset: members only leave, so the others are still 0). */
static void bu_write_team(int id, const hal_hartmask *team, bool all)
{
	uint32_t mask[BU_MASK_WORDS] = {0};
	for (unsigned i = 0; i < hal_hart_num(); i++)
		if (team->w[i / HAL_HARTMASK_BITS] & hal_hartmask_bit(i)) {
			uint32_t h = hal_hart_id(i);
			mask[h / 32] |= 1u << (h % 32);
		}
	/* Earlier memory writes before the unit sees the new team. */
	mmio_fence();
	for (unsigned i = 0; i < BU_MASK_WORDS; i++)
		if (all || mask[i])
			mmio_write32(bu_base + BU_BARRIER(id) + BU_MASK(i),
				     mask[i]);
}

static void bu_set_team(int id, const hal_hartmask *team)
{
	bu_write_team(id, team, false);
}

static int bu_alloc(const hal_hartmask *team)
{
	for (unsigned id = 0; id < bu_num; id++) {
		unsigned long bit = hal_hartmask_bit(id);
		unsigned long *w = &bu_used[id / HAL_HARTMASK_BITS];
		if (hal_load_relaxed(w) & bit)
			continue;
		if (hal_fetch_or(w, bit) & bit)
			continue;
		bu_write_team((int)id, team, true);
		return (int)id;
	}
	return -1;
}

static void bu_free(int id)
{
	mmio_write32(bu_base + BU_BARRIER(id) + BU_RESET, 1u);
	hal_fetch_and(&bu_used[(unsigned)id / HAL_HARTMASK_BITS],
		      ~hal_hartmask_bit((unsigned)id));
}

/* Interrupts for a wait: the unit's line, not the IPI (also when a member
 * that paused comes back to its round). */
static void wait_begin(void)
{
	if (bu_waiting)
		return;
	bu_ie = csr_read(mie);
	bu_waiting = true;
	csr_write(mie, (bu_ie & ~(unsigned long)MIP_MSIP) | SIP_SSIP);
}

static unsigned bu_arrive(int id)
{
	unsigned gen = mmio_read32(bu_base + BU_BARRIER(id) + BU_GEN);
	/* What we wrote before is visible to the team before we arrive. */
	mmio_fence();
	wait_begin();
	mmio_write32(hart_reg(BU_ARRIVE), (uint32_t)id);
	return gen;
}

static bool bu_passed(int id, unsigned ticket)
{
	bool passed = mmio_read32(bu_base + BU_BARRIER(id) + BU_GEN) != ticket;
	/* ... and what the team wrote before arriving is visible to us. */
	mmio_fence();
	return passed;
}

static void bu_sleep(int id, unsigned ticket)
{
	/* The caller has just seen the round not released; the line stays
	 * raised until we acknowledge it, so a release since still ends wfi. */
	(void)id;
	(void)ticket;
	wait_begin();
	unsigned long ipi = bu_ie & MIP_MSIP;
	csr_set(mie, ipi);
	__asm__ volatile("wfi" ::: "memory");
	csr_clear(mie, ipi);
}

static void bu_pause(void)
{
	/* The line stays raised if the round was released: the member sees
	 * it when it comes back (wait_begin enables it again). */
	if (bu_waiting) {
		csr_write(mie, bu_ie);
		bu_waiting = false;
	}
}

static void bu_depart(void)
{
	mmio_write32(hart_reg(BU_ACK), 1u);
	if (bu_waiting) {
		csr_write(mie, bu_ie);
		bu_waiting = false;
	}
}

static void bu_leave(int id)
{
	mmio_fence();
	mmio_write32(hart_reg(BU_LEAVE), (uint32_t)id);
	/* A release our arrival made may have raised our line. */
	bu_depart();
}

static void bu_wait(int id)
{
	unsigned ticket = bu_arrive(id);
	while (!bu_passed(id, ticket))
		__asm__ volatile("wfi" ::: "memory");
	bu_depart();
}

static const hal_barrier_hw bu_ops = {
	.wait = bu_wait,
	.alloc = bu_alloc,
	.free = bu_free,
	.set_team = bu_set_team,
	.arrive = bu_arrive,
	.passed = bu_passed,
	.sleep = bu_sleep,
	.depart = bu_depart,
	.pause = bu_pause,
	.leave = bu_leave,
};

bool hal_barrier_unit_setup(uintptr_t base)
{
#ifdef BOARD_BARRIER_UNIT_BASE
	if (!base)
		base = BOARD_BARRIER_UNIT_BASE;
#endif
	if (!base || mmio_read32(base + BU_ID) != BU_ID_VALUE)
		return false;
	uint32_t n = mmio_read32(base + BU_NUM_BARRIERS);
	uint32_t harts = mmio_read32(base + BU_NUM_HARTS);
	for (unsigned i = 0; i < hal_hart_num(); i++)
		if (hal_hart_id(i) >= harts ||
		    hal_hart_id(i) >= 32 * BU_MASK_WORDS) {
			hal_printf("hartpool: barrier unit at 0x%lx wired to "
				   "%u harts, not hart id %u: software "
				   "barriers\n",
				   (unsigned long)base, (unsigned)harts,
				   (unsigned)hal_hart_id(i));
			return false;
		}
	bu_base = base;
	bu_num = n < BU_MAX ? n : BU_MAX;
	for (unsigned id = 0; id < bu_num; id++)
		mmio_write32(base + BU_BARRIER(id) + BU_RESET, 1u);
	hal_barrier_unit = &bu_ops;
	return true;
}
