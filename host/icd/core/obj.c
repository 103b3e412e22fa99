// SPDX-License-Identifier: MIT
/* Objects (docs/icd.md, "Objects"): handles and generic lifetimes. Every
 * context, queue, buffer, program, kernel and event comes from icd_obj_new
 * and is recognised by icd_obj_valid: a look-up of the pointer in a table
 * of the live objects, then its kind. A value that is no handle is never
 * dereferenced. When the application's last reference and the ICD's last
 * hold are gone, the object's destructor callbacks run, then its kind's
 * destroy, and its parents are dropped the same way.
 *
 * A released object's memory is never given back to malloc: the loader
 * calls through a handle's dispatch pointer before the ICD sees the handle
 * (a second clRelease* included), so a dead object keeps its dispatch
 * pointer and waits, first in first out, behind at least ICD_QUARANTINE
 * other dead objects of its kind before it becomes a new object of that
 * kind. Until then every use of the released handle is CL_INVALID_*.
 * Called with the lock held. */
#include "core.h"
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
	size_t num;
} dead[KINDS];

static bool magic_ok(uint32_t magic)
{
	return magic >= MAGIC_CONTEXT && magic <= MAGIC_EVENT;
}

void *icd_obj_new(const struct icd_kind *kind)
{
	size_t size = kind->size;
	if (!magic_ok(kind->magic) || size < sizeof(struct icd_dead))
		return NULL;
	__typeof__(dead[0]) *d = &dead[kind->magic - MAGIC_CONTEXT];
	struct icd_object *o;
	if (d->num > ICD_QUARANTINE) {
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
	o->dispatch = icd_dispatch_table;
	o->magic = kind->magic;
	o->ops = kind;
	o->refs = 1;
	if (!live_add(o)) {
		free(o);
		return NULL;
	}
	return o;
}

void icd_obj_parent(void *o, void *parent)
{
	struct icd_object *x = o;
	unsigned i = x->parents[0] ? 1 : 0;
	icd_hold(parent);
	x->parents[i] = parent;
}

bool icd_obj_valid(const void *h, uint32_t magic)
{
	size_t at;
	return h && live_find(h, &at) &&
	       ((const struct icd_object *)h)->magic == magic;
}

/* No longer a valid handle (its memory still in use by the ICD). */
static void obj_kill(struct icd_object *o)
{
	size_t at;
	if (live_find(o, &at))
		live_del(at);
}

/* Kill (if not yet) and give the memory to the quarantine of its kind. */
static void obj_free(struct icd_object *o)
{
	struct icd_dead *x = (struct icd_dead *)o;
	uint32_t magic = o->magic;
	size_t size = o->ops->size;
	obj_kill(o);
	if (!magic_ok(magic))
		return; /* not ours (cannot happen): leave it */
	__typeof__(dead[0]) *d = &dead[magic - MAGIC_CONTEXT];
	/* keep the dispatch pointer and the kind: the loader reads the one */
	memset((char *)x + sizeof(x->head), 0, size - sizeof(x->head));
	x->head.magic = MAGIC_DEAD;
	x->head.refs = x->head.holds = 0;
	x->head.parents[0] = x->head.parents[1] = NULL;
	x->head.destructors = NULL;
	x->next = NULL;
	if (d->last)
		d->last->next = x;
	else
		d->first = x;
	d->last = x;
	d->num++;
	POISON((char *)x + sizeof(*x), size - sizeof(*x));
}

static void destructors_run(struct icd_object *o)
{
	struct icd_destructor *d = o->destructors;
	o->destructors = NULL;
	for (struct icd_destructor *nx; d; d = nx) {
		nx = d->next;
		d->fn(o, d->data);
		free(d);
	}
}

/* The last reference and hold are gone: the application's callbacks, the
 * kind's own clean-up, the memory, then the parents (which may go too). */
static void obj_destroy(struct icd_object *o)
{
	destructors_run(o);
	if (o->ops->destroy)
		o->ops->destroy(o);
	struct icd_object *p0 = o->parents[0], *p1 = o->parents[1];
	obj_free(o);
	if (p0)
		icd_drop(p0);
	if (p1)
		icd_drop(p1);
}

void icd_obj_discard(void *o)
{
	struct icd_object *x = o;
	x->refs = x->holds = 0;
	x->destructors = NULL;
	struct icd_object *p0 = x->parents[0], *p1 = x->parents[1];
	obj_free(x);
	if (p0)
		icd_drop(p0);
	if (p1)
		icd_drop(p1);
}

void icd_retain(void *o)
{
	((struct icd_object *)o)->refs++;
}

void icd_release(void *o)
{
	struct icd_object *x = o;
	if (x->refs == 1 && x->ops->close) {
		/* still a valid handle while it closes (a queue finishes) */
		x->holds++;
		x->ops->close(x);
		x->refs = 0;
		obj_kill(x);
		icd_drop(x);
		return;
	}
	if (--x->refs)
		return;
	obj_kill(x);
	if (!x->holds)
		obj_destroy(x);
}

void icd_hold(void *o)
{
	((struct icd_object *)o)->holds++;
}

void icd_drop(void *o)
{
	struct icd_object *x = o;
	if (!--x->holds && !x->refs)
		obj_destroy(x);
}

cl_int icd_destructor_push(void *o, void(CL_CALLBACK *fn)(void *, void *),
			   void *data)
{
	struct icd_object *x = o;
	struct icd_destructor *d;
	if (!(d = calloc(1, sizeof(*d))))
		return CL_OUT_OF_HOST_MEMORY;
	d->fn = fn;
	d->data = data;
	d->next = x->destructors;
	x->destructors = d;
	return CL_SUCCESS;
}

cl_int icd_hold_add(struct icd_hold *h, void *o)
{
	struct icd_object **n = realloc(h->objs, (h->num + 1) * sizeof(*n));
	if (!n)
		return CL_OUT_OF_HOST_MEMORY;
	h->objs = n;
	icd_hold(o);
	h->objs[h->num++] = o;
	return CL_SUCCESS;
}

void icd_hold_drop(struct icd_hold *h)
{
	/* copy first: a drop may run callbacks that enqueue */
	struct icd_hold x = *h;
	memset(h, 0, sizeof(*h));
	for (unsigned i = 0; i < x.num; i++)
		icd_drop(x.objs[i]);
	free(x.objs);
}
