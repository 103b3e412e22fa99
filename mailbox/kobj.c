// SPDX-License-Identifier: MIT
/*
 * The kernel table and kernel objects (kobj.h). Rows [0, num_builtin) hold
 * the built-in kernels; a LOAD takes free rows after them for its kernels
 * and an UNLOAD frees them again, so the table has holes (a free row has
 * name[0] == 0). Row and object ids carry the object's generation, so a
 * reused row or slot is never taken for an older one.
 */
#include "kobj.h"
#include "heap.h"
#include "loader.h"
#include <executor/exec.h>
#include <hal/atomic.h>
#include <hal/heap.h>
#include <hartpool/error.h>
#include <stdio.h>
#include <string.h>

/* An object's code memory stays taken while commands of its kernels that
 * were accepted are not complete (refs), even after UNLOAD took its
 * kernels out of the table. */
enum { OBJ_FREE, OBJ_LOADED, OBJ_UNLOADING };

struct mbox_obj {
	unsigned state;
	unsigned refs; /* accepted commands not complete (atomic) */
	uint16_t gen;
	uint8_t sess; /* the session that loaded it */
	uintptr_t base;
	size_t size;
	uint64_t data; /* its writable data's block (a session buffer), 0 */
	unsigned num_kernels;
	uint8_t rows[HPK_KERNELS_MAX];
	hpk_kernel *k; /* HPK_KERNELS_MAX, firmware-private */
};

static struct {
	hp_mbox_kernel *ktab; /* the shared kernel table */
	uint32_t *ktab_rows;  /* the header's num_kernels */
	uint64_t code_base, code_size;
	const hp_kernel *kernels[HP_MBOX_KERNELS_MAX]; /* NULL: free row */
	mbox_obj *kobj[HP_MBOX_KERNELS_MAX]; /* the row's object, or NULL */
	unsigned num_kernels;		     /* rows up to the last used one */
	unsigned num_builtin;
	mbox_obj obj[HP_MBOX_OBJECTS_MAX];
	uint16_t obj_gen;
} K;

/* Publish kernel k in row `row` (flags: HP_KFLAG_LOADED etc.). */
static void row_set(unsigned row, const hp_kernel *k, mbox_obj *o,
		    uint32_t flags)
{
	hp_mbox_kernel *r = &K.ktab[row];
	memset(r, 0, sizeof(*r));
	strncpy(r->name, k->name, sizeof(r->name) - 1);
	for (unsigned d = 0; d < 3; d++)
		r->reqd_work_group_size[d] = k->reqd_work_group_size[d];
	r->max_work_group_size = k->max_work_group_size;
	unsigned s = k->sub_group_size ? k->sub_group_size
				       : exec_dev.default_sub_group_size;
	r->work_group_size = exec_kernel_max_group(&exec_dev, k, s, 1, NULL);
	r->sub_group_size = (uint16_t)k->sub_group_size;
	r->local_mem_bytes = k->local_mem_bytes;
	r->args_size = (uint16_t)k->args_size;
	r->flags = flags | (k->uses_barriers ? HP_KFLAG_BARRIERS : 0) |
		   (exec_kernel_needs(k) ? HP_KFLAG_FPU : 0);
	K.kernels[row] = k;
	K.kobj[row] = o;
}

/* Rows up to the last used one, published (after the rows: release). */
static void rows_publish(void)
{
	unsigned n = HP_MBOX_KERNELS_MAX;
	while (n && !K.kernels[n - 1])
		n--;
	K.num_kernels = n;
	hal_store_release(K.ktab_rows, (uint32_t)n);
}

void mbox_kobj_init(hp_mbox_kernel *table, uint32_t *num_kernels,
		    const hp_kernel *const *builtin, uint64_t code_base,
		    uint64_t code_size)
{
	K.ktab = table;
	K.ktab_rows = num_kernels;
	K.code_base = code_base;
	K.code_size = code_size;
	memset(K.kernels, 0, sizeof(K.kernels));
	memset(K.kobj, 0, sizeof(K.kobj));
	for (unsigned i = 0; i < HP_MBOX_OBJECTS_MAX; i++) {
		K.obj[i].state = OBJ_FREE;
		K.obj[i].refs = 0;
	}
	K.num_builtin = 0;
	for (unsigned i = 0; builtin[i] && i < HP_MBOX_KERNELS_MAX; i++)
		row_set(K.num_builtin++, builtin[i], NULL, 0);
	rows_publish();
}

const hp_kernel *mbox_kobj_builtin(const char *name)
{
	for (unsigned i = 0; i < K.num_builtin; i++)
		if (strcmp(K.kernels[i]->name, name) == 0)
			return K.kernels[i];
	return NULL;
}

