// SPDX-License-Identifier: MIT
/*
 * Kernel context and fault containment (kctx.h, docs/faults.md). While a
 * hart runs kernel code it is in "kernel context": its record names the
 * instance's exec_krec and the recovery point to resume at. A trap there
 * (illegal instruction, access fault, misaligned atomic, ebreak, the
 * watchdog's timer) becomes the instance's first fault with its cause, pc,
 * address, hart and work-group; the hart longjmps back into the pool and
 * serves on (the pool cancels the groups nobody claimed yet). A trap
 * outside kernel context is a firmware bug and still stops the run (boot's
 * report).
 *
 * Also here, because they are part of entering kernel code: the isolation
 * (PMP regions for the kernel stack's and the fiber arena's guards and the
 * device buffers, reprogrammed per hart when a generation changes) and the
 * instruction-cache generation (fence.i after kernel objects were loaded).
 */
#include "kctx.h"
#include <hal/atomic.h>
#include <hal/csr.h>
#include <hal/heap.h>
#include <hal/icache.h>
#include <hal/ipi.h>
#include <hal/isolation.h>
#include <hal/timer.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* Per-hart kernel-context state (firmware-private). */
typedef struct kctx_hart {
	/* While kinst is set the hart runs kernel code of that instance and
	 * a trap resumes at jmp. */
	exec_krec *kinst;
	exec_krec *kcur; /* kinst, but kept after a trap until leave */
	exec_ucall *u;	 /* what runs (kernel-visible) */
	hal_jmp_buf jmp;
	/* Isolation: the PMP (or page table) holds the ranges of domain and
	 * version iso_key (iso_keys[], below); 0: not programmed. */
	unsigned iso_key;
	unsigned code_seen; /* code_gen when it last ran fence.i */
	bool iso_ok, iso_on, armed;
	uint64_t slice_end; /* the pool's time slice (0: none) */
	char *ustack;	/* in its context: EXEC_GUARD_BYTES guard + the stack */
	uintptr_t view; /* the view its protection names (hal_isolation_view) */
	void *team_local; /* a team member's: its leader's local memory */
} kctx_hart;

static kctx_hart *kctx_harts;

/* A domain's key: its version above ISO_DOM_BITS, the domain below (so
 * one compare tells a hart whether its protection is the entered
 * kernel's); never 0. Bit ISO_DOM_BITS picks the buffer. */
#define ISO_DOM_BITS 5
_Static_assert(EXEC_DOMAINS <= 1u << ISO_DOM_BITS, "domains fit the key");
#define ISO_SET(key) (((key) >> ISO_DOM_BITS) & 1u)

/* Each domain's read/write ranges, double-buffered: iso_keys[d] is their
 * version (never 0), and its low bit picks the set that holds them. One
 * writer (exec_isolation_domain) fills the other set, then publishes the
 * new key; a hart copies the set of the key it read and takes the copy if
 * the key is still the same afterwards (iso_program). */
static hal_range iso_ranges[EXEC_DOMAINS][2][HAL_ISO_RANGES_MAX];
static unsigned iso_num[EXEC_DOMAINS][2];
static unsigned iso_keys[EXEC_DOMAINS];

static kctx_hart *self(void)
{
	return &kctx_harts[hal_hart_idx()];
}

/* The kernel context whose recovery point exec_kctx_enter() returned. */
static kctx_hart *of(hal_jmp_buf *at)
{
	return (kctx_hart *)((char *)at - offsetof(kctx_hart, jmp));
}

void exec_kctx_init(unsigned harts)
{
	kctx_harts = hal_heap_alloc_private(harts * sizeof(kctx_hart), 64);
	/* Every domain starts with no ranges, version 1. */
	for (unsigned d = 0; d < EXEC_DOMAINS; d++) {
		iso_num[d][1] = 0;
		hal_store_release(&iso_keys[d], 1u << ISO_DOM_BITS | d);
	}
}

/* First fault of the instance wins; later ones on other harts only stop
 * their own hart's part. */
