// SPDX-License-Identifier: MIT
/* Handles (docs/icd.md, "Objects"). Every context, queue, buffer, program,
 * kernel and event comes from icd_obj_new and is recognised by
 * icd_obj_valid: a look-up of the pointer in a table of the live objects,
 * then its kind. A value that is no handle is never dereferenced.
 *
 * A released object's memory is never given back to malloc: the loader
 * calls through a handle's dispatch pointer before the ICD sees the handle
 * (a second clRelease* included), so a dead object keeps its dispatch
 * pointer and waits, first in first out, behind at least ICD_QUARANTINE
 * other dead objects of its kind before it becomes a new object of that
 * kind. Until then every use of the released handle is CL_INVALID_*.
 * Called with the lock held. */
#include "icd.h"
#include <stdlib.h>
#include <string.h>

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION(p, n)
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

/* ---- the live objects: a set of pointers (open addressing, linear
 * probing, deletion by shifting back) ---- */

static const void **live;
static size_t live_cap, live_used; /* live_cap: 0 or a power of two */

static size_t slot_of(const void *p)
{
	uint64_t x = (uintptr_t)p;
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return (size_t)x & (live_cap - 1);
}

static bool live_find(const void *p, size_t *at)
{
	if (!live_cap)
		return false;
	for (size_t i = slot_of(p);; i = (i + 1) & (live_cap - 1)) {
		if (!live[i])
			return false;
		if (live[i] == p) {
			*at = i;
			return true;
		}
	}
}

static void live_put(const void *p)
{
	size_t i = slot_of(p);
	while (live[i])
		i = (i + 1) & (live_cap - 1);
	live[i] = p;
	live_used++;
}

static bool live_add(const void *p)
{
	if (2 * (live_used + 1) > live_cap) { /* at most half full */
		size_t old_cap = live_cap, cap = old_cap ? 2 * old_cap : 256;
		const void **old = live, **n = calloc(cap, sizeof(*n));
		if (!n)
			return false;
		live = n;
		live_cap = cap;
		live_used = 0;
		for (size_t i = 0; i < old_cap; i++)
			if (old[i])
				live_put(old[i]);
		free(old);
	}
	live_put(p);
	return true;
}

static void live_del(size_t i)
{
	live[i] = NULL;
	live_used--;
	/* move the entries after it back if their probe passed through i */
	for (size_t j = (i + 1) & (live_cap - 1); live[j];
	     j = (j + 1) & (live_cap - 1)) {
		size_t h = slot_of(live[j]);
		bool wraps = i <= j ? (h <= i || h > j) : (h <= i && h > j);
		if (wraps) {
			live[i] = live[j];
			live[j] = NULL;
			i = j;
		}
	}
}

/* ---- dead objects, by kind ---- */

#define KINDS (MAGIC_EVENT - MAGIC_CONTEXT + 1)

/* The link of a dead object: just after its header. */
struct icd_dead {
	struct icd_object head;
	struct icd_dead *next;
};

static struct {
	struct icd_dead *first, *last;
	size_t num, size;
} dead[KINDS];

static bool kind_ok(uint32_t kind)
{
	return kind >= MAGIC_CONTEXT && kind <= MAGIC_EVENT;
}

void *icd_obj_new(uint32_t kind, size_t size)
{
	if (!kind_ok(kind) || size < sizeof(struct icd_dead))
		return NULL;
	__typeof__(dead[0]) *d = &dead[kind - MAGIC_CONTEXT];
	struct icd_object *o;
	if (d->num > ICD_QUARANTINE && d->size == size) {
		struct icd_dead *x = d->first;
		d->first = x->next;
		if (!d->first)
			d->last = NULL;
		d->num--;
		UNPOISON(x, size);
		memset(x, 0, size);
		o = &x->head;
	} else if (!(o = calloc(1, size)))
		return NULL;
	o->dispatch = &icd_dispatch;
	o->magic = kind;
	o->refs = 1;
	if (!live_add(o)) {
		free(o);
		return NULL;
	}
	return o;
}

bool icd_obj_unref(void *o)
{
	struct icd_object *x = o;
	if (--x->refs)
		return false;
	icd_obj_kill(x);
	return !x->holds;
}

bool icd_obj_unhold(void *o)
{
	struct icd_object *x = o;
	return !--x->holds && !x->refs;
}

bool icd_obj_valid(const void *h, uint32_t kind)
{
	size_t at;
	return h && live_find(h, &at) &&
	       ((const struct icd_object *)h)->magic == kind;
}

void icd_obj_kill(void *obj)
{
	size_t at;
	if (live_find(obj, &at))
		live_del(at);
}

void icd_obj_free(void *obj, size_t size)
{
	struct icd_dead *x = obj;
	uint32_t kind = x->head.magic;
	icd_obj_kill(obj);
	if (!kind_ok(kind))
		return; /* not ours (cannot happen): leave it */
	__typeof__(dead[0]) *d = &dead[kind - MAGIC_CONTEXT];
	/* keep the dispatch pointer: the loader reads it */
	memset((char *)x + sizeof(x->head), 0, size - sizeof(x->head));
	x->head.magic = MAGIC_DEAD;
	x->head.refs = x->head.holds = 0;
	x->next = NULL;
	if (d->last)
		d->last->next = x;
	else
		d->first = x;
	d->last = x;
	d->num++;
	d->size = size;
	POISON((char *)x + sizeof(*x), size - sizeof(*x));
}

cl_int icd_check(const void *h, uint32_t kind, cl_int ok, cl_int invalid)
{
	icd_lock();
	bool v = icd_obj_valid(h, kind);
	icd_unlock();
	return v ? ok : invalid;
}