int mbox_kobj_lookup(unsigned sess, uint32_t id, const hp_kernel **k,
		     mbox_obj **o, const char **why)
{
	unsigned row = HP_KERNEL_ROW(id);
	if (row >= K.num_kernels || !K.kernels[row]) {
		*why = "no such kernel (or its object was unloaded)";
		return HP_INVALID_KERNEL;
	}
	if (HP_KERNEL_GEN(id) != (K.kobj[row] ? K.kobj[row]->gen : 0u)) {
		*why = "kernel of an unloaded object";
		return HP_INVALID_KERNEL;
	}
	if (K.kobj[row] && K.kobj[row]->sess != sess) {
		*why = "kernel of an object another session loaded";
		return HP_INVALID_KERNEL;
	}
	*k = K.kernels[row];
	*o = K.kobj[row];
	return 0;
}

void mbox_kobj_get(mbox_obj *o)
{
	hal_fetch_add(&o->refs, 1u);
}

void mbox_kobj_put(mbox_obj *o)
{
	hal_fetch_add(&o->refs, ~0u); /* its code may go now */
}

/* Gap of `size` bytes in the code memory, aligned, outside every object
 * whose memory is taken; 0 if none. */
static uintptr_t code_alloc(size_t size)
{
	uintptr_t at = (uintptr_t)K.code_base;
	uintptr_t end = at + (uintptr_t)K.code_size;
	for (;;) {
		at = (at + HPK_IMAGE_ALIGN - 1) &
		     ~(uintptr_t)(HPK_IMAGE_ALIGN - 1);
		if (at > end || size > end - at)
			return 0;
		bool moved = false;
		for (unsigned i = 0; i < HP_MBOX_OBJECTS_MAX; i++) {
			const mbox_obj *o = &K.obj[i];
			if (o->state == OBJ_FREE)
				continue;
			if (at < o->base + o->size && o->base < at + size) {
				at = o->base + o->size;
				moved = true;
			}
		}
		if (!moved)
			return at;
	}
}

/* An unloaded object whose last command completed is free again. */
static void obj_reap(void)
{
	for (unsigned i = 0; i < HP_MBOX_OBJECTS_MAX; i++) {
		mbox_obj *o = &K.obj[i];
		if (o->state == OBJ_UNLOADING && !hal_load_acquire(&o->refs)) {
			if (o->data)
				mbox_heap_free(o->data);
			o->data = 0;
			o->state = OBJ_FREE;
		}
	}
}

static hpk_target load_target(void)
{
	hpk_target t = {
		.xlen = 8 * sizeof(void *),
#if defined(__riscv) && defined(__riscv_float_abi_soft)
		.float_abi = HPK_FLOAT_SOFT,
#elif defined(__riscv) && defined(__riscv_float_abi_single)
		.float_abi = HPK_FLOAT_SINGLE,
#else
		.float_abi = HPK_FLOAT_DOUBLE,
#endif
		.api_count = exec_api.count,
		.max_work_group_size = exec_dev.max_work_group_size,
		.local_mem_size = exec_dev.local_mem_size,
		.sub_group_sizes = exec_dev.sub_group_sizes,
	};
	return t;
}

static int fail(char *why, size_t n, const char *text, int err)
{
	snprintf(why, n, "%s", text);
	return err;
}