static void record(kctx_hart *h, int code, unsigned long cause,
		   unsigned long pc, unsigned long tval)
{
	exec_krec *inst = h->kinst;
	int zero = 0;
	if (!hal_cas(&inst->fault, &zero, code))
		return;
	exec_fault_info *f = &inst->info;
	f->cause = cause;
	f->pc = pc;
	f->addr = tval;
	f->hart = hal_hart_idx();
	/* The running group: a pointer kernel code keeps (in U-mode it is
	 * on the kernel stack, so kernel code could have changed it). */
	const hp_group *g = h->u->group;
	if (g && h->iso_on && !hal_user_heap_has((uintptr_t)g, sizeof(*g)))
		g = NULL;
	for (unsigned d = 0; d < 3; d++)
		f->group[d] = g ? (uint32_t)g->group_id[d] : 0;
	if (code == HP_TIMEOUT)
		snprintf(inst->text, sizeof(inst->text),
			 "ran past its time limit: stopped at pc 0x%lx on "
			 "hart %u in group (%u,%u,%u)",
			 pc, f->hart, (unsigned)f->group[0],
			 (unsigned)f->group[1], (unsigned)f->group[2]);
	else
		snprintf(inst->text, sizeof(inst->text),
			 "%s at pc 0x%lx, address 0x%lx, hart %u, group "
			 "(%u,%u,%u)",
			 hal_cause_name(cause), pc, tval, f->hart,
			 (unsigned)f->group[0], (unsigned)f->group[1],
			 (unsigned)f->group[2]);
	inst->detail = inst->text;
}

/* Out of kernel context after a recorded fault: the recovery point, where
 * the hart resumes in M-mode. */
static hal_jmp_buf *stop(kctx_hart *h)
{
	hal_store_relaxed(&h->kinst, NULL);
	h->u->user = false;
	return &h->jmp;
}

static bool past_deadline(const exec_krec *inst)
{
	return inst->deadline && hal_timer_now() >= inst->deadline;
}

hal_jmp_buf *exec_kernel_trap(unsigned long cause, unsigned long pc,
			      unsigned long tval)
{
	if (!kctx_harts)
		return NULL;
	kctx_hart *h = self();
	exec_krec *inst = h->kinst;
	if (!inst)
		return NULL;
	if (cause & CAUSE_INTERRUPT) {
		/* Only the watchdog's timer is enabled in kernel context
		 * (and IPIs: exec_kernel_ipi); before the deadline it is the
		 * pool's time slice (exec_kernel_tick). */
		if ((cause & ~CAUSE_INTERRUPT) != CAUSE_TIMER_IRQ ||
		    !past_deadline(inst))
			return NULL;
		record(h, HP_TIMEOUT, cause, pc, tval);
	} else {
		record(h, HP_KERNEL_FAULT, cause, pc, tval);
	}
	return stop(h);
}

bool exec_kernel_busy(void)
{
	return kctx_harts && self()->kinst;
}

hal_jmp_buf *exec_kernel_ipi(void)
{
	kctx_hart *h = kctx_harts ? self() : NULL;
	exec_krec *inst = h ? h->kinst : NULL;
	/* Cleared first: a cancel stored its fault before its IPI, so the
	 * load below sees it. */
	hal_ipi_clear_self();
	if (inst && hal_load_acquire(&inst->fault))
		return stop(h);
	/* Not for this kernel (a wake-up meant for an idle hart): dropped,
	 * as the hart's next sleep would drop it (hal_sleep_prepare clears
	 * its IPI before it looks for work again). */
	return NULL;
}

hal_jmp_buf *exec_kernel_timeout_check(unsigned long pc)
{
	kctx_hart *h = self();
	exec_krec *inst = h->kinst;
	if (!inst)
		return NULL;
	if (past_deadline(inst)) {
		record(h, HP_TIMEOUT, CAUSE_INTERRUPT | CAUSE_TIMER_IRQ, pc, 0);
		return stop(h);
	}
	return hal_load_acquire(&inst->fault) ? stop(h) : NULL;
}

void exec_kctx_cancel(exec_krec *r, int code, const char *detail)
{
	int zero = 0;
	if (hal_cas(&r->fault, &zero, code))
		r->detail = detail;
	/* Against the entering hart's fence between naming the instance and
	 * looking at its fault (exec_kctx_run): either it sees the fault and
	 * does not run, or the loads below see it inside. */
	hal_fence();
	for (unsigned i = 0; i < exec_dev.harts; i++)
		if (hal_load_relaxed(&kctx_harts[i].kinst) == r)
			hal_ipi_send(i);
}

