// SPDX-License-Identifier: MIT
/*
 * Host sessions (session.h). The table lives in the mailbox: the host
 * writes its half (owner token, end request, name), the device its own
 * (state, the token it serves, counters). The dispatcher alone changes a
 * session's state; any hart counts commands done.
 *
 * A session's kernels run in isolation domain s + 1 (domain 0 is the
 * executor's default, unused by the mailbox): exactly the session's heap
 * regions, updated whenever they change. Regions only grow while commands
 * of the session may run; they shrink (giving memory to others) only
 * while none does, so no hart still holds a larger view of them.
 *
 * Quotas (quota.h) are checked here, on the dispatcher, before a session
 * takes heap bytes or a buffer (ALLOC), an object and its table rows
 * (LOAD), a queue (its first packet) or a command (reading a packet: over
 * the quota, its queues wait; docs/sessions.md, "Quotas"). The use
 * figures are the heap's, the kernel table's and the counters here; only
 * the dispatcher takes, any hart may give back, so a check never lets
 * through more than the quota.
 */
#include "session.h"
#include "heap.h"
#include "kobj.h"
#include "quota.h"
#include "words.h"
#include <executor/exec.h>
#include <hal/atomic.h>
#include <hal/ipi.h>
#include <hal/timer.h>
#include <string.h>

_Static_assert(HP_MBOX_SESSIONS + 1 <= EXEC_DOMAINS,
	       "a domain per session and the default one");
_Static_assert(HP_MBOX_SESSIONS <= 32, "session masks are 32 bits");

typedef struct mbox_sess {
	unsigned commands; /* read and not complete (atomic) */
	unsigned queues;
	uint64_t cancelled;
	unsigned held; /* its packets wait for commands to complete */
} mbox_sess;

static struct {
	hp_mbox_session *tab;
	hp_mbox_header *hdr;
	mbox_sess s[HP_MBOX_SESSIONS];
	uint32_t ended;
	unsigned dirty;	    /* figures changed since the last publish */
	uint64_t published; /* when (timer ticks) */
	mbox_quota quota[MBOX_QUOTAS];
	bool shared;	    /* quotas apply */
	void (*bell)(void); /* the host bell, NULL: none */
} S;

void mbox_session_init(hp_mbox_session *table, hp_mbox_header *hdr)
{
	S.tab = table;
	S.hdr = hdr;
	memset(S.s, 0, sizeof(S.s));
	S.ended = 0;
	S.dirty = 1;
	S.bell = NULL;
}

void mbox_session_host_bell(void (*ring)(void))
{
	S.bell = ring;
}

void mbox_session_quotas(bool shared, const uint64_t *max, const uint64_t *min)
{
	uint32_t objects, rows, code;
	mbox_kobj_stats(&objects, &rows, &code);
	uint64_t cap[MBOX_QUOTAS] = {
		[MBOX_QUOTA_HEAP] = mbox_heap_size(),
		[MBOX_QUOTA_BUFFERS] = HP_MBOX_BUFFERS_MAX,
		[MBOX_QUOTA_OBJECTS] = HP_MBOX_OBJECTS_MAX,
		/* Rows the built-in kernels leave. */
		[MBOX_QUOTA_ROWS] = HP_MBOX_KERNELS_MAX - rows,
		[MBOX_QUOTA_QUEUES] = HP_MBOX_QUEUES,
		[MBOX_QUOTA_COMMANDS] = HP_MBOX_QUEUES * HP_MBOX_RING_SIZE,
	};
	mbox_quota_limits(S.quota, cap, shared, max, min);
	S.shared = shared;
	hp_mbox_header *h = S.hdr;
	h->shared = shared;
	for (unsigned r = 0; r < MBOX_QUOTAS; r++) {
		mbox_st64(&h->quota_cap[r], S.quota[r].cap);
		mbox_st64(&h->quota_max[r], S.quota[r].max);
		mbox_st64(&h->quota_min[r], S.quota[r].min);
	}
}

/* Session @p s's use of resource @p res. */
static uint64_t quota_use(unsigned res, unsigned s)
{
	uint64_t buffers, bytes;
	unsigned regions;
	uint32_t objects, kernels;
	switch (res) {
	case MBOX_QUOTA_HEAP:
	case MBOX_QUOTA_BUFFERS:
		mbox_heap_session_stats(s, &buffers, &bytes, &regions);
		return res == MBOX_QUOTA_HEAP ? bytes : buffers;
	case MBOX_QUOTA_OBJECTS:
	case MBOX_QUOTA_ROWS:
		mbox_kobj_session_stats(s, &objects, &kernels);
		return res == MBOX_QUOTA_OBJECTS ? objects : kernels;
	case MBOX_QUOTA_QUEUES:
		return S.s[s].queues;
	default:
		return hal_load_relaxed(&S.s[s].commands);
	}
}

