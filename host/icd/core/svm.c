// SPDX-License-Identifier: MIT
/* A context's SVM allocations (docs/opencl.md, "Shared virtual memory"):
 * each is a buffer of the ICD's own (struct _cl_mem with svm set) whose
 * address is the pointer the application holds, looked up by address
 * whenever the application passes a pointer. */
#include "core.h"
#include <stdlib.h>
#include <string.h>

/* Index of the first allocation that starts after @p p. */
static unsigned upper(cl_context c, const char *p)
{
	unsigned lo = 0, hi = c->num_svm;
	while (lo < hi) {
		unsigned mid = (lo + hi) / 2;
		if (c->svm[mid]->svm_ptr <= p)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

cl_mem icd_svm_find(cl_context c, const void *p, size_t len)
{
	unsigned i = p ? upper(c, p) : 0;
	if (!i)
		return NULL;
	cl_mem m = c->svm[i - 1];
	size_t off = (size_t)((const char *)p - m->svm_ptr);
	if (off >= m->svm_size || len > m->svm_size - off)
		return NULL;
	return m;
}

cl_int icd_svm_add(cl_context c, cl_mem m)
{
	if (c->num_svm == c->cap_svm) {
		unsigned cap = c->cap_svm ? 2 * c->cap_svm : 16;
		cl_mem *n = realloc(c->svm, cap * sizeof(*n));
		if (!n)
			return CL_OUT_OF_HOST_MEMORY;
		c->svm = n;
		c->cap_svm = cap;
	}
	unsigned i = upper(c, m->svm_ptr);
	memmove(&c->svm[i + 1], &c->svm[i], (c->num_svm - i) * sizeof(*c->svm));
	c->svm[i] = m;
	c->num_svm++;
	return CL_SUCCESS;
}

bool icd_svm_release(cl_context c, void *p)
{
	unsigned i = p ? upper(c, p) : 0;
	if (!i || c->svm[i - 1]->svm_ptr != p)
		return false;
	cl_mem m = c->svm[i - 1];
	memmove(&c->svm[i - 1], &c->svm[i], (c->num_svm - i) * sizeof(*c->svm));
	c->num_svm--;
	icd_release(m); /* commands that hold it keep it until they end */
	return true;
}

void icd_svm_release_all(cl_context c)
{
	while (c->num_svm)
		icd_release(c->svm[--c->num_svm]);
	free(c->svm);
	c->svm = NULL;
	c->cap_svm = 0;
}

cl_int icd_svm_free_run(struct icd_cmd *c)
{
	struct icd_cmd_svm_free *f = &c->u.svm_free;
	cl_command_queue q = c->ev->queue;
	if (f->fn) {
		f->fn(q, f->n, f->ptrs, f->data);
		return CL_SUCCESS;
	}
	for (cl_uint i = 0; i < f->n; i++)
		icd_svm_release(q->ctx, f->ptrs[i]);
	return CL_SUCCESS;
}

size_t icd_svm_offset(cl_mem m, const void *p)
{
	return (size_t)((const char *)p - m->svm_ptr) + m->svm_at;
}