void exec_isolation_domain(unsigned dom, const uintptr_t *base,
			   const uintptr_t *size, unsigned n)
{
	if (dom >= EXEC_DOMAINS)
		return;
	if (n > HAL_ISO_RANGES_MAX)
		n = HAL_ISO_RANGES_MAX;
	unsigned key = iso_keys[dom] + (1u << ISO_DOM_BITS);
	if (!(key >> ISO_DOM_BITS))
		key += 2u << ISO_DOM_BITS; /* never 0 (wrapped) */
	for (unsigned i = 0; i < n; i++)
		iso_ranges[dom][ISO_SET(key)][i] =
			(hal_range){base[i], size[i]};
	iso_num[dom][ISO_SET(key)] = n;
	hal_store_release(&iso_keys[dom], key);
}

void exec_isolation_allow(uintptr_t base, uintptr_t size)
{
	exec_isolation_domain(0, &base, &size, size != 0);
}

/* The arena of exec_buffer_alloc: what the kernel-visible heap had free at
 * its first use but an eighth (spare contexts come later), at most 64 MiB,
 * in whole granules. */
static struct {
	uintptr_t base, size, next;
} buffers;

void *exec_buffer_alloc(size_t size, size_t align)
{
	if (!buffers.base) {
		uintptr_t g = hal_isolation_granule();
		size_t free = hal_heap_free_bytes(), want = free - free / 8;
		if (want > (64u << 20))
			want = 64u << 20;
		want &= ~(g - 1);
		char *a = want ? hal_heap_alloc(want, g) : NULL;
		if (!a)
			return NULL;
		buffers.base = buffers.next = (uintptr_t)a;
		buffers.size = want;
		exec_isolation_allow(buffers.base, buffers.size);
	}
	if (align < 8)
		align = 8;
	uintptr_t cur = hal_load_relaxed(&buffers.next);
	for (;;) {
		uintptr_t p = (cur + align - 1) & ~(uintptr_t)(align - 1);
		if (p + size < p || p + size > buffers.base + buffers.size)
			return NULL;
		if (hal_cas(&buffers.next, &cur, p + size))
			return (void *)p; /* the heap hands out zeroed memory */
	}
}

unsigned exec_isolation_max_ranges(void)
{
	return hal_isolation_max_ranges();
}

uintptr_t exec_isolation_granule(void)
{
	return hal_isolation_granule();
}

/* Cold paths out of line: entering saves fewer registers. Programs the
 * hart for domain dom's current ranges (a consistent copy: read again
 * while they change). */
static __attribute__((noinline)) void iso_program(kctx_hart *h, unsigned dom,
						  const exec_kview *kv)
{
	hal_range rw[HAL_ISO_RANGES_MAX];
	unsigned nrw, key;
	/* What of the kernel-visible heap the hart's kernel owns: its
	 * context (the whole block, the kernel stack's guard inside out),
	 * its instance's view and, in a team, the leader's local memory. */
	hal_iso_own own = {
		.guard = {(uintptr_t)h->ustack, EXEC_GUARD_BYTES},
		.view = {(uintptr_t)kv, EXEC_KVIEW_BYTES},
	};
	uintptr_t lo, hi;
	exec_ctx_bounds(h->ustack, &lo, &hi);
	own.ctx = (hal_range){lo, hi - lo};
	if (h->team_local)
		own.team = (hal_range){(uintptr_t)h->team_local,
				       exec_dev.local_mem_size};
	/* Again if the writer moved on twice meanwhile (it changes a domain
	 * when its session allocates: rare, and never waits for us). */
	do {
		key = hal_load_acquire(&iso_keys[dom]);
		nrw = iso_num[dom][ISO_SET(key)];
		for (unsigned i = 0; i < nrw; i++)
			rw[i] = iso_ranges[dom][ISO_SET(key)][i];
		hal_fence();
	} while (hal_load_relaxed(&iso_keys[dom]) != key);
	h->iso_ok = hal_isolation_setup(&own, dom, key, rw, nrw);
	h->iso_key = key;
	h->view = (uintptr_t)kv;
}