int mbox_session_quota(unsigned s, unsigned res, uint64_t n, char *why,
		       size_t len)
{
	/* A private device: only the resources' own limits. */
	if (!S.shared)
		return 0;
	mbox_quota_state st = {.open = 0, .slot_free = false};
	for (unsigned k = 0; k < HP_MBOX_SESSIONS; k++) {
		uint32_t state = S.tab[k].state;
		if (state == HP_SESSION_OPEN)
			st.open |= 1u << k;
		/* A slot no host has claimed yet. */
		if (state == HP_SESSION_FREE && !mbox_ld64(&S.tab[k].owner))
			st.slot_free = true;
		st.use[k] = state == HP_SESSION_FREE ? 0 : quota_use(res, k);
	}
	uint64_t kept;
	int v = mbox_quota_check(&S.quota[res], &st, s, n, &kept);
	if (v == MBOX_QUOTA_OK)
		return 0;
	if (why)
		mbox_quota_why(res, v, &S.quota[res], st.use[s], n, kept, why,
			       len);
	return HP_OUT_OF_RESOURCES;
}

uint64_t mbox_session_quota_max(unsigned res)
{
	return res < MBOX_QUOTAS ? S.quota[res].max : 0;
}

int mbox_session_admit_object(unsigned s, unsigned kernels, char *why, size_t n)
{
	int err = mbox_session_quota(s, MBOX_QUOTA_OBJECTS, 1, why, n);
	return err ? err
		   : mbox_session_quota(s, MBOX_QUOTA_ROWS, kernels, why, n);
}

bool mbox_session_may_read(unsigned s)
{
	if (!mbox_session_quota(s, MBOX_QUOTA_COMMANDS, 1, NULL, 0))
		return true;
	/* Until one of its commands completes (that hart wakes the
	 * dispatcher), or another session's: a floor kept for it. Then
	 * once more, for a completion that came before the mark. */
	hal_swap(&S.s[s].held, 1u);
	hal_fence();
	if (mbox_session_quota(s, MBOX_QUOTA_COMMANDS, 1, NULL, 0))
		return false;
	hal_store_relaxed(&S.s[s].held, 0u);
	return true;
}

void mbox_session_touch(void)
{
	hal_store_relaxed(&S.dirty, 1u);
}

void mbox_session_requests(uint32_t *open, uint32_t *end)
{
	*open = *end = 0;
	for (unsigned s = 0; s < HP_MBOX_SESSIONS; s++) {
		hp_mbox_session *t = &S.tab[s];
		uint32_t state = t->state;
		if (state == HP_SESSION_ENDING)
			continue;
		uint64_t owner = mbox_ld64(&t->owner);
		if (state == HP_SESSION_FREE) {
			if (owner)
				*open |= 1u << s;
		} else if (hal_load_acquire(&t->end_request) ||
			   owner != t->dev_owner) {
			*end |= 1u << s;
		}
	}
}

static void domain_update(unsigned s)
{
	uint64_t base[MBOX_HEAP_REGIONS_MAX], size[MBOX_HEAP_REGIONS_MAX];
	uintptr_t b[MBOX_HEAP_REGIONS_MAX], z[MBOX_HEAP_REGIONS_MAX];
	unsigned n = mbox_heap_regions(s, base, size, MBOX_HEAP_REGIONS_MAX);
	for (unsigned i = 0; i < n; i++) {
		b[i] = (uintptr_t)base[i];
		z[i] = (uintptr_t)size[i];
	}
	exec_isolation_domain(mbox_session_domain(s), b, z, n);
}

/* Sessions that are open or ending: with two or more, kernels get time
 * slices (exec_tenants_set). */
static void tenants_update(void)
{
	unsigned n = 0;
	for (unsigned s = 0; s < HP_MBOX_SESSIONS; s++)
		n += S.tab[s].state != HP_SESSION_FREE;
	exec_tenants_set(n);
}

