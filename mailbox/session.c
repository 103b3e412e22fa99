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
 */
#include "session.h"
#include "heap.h"
#include "kobj.h"
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
} mbox_sess;

static struct {
	hp_mbox_session *tab;
	hp_mbox_header *hdr;
	mbox_sess s[HP_MBOX_SESSIONS];
	uint32_t ended;
	unsigned dirty;	    /* figures changed since the last publish */
	uint64_t published; /* when (timer ticks) */
} S;

void mbox_session_init(hp_mbox_session *table, hp_mbox_header *hdr)
{
	S.tab = table;
	S.hdr = hdr;
	memset(S.s, 0, sizeof(S.s));
	S.ended = 0;
	S.dirty = 1;
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
	hal_store_relaxed(&m->commands, 0u);
	mbox_heap_free_session(s); /* nothing: reclaimed when it ended */
	/* A new owner: nothing the last one's kernels left in stacks or
	 * local memory reaches its kernels. */
	exec_domain_renew(mbox_session_domain(s));
	domain_update(s);
	hal_store_relaxed(&t->opens, t->opens + 1);
	mbox_st64(&t->cancelled, 0);
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

void mbox_session_cmd_done(unsigned s)
{
	/* The last command of an ending session: the dispatcher reclaims
	 * it now rather than at its next timer check. */
	if (hal_fetch_add(&S.s[s].commands, ~0u) == 1 &&
	    hal_load_acquire(&S.tab[s].state) == HP_SESSION_ENDING)
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

uint64_t mbox_session_alloc(unsigned s, uint64_t size, char *why, size_t n)
{
	bool changed;
	uint64_t a = mbox_heap_alloc(s, size, &changed, why, n);
	if (!a && size && trim_idle())
		a = mbox_heap_alloc(s, size, &changed, why, n);
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
