// SPDX-License-Identifier: MIT
/* SPIR-V programs (cl_khr_il_program, core since 2.1): a module checked
 * and kept (clCreateProgramWithIL, CL_PROGRAM_IL), its specialization
 * constants set (clSetProgramSpecializationConstant) and applied to a copy
 * for each build (icd_prog_il), which then goes through hp_cl_build like a
 * source (host/clc: the translator, then the same stages). */
#include "icd.h"
#include <stdlib.h>
#include <string.h>

static cl_int check_il(cl_context c, const void *il, size_t len)
{
	FAIL_IF(!icd_valid_ctx(c), CL_INVALID_CONTEXT,
		"%p is not a live context", (void *)c);
	FAIL_IF(!il || !len, CL_INVALID_VALUE, "IL at %p of %zu bytes", il,
		len);
	hp_spirv_info info;
	char why[256];
	FAIL_IF(hp_spirv_read(il, len, NULL, &info, why, sizeof(why)),
		CL_INVALID_VALUE, "%s", why);
	return CL_SUCCESS;
}

ICD_EXPORT cl_program CL_API_CALL clCreateProgramWithIL(cl_context c,
							const void *il,
							size_t len,
							cl_int *errp)
{
	cl_program p = NULL;
	icd_lock();
	cl_int err = check_il(c, il, len);
	if (!err) {
		p = icd_prog_new(c, PROG_SOURCE);
		if (p && (p->il = malloc(len)) && (p->source = strdup(""))) {
			memcpy(p->il, il, len);
			p->il_size = len;
		} else if (p) {
			icd_prog_free(p);
			p = NULL;
		}
		err = p ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
	}
	icd_fail_deliver(icd_ctx_of(c), err);
	icd_unlock();
	if (errp)
		*errp = err;
	return p;
}

ICD_EXPORT cl_program CL_API_CALL clCreateProgramWithILKHR(cl_context c,
							   const void *il,
							   size_t len,
							   cl_int *errp)
{
	return clCreateProgramWithIL(c, il, len, errp);
}

static cl_int set_spec(cl_program p, cl_uint id, size_t size, const void *value)
{
	FAIL_IF(!icd_valid_program(p), CL_INVALID_PROGRAM,
		"%p is not a live program", (void *)p);
	FAIL_IF(!p->il, CL_INVALID_PROGRAM,
		"the program was not created from IL");
	size_t want = 0;
	FAIL_IF(hp_spirv_spec_size(p->il, p->il_size, id, &want),
		CL_INVALID_SPEC_ID,
		"the module has no specialization constant %u", id);
	FAIL_IF(size != want, CL_INVALID_VALUE,
		"specialization constant %u has %zu bytes, not %zu", id, want,
		size);
	FAIL_IF(!value, CL_INVALID_VALUE,
		"no value for specialization constant %u", id);
	unsigned i = 0;
	while (i < p->nspec && p->spec[i].id != id)
		i++;
	if (i == p->nspec) {
		struct icd_spec *s =
			realloc(p->spec, (p->nspec + 1) * sizeof(*s));
		if (!s)
			return CL_OUT_OF_HOST_MEMORY;
		p->spec = s;
		p->nspec++;
	}
	p->spec[i].id = id;
	p->spec[i].size = (uint32_t)size;
	memcpy(p->spec[i].value, value, size);
	return CL_SUCCESS;
}

ICD_EXPORT cl_int CL_API_CALL clSetProgramSpecializationConstant(
	cl_program p, cl_uint id, size_t size, const void *value)
{
	icd_lock();
	cl_int rc = set_spec(p, id, size, value);
	icd_fail_deliver(icd_ctx_of(p), rc);
	icd_unlock();
	return rc;
}

void *icd_prog_il(cl_program p)
{
	uint8_t *m = malloc(p->il_size);
	if (!m)
		return NULL;
	memcpy(m, p->il, p->il_size);
	for (unsigned i = 0; i < p->nspec; i++)
		hp_spirv_specialize(m, p->il_size, p->spec[i].id,
				    p->spec[i].value, p->spec[i].size);
	return m;
}