void mbox_session_open(unsigned s)
{
	hp_mbox_session *t = &S.tab[s];
	mbox_sess *m = &S.s[s];
	m->queues = 0;
	m->cancelled = 0;
	m->held = 0;
	hal_store_relaxed(&m->commands, 0u);
	mbox_heap_free_session(s); /* nothing: reclaimed when it ended */
	/* A new owner: nothing the last one's kernels left in stacks or
	 * local memory reaches its kernels. */
	exec_domain_renew(mbox_session_domain(s));
	domain_update(s);
	hal_store_relaxed(&t->opens, t->opens + 1);
	mbox_st64(&t->cancelled, 0);
	hal_store_relaxed(&t->bells, 0u);
	mbox_st64(&t->dev_owner, mbox_ld64(&t->owner));
	hal_store_release(&t->state, (uint32_t)HP_SESSION_OPEN);
	tenants_update();
	mbox_session_touch();
}

void mbox_session_begin_end(unsigned s)
{
	hal_store_release(&S.tab[s].state, (uint32_t)HP_SESSION_ENDING);
}

uint32_t mbox_session_reclaimable(void)
{
	uint32_t m = 0;
	for (unsigned s = 0; s < HP_MBOX_SESSIONS; s++)
		if (S.tab[s].state == HP_SESSION_ENDING &&
		    !hal_load_acquire(&S.s[s].commands))
			m |= 1u << s;
	return m;
}

void mbox_session_reclaim(unsigned s)
{
	hp_mbox_session *t = &S.tab[s];
	mbox_kobj_unload_session(s);
	mbox_heap_free_session(s);
	domain_update(s);
	S.ended++;
	mbox_st64(&t->cancelled, S.s[s].cancelled);
	/* The host words too: a host that claims the slot next fills them
	 * after its claim, and meanwhile a reaper must not see the last
	 * owner's start time under the new owner's pid. */
	hal_store_relaxed(&t->end_request, 0u);
	hal_store_relaxed(&t->host_flags, 0u);
	mbox_st64(&t->host_start, 0);
	mbox_st64(&t->host_os, 0);
	memset(t->name, 0, sizeof(t->name));
	mbox_st64(&t->dev_owner, 0);
	hal_store_release(&t->state, (uint32_t)HP_SESSION_FREE);
	tenants_update();
	mbox_session_publish();
	/* Last: the slot may be claimed again from here on. */
	mbox_st64(&t->owner, 0);
}

int mbox_session_find(uint64_t owner)
{
	if (!owner)
		return MBOX_NO_SESSION;
	for (unsigned s = 0; s < HP_MBOX_SESSIONS; s++)
		if (S.tab[s].state == HP_SESSION_OPEN &&
		    S.tab[s].dev_owner == owner)
			return (int)s;
	return MBOX_NO_SESSION;
}

bool mbox_session_ending(unsigned s)
{
	return S.tab[s].state != HP_SESSION_OPEN;
}

uint64_t mbox_session_token(unsigned s)
{
	return S.tab[s].state == HP_SESSION_FREE ? 0 : S.tab[s].dev_owner;
}

void mbox_session_queue_bound(unsigned s, int delta)
{
	S.s[s].queues += (unsigned)delta;
}

void mbox_session_cmd_start(unsigned s)
{
	hal_fetch_add(&S.s[s].commands, 1u);
}

void mbox_session_record_done(unsigned s)
{
	hp_mbox_session *t = &S.tab[s];
	if (!S.bell || !(hal_load_relaxed(&t->host_flags) & HP_SESSION_BELL))
		return;
	hal_fetch_add_relaxed(&t->bells, 1u);
	S.bell();
}

void mbox_session_cmd_done(unsigned s)
{
	/* The last command of an ending session: the dispatcher reclaims
	 * it now rather than at its next timer check. */
	bool wake = hal_fetch_add(&S.s[s].commands, ~0u) == 1 &&
		    hal_load_acquire(&S.tab[s].state) == HP_SESSION_ENDING;
	hal_fence(); /* the count before the marks (mbox_session_may_read) */
	/* Packets wait for room among the commands in flight (any
	 * session's: a floor may have kept them). */
	for (unsigned k = 0; k < HP_MBOX_SESSIONS; k++)
		if (hal_load_relaxed(&S.s[k].held) &&
		    hal_swap(&S.s[k].held, 0u))
			wake = true;
	if (wake)
		hal_ipi_send(0);
}

void mbox_session_cancelled(unsigned s, unsigned n)
{
	S.s[s].cancelled += n;
}