void exec_kctx_stack_set(unsigned idx, char *s)
{
	kctx_harts[idx].ustack = s;
	kctx_harts[idx].iso_key = 0;
}

void exec_kctx_team_local(void *lm)
{
	kctx_hart *h = self();
	if (h->team_local != lm) {
		h->team_local = lm;
		h->iso_key = 0; /* the PMP needs the other range */
	}
}

static void (*on_program)(unsigned dom);

void exec_kctx_on_program(void (*fn)(unsigned dom))
{
	on_program = fn;
}

/* Bumped after a kernel object's code was written (exec_code_changed). */
static unsigned code_gen;

void exec_code_changed(void)
{
	hal_fence();
	hal_fetch_add(&code_gen, 1u);
}

/* When the hart's timer must interrupt the kernel: its deadline or the
 * end of its slice, whichever is first (0: neither). */
static uint64_t first_stop(const kctx_hart *h)
{
	uint64_t d = h->kcur->deadline, e = h->slice_end;
	return !d ? e : !e || d < e ? d : e;
}

void exec_kctx_slice(uint64_t end, bool now)
{
	kctx_hart *h = self();
	h->slice_end = end;
	if (now && h->kcur) {
		uint64_t t = first_stop(h);
		hal_watchdog_rearm(t ? t : UINT64_MAX);
	}
}

exec_krec *exec_kctx_running(bool *team)
{
	kctx_hart *h = kctx_harts ? self() : NULL;
	if (!h || !h->kinst || !h->iso_on)
		return NULL;
	*team = h->u->team != 0;
	return h->kinst;
}

hal_jmp_buf *exec_kctx_preempt(void)
{
	return stop(self());
}

/* The entry once the hart is prepared (enter_prepare). */
static inline hal_jmp_buf *enter(kctx_hart *h, exec_krec *r, exec_ucall *u)
{
	h->kcur = r;
	hal_store_relaxed(&h->kinst, r);
	h->u = u;
	bool user = exec_dev.isolation && h->ustack && h->iso_ok;
	h->iso_on = user;
	u->user = user;
	h->armed = r->deadline || user;
	return &h->jmp;
}

/* Another instance of the same domain: only the view changes. Out of line
 * and reached by a tail call, like enter_prepare. */
static __attribute__((noinline)) hal_jmp_buf *
view_switch(kctx_hart *h, exec_krec *r, exec_ucall *u)
{
	h->view = (uintptr_t)r->kv;
	hal_isolation_view(h->view);
	return enter(h, r, u);
}

/* What a hart does before a kernel only now and then: make code loaded
 * since it last looked fetchable (the instance was published after the
 * load, so the acquire in exec_kctx_enter sees the new generation whenever
 * the kernel is new code), get its user stack, program its PMP for a new
 * isolation layout. Out of line and reached by a tail call: the common
 * entry saves no registers. */
static __attribute__((noinline)) hal_jmp_buf *
enter_prepare(kctx_hart *h, exec_krec *r, exec_ucall *u, unsigned cg)
{
	if (h->code_seen != cg) {
		hal_icache_sync();
		h->code_seen = cg;
	}
	if (exec_dev.isolation && h->ustack &&
	    h->iso_key != hal_load_acquire(&iso_keys[r->domain])) {
		iso_program(h, r->domain, r->kv);
		if (on_program)
			on_program(r->domain);
	}
	/* Here for the code alone: the view may still be another
	 * instance's. */
	if (h->view != (uintptr_t)r->kv)
		return view_switch(h, r, u);
	return enter(h, r, u);
}

hal_jmp_buf *exec_kctx_enter(exec_krec *r, exec_ucall *u)
{
	kctx_hart *h = self();
	unsigned cg = hal_load_acquire(&code_gen);
	if (h->code_seen != cg ||
	    (exec_dev.isolation &&
	     h->iso_key != hal_load_acquire(&iso_keys[r->domain])))
		return enter_prepare(h, r, u, cg);
	if (h->view != (uintptr_t)r->kv)
		return view_switch(h, r, u);
	return enter(h, r, u);
}

/* The first fault of an instance wins. */
static void krec_fault(exec_krec *r, int code, const char *detail)
{
	int zero = 0;
	if (hal_cas(&r->fault, &zero, code))
		r->detail = detail;
}