int mbox_kobj_load(unsigned sess, uint64_t src, uint64_t size, uint64_t *handle,
		   uint64_t *addr, mbox_kobj_admit_fn admit,
		   mbox_kobj_alloc_fn alloc, char *why, size_t n)
{
	if (!size || !mbox_heap_holds(sess, src, size))
		return fail(why, n,
			    "object outside the session's allocated buffers",
			    HP_INVALID_VALUE);
	hpk_target t = load_target();
	hpk_header h;
	const void *file = (const void *)(uintptr_t)src;
	int err = hpk_check(file, (size_t)size, &t, &h, why, n);
	if (err)
		return err;
	obj_reap();
	mbox_obj *o = NULL;
	for (unsigned i = 0; i < HP_MBOX_OBJECTS_MAX && !o; i++)
		if (K.obj[i].state == OBJ_FREE)
			o = &K.obj[i];
	if (!o) {
		snprintf(why, n, "kernel objects: all %u loaded already",
			 HP_MBOX_OBJECTS_MAX);
		return HP_OUT_OF_RESOURCES;
	}
	unsigned nk = hpk_kernel_count(&h), free_rows = 0;
	if (admit && (err = admit(sess, nk, why, n)))
		return err;
	for (unsigned r = K.num_builtin; r < HP_MBOX_KERNELS_MAX; r++)
		free_rows += K.kernels[r] == NULL;
	if (nk > free_rows) {
		snprintf(why, n, "kernel table: %u kernels, %u of %u rows free",
			 nk, free_rows, HP_MBOX_KERNELS_MAX);
		return HP_OUT_OF_RESOURCES;
	}
	if (!o->k)
		o->k = hal_heap_alloc_private(
			HPK_KERNELS_MAX * sizeof(hpk_kernel), 8);
	uintptr_t base = code_alloc(h.image_size);
	if (!o->k)
		return fail(why, n,
			    "firmware memory for kernel descriptors exhausted",
			    HP_OUT_OF_RESOURCES);
	if (!base) {
		snprintf(why, n,
			 "code memory: %llu bytes asked, no gap that large in "
			 "%llu",
			 (unsigned long long)h.image_size,
			 (unsigned long long)K.code_size);
		return HP_OUT_OF_RESOURCES;
	}
	void *image = (void *)base;
	uint64_t data = h.data_size ? alloc(sess, h.data_size, why, n) : 0;
	if (h.data_size && !data)
		return HP_OUT_OF_RESOURCES;
	err = hpk_place(&h, file, image, &exec_api, (void *)(uintptr_t)data,
			why, n);
	/* FP instructions anywhere in the code: every kernel of the object
	 * runs only on harts with an FPU (docs/design.md, 34). */
	bool fpu = !err && hpk_code_uses_fpu(&h, image, t.xlen);
	for (unsigned i = 0; i < nk && !err; i++) {
		err = hpk_kernel_read(&h, image, i, &t, &o->k[i], why, n);
		o->k[i].k.uses_fpu |= fpu;
		for (unsigned j = 0; j < i && !err; j++)
			if (!strcmp(o->k[j].name, o->k[i].name)) {
				snprintf(why, n, "two kernels named %s",
					 o->k[i].name);
				err = HP_INVALID_BINARY;
			}
	}
	if (err) {
		if (data)
			mbox_heap_free(data);
		return err;
	}

	/* Commit. */
	if (!++K.obj_gen)
		K.obj_gen = 1;
	o->gen = K.obj_gen;
	o->sess = (uint8_t)sess;
	o->base = base;
	o->size = h.image_size;
	o->data = data;
	o->refs = 0;
	o->num_kernels = nk;
	o->state = OBJ_LOADED;
	unsigned slot = (unsigned)(o - K.obj), row = K.num_builtin;
	for (unsigned i = 0; i < nk; i++, row++) {
		while (K.kernels[row])
			row++;
		o->rows[i] = (uint8_t)row;
		row_set(row, &o->k[i].k, o, HP_KFLAG_OBJECT(slot, o->gen));
	}
	rows_publish();
	exec_code_changed();
	*handle = HP_OBJECT_HANDLE(slot, o->gen);
	*addr = base;
	return 0;
}

/* Its kernels leave the table; its memory once no command needs it. */
static void obj_unload(mbox_obj *o)
{
	for (unsigned i = 0; i < o->num_kernels; i++) {
		unsigned row = o->rows[i];
		memset(&K.ktab[row], 0, sizeof(K.ktab[row]));
		K.kernels[row] = NULL;
		K.kobj[row] = NULL;
	}
	rows_publish();
	o->state = OBJ_UNLOADING;
	obj_reap();
}

int mbox_kobj_unload(unsigned sess, uint64_t handle, const char **why)
{
	uint64_t slot = HP_OBJECT_SLOT(handle), gen = HP_OBJECT_GEN(handle);
	mbox_obj *o = slot < HP_MBOX_OBJECTS_MAX ? &K.obj[slot] : NULL;
	if (!o || o->state != OBJ_LOADED || gen != o->gen || o->sess != sess) {
		*why = "no kernel object of this session loaded with this "
		       "handle";
		return HP_INVALID_PROGRAM;
	}
	obj_unload(o);
	return 0;
}

unsigned mbox_kobj_unload_session(unsigned sess)
{
	unsigned n = 0;
	for (unsigned i = 0; i < HP_MBOX_OBJECTS_MAX; i++) {
		mbox_obj *o = &K.obj[i];
		if (o->state == OBJ_FREE || o->sess != sess)
			continue;
		/* the session's end frees every buffer of the session, the
		 * data blocks too: not again when the object goes (the
		 * address may be someone else's by then) */
		o->data = 0;
		if (o->state == OBJ_LOADED) {
			obj_unload(o);
			n++;
		}
	}
	return n;
}

void mbox_kobj_session_stats(unsigned sess, uint32_t *objects,
			     uint32_t *kernels)
{
	uint32_t no = 0, nk = 0;
	for (unsigned i = 0; i < HP_MBOX_OBJECTS_MAX; i++)
		if (K.obj[i].state == OBJ_LOADED && K.obj[i].sess == sess) {
			no++;
			nk += K.obj[i].num_kernels;
		}
	*objects = no;
	*kernels = nk;
}

void mbox_kobj_stats(uint32_t *objects, uint32_t *rows, uint32_t *code_used)
{
	uint32_t no = 0, nr = 0, code = 0;
	for (unsigned i = 0; i < HP_MBOX_OBJECTS_MAX; i++)
		if (K.obj[i].state != OBJ_FREE) {
			no += K.obj[i].state == OBJ_LOADED;
			code += (uint32_t)K.obj[i].size;
		}
	for (unsigned r = 0; r < HP_MBOX_KERNELS_MAX; r++)
		nr += K.kernels[r] != NULL;
	*objects = no;
	*rows = nr;
	*code_used = code;
}