int mbox_session_at(uint64_t addr, uint64_t len, bool *owner_word)
{
	uint64_t base = (uintptr_t)S.tab;
	if (addr < base || addr - base >= HP_MBOX_SESSIONS * sizeof(*S.tab))
		return MBOX_NO_SESSION;
	unsigned s = (unsigned)((addr - base) / sizeof(*S.tab));
	uint64_t off = (addr - base) % sizeof(*S.tab);
	if (len > offsetof(hp_mbox_session, state) ||
	    off > offsetof(hp_mbox_session, state) - len)
		return MBOX_NO_SESSION;
	if (owner_word)
		*owner_word = off == 0 && len >= sizeof(S.tab[s].owner);
	return (int)s;
}

uint64_t mbox_session_owner(unsigned s)
{
	return mbox_ld64(&S.tab[s].owner);
}

uint32_t mbox_session_of_tokens(const uint64_t *tokens, unsigned n)
{
	uint32_t m = 0;
	for (unsigned s = 0; s < HP_MBOX_SESSIONS; s++)
		for (unsigned i = 0; i < n; i++)
			if (S.tab[s].state == HP_SESSION_OPEN && tokens[i] &&
			    S.tab[s].dev_owner == tokens[i])
				m |= 1u << s;
	return m;
}

unsigned mbox_session_domain(unsigned s)
{
	return s + 1;
}

/* Memory is short: sessions with nothing in flight give back the parts of
 * their regions no buffer uses. True if any did. */
static bool trim_idle(void)
{
	bool any = false;
	for (unsigned s = 0; s < HP_MBOX_SESSIONS; s++)
		if (S.tab[s].state != HP_SESSION_FREE &&
		    !hal_load_acquire(&S.s[s].commands) && mbox_heap_trim(s)) {
			domain_update(s);
			any = true;
		}
	return any;
}

uint64_t mbox_session_alloc(unsigned s, uint64_t at, uint64_t size, char *why,
			    size_t n)
{
	bool changed;
	if (size && (mbox_session_quota(s, MBOX_QUOTA_BUFFERS, 1, why, n) ||
		     mbox_session_quota(s, MBOX_QUOTA_HEAP, size, why, n)))
		return 0;
	uint64_t a = at ? mbox_heap_alloc_at(s, at, size, &changed, why, n)
			: mbox_heap_alloc(s, size, &changed, why, n);
	if (!a && size && trim_idle())
		a = at ? mbox_heap_alloc_at(s, at, size, &changed, why, n)
		       : mbox_heap_alloc(s, size, &changed, why, n);
	if (changed)
		domain_update(s);
	mbox_session_touch();
	return a;
}

void mbox_session_publish_dirty(bool rate_limited)
{
	/* At most every millisecond while commands flow: a publish walks
	 * every table. */
	if (!hal_load_relaxed(&S.dirty) ||
	    (rate_limited &&
	     hal_timer_now() - S.published < hal_timer_freq() / 1000u))
		return;
	mbox_session_publish();
}

void mbox_session_publish(void)
{
	S.published = hal_timer_now();
	hal_store_relaxed(&S.dirty, 0u);
	hp_mbox_header *hdr = S.hdr;
	for (unsigned s = 0; s < HP_MBOX_SESSIONS; s++) {
		hp_mbox_session *t = &S.tab[s];
		uint64_t buffers, bytes;
		unsigned regions;
		mbox_heap_session_stats(s, &buffers, &bytes, &regions);
		mbox_st64(&t->buffers, buffers);
		mbox_st64(&t->bytes, bytes);
		mbox_st64(&t->commands, hal_load_relaxed(&S.s[s].commands));
		uint32_t objects, kernels;
		mbox_kobj_session_stats(s, &objects, &kernels);
		hal_store_relaxed(&t->objects, objects);
		hal_store_relaxed(&t->kernels, kernels);
		hal_store_relaxed(&t->queues, S.s[s].queues);
		hal_store_relaxed(&t->regions, regions);
		if (t->state != HP_SESSION_FREE)
			mbox_st64(&t->cancelled, S.s[s].cancelled);
	}
	mbox_heap_stats st;
	mbox_heap_stats_get(&st);
	mbox_st64(&hdr->heap_used, st.used);
	mbox_st64(&hdr->heap_free, mbox_heap_size() - st.used);
	mbox_st64(&hdr->heap_largest, st.largest);
	hal_store_relaxed(&hdr->heap_buffers, st.buffers);
	uint32_t objects, rows, code;
	mbox_kobj_stats(&objects, &rows, &code);
	hal_store_relaxed(&hdr->objects, objects);
	hal_store_relaxed(&hdr->kernel_rows, rows);
	hal_store_relaxed(&hdr->code_used, code);
	hal_store_relaxed(&hdr->sessions_ended, S.ended);
}