/* Run and resume alike, once the recovery point exists: the timer armed
 * (in U-mode every interrupt but the watchdog's is masked: an enabled one
 * would trap there); false if the instance has a fault. A cancel
 * (exec_kctx_cancel) may have come between the pool's look at the fault
 * and kinst: after the fence either it saw kinst (its IPI is pending, and
 * traps at once in U-mode) or the load sees its fault. */
static inline __attribute__((always_inline)) bool go(kctx_hart *h)
{
	if (h->armed)
		hal_watchdog_arm(first_stop(h), h->iso_on);
	hal_fence();
	return !hal_load_relaxed(&h->kcur->fault);
}

void exec_kctx_run(hal_jmp_buf *at, void (*entry)(void *))
{
	kctx_hart *h = of(at);
	if (!go(h))
		return;
	/* h->iso_on, not u->user: kernel code on other harts can write
	 * every exec_ucall. */
	if (h->iso_on) /* resumes at `at` (HAL_USER_RETURNED) */
		hal_user_call(at, entry, h->u,
			      h->ustack + EXEC_GUARD_BYTES + EXEC_USTACK_BYTES);
	else
		entry(h->u);
}

void exec_kctx_resume(hal_jmp_buf *at, const hal_user_regs *r)
{
	kctx_hart *h = of(at);
	if (!go(h))
		return;
	if (h->iso_on)
		hal_user_resume(at, r);
	/* taken in U-mode, so it can only go on there */
	krec_fault(h->kcur, HP_KERNEL_FAULT,
		   "a preempted kernel could not be continued: its hart "
		   "lost U-mode");
}

char *exec_kctx_swap_stack(char *s)
{
	kctx_hart *h = self();
	char *old = h->ustack;
	h->ustack = s;
	h->iso_key = 0; /* the PMP needs the other stack's guard */
	return old;
}

void exec_kctx_stack_clear(void)
{
	kctx_hart *h = self();
	if (h->ustack)
		memset(h->ustack + EXEC_GUARD_BYTES, 0, EXEC_USTACK_BYTES);
}

/* A fault kernel code recorded in its kview: the code must be one the
 * executor's own checks use, the detail text must be firmware rodata. */
static __attribute__((noinline)) void take_kv_fault(exec_krec *r, bool user,
						    int code)
{
	exec_kview *kv = r->kv;
	/* The hart that recorded it may not have stored the text yet: it
	 * reports the fault itself when it leaves. */
	const char *detail = hal_load_acquire(&kv->detail);
	if (!detail)
		return;
	if (code != HP_OUT_OF_RESOURCES)
		code = HP_KERNEL_FAULT;
	if (user && !hal_rodata_has((uintptr_t)detail))
		detail = "a kernel fault (its detail text was overwritten)";
	krec_fault(r, code, detail);
}

void exec_kctx_leave(hal_jmp_buf *at)
{
	kctx_hart *h = of(at);
	/* Also after a trap, which cleared kinst and left MIE off; the hart
	 * is in M-mode again either way. */
	bool user = h->iso_on;
	h->u->user = false;
	h->iso_on = false;
	if (h->armed) {
		hal_watchdog_disarm();
		h->armed = false;
	}
	h->slice_end = 0;
	/* Out of line: almost every kernel records none. */
	int code = hal_load_relaxed(&h->kcur->kv->fault);
	if (code)
		take_kv_fault(h->kcur, user, code);
	hal_store_relaxed(&h->kinst, NULL);
	h->kcur = NULL;
}

bool exec_kctx_should_stop(void)
{
	exec_krec *inst = self()->kinst;
	return inst && (past_deadline(inst) || hal_load_relaxed(&inst->fault));
}

void exec_kctx_abort(void)
{
	kctx_hart *h = self();
	if (past_deadline(h->kinst))
		record(h, HP_TIMEOUT, CAUSE_INTERRUPT | CAUSE_TIMER_IRQ, 0, 0);
	hal_longjmp(stop(h), 1);
}

uint64_t exec_kctx_deadline(void)
{
	exec_krec *inst = self()->kinst;
	return inst ? inst->deadline : 0;
}
