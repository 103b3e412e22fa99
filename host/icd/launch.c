// SPDX-License-Identifier: MIT
/* Launching kernels: clEnqueueNDRangeKernel (its size checks: ndrange.c),
 * clEnqueueTask; the launch's argument block and the buffers it holds. */
#include "icd.h"
#include <hartpool/ndrange_check.h>
#include <stdlib.h>
#include <string.h>

/* The buffers the arguments name, into @p hold, and each one's address on
 * @p d at its offset in @p out (@p off: argument i's; the buffer's copy
 * there is allocated now): each still the buffer it was when set (a
 * released handle, or one since reused for another buffer, is
 * CL_INVALID_KERNEL_ARGS). */
static cl_int args_hold(cl_kernel k, cl_device_id d, unsigned n,
			const uint32_t *off, uint8_t *out,
			struct icd_hold *hold)
{
	for (unsigned i = 0; i < n; i++) {
		const struct icd_arg_mem *am = &k->arg_mem[i];
		if (!am->mem)
			continue;
		FAIL_IF(!icd_valid_mem(am->mem) ||
				am->mem->serial != am->serial,
			CL_INVALID_KERNEL_ARGS,
			"argument %u's buffer %p was released (an SVM "
			"pointer's allocation: freed) since it was set",
			i, (void *)am->mem);
		hp_buffer a;
		cl_int rc = icd_mem_addr(am->mem, d, &a);
		if (!rc)
			rc = icd_hold_add(hold, am->mem);
		if (rc)
			return rc;
		uint64_t v = a + am->off;
		memcpy(out + off[i], &v, 8);
	}
	return CL_SUCCESS;
}

/* Built-in kernels: the raw arguments one after the other, each aligned
 * to its size (at most 8). */
static cl_int pack_raw(cl_kernel k, uint8_t *out, uint32_t *off)
{
	uint32_t o = 0;
	for (unsigned i = 0; i < k->raw_count; i++) {
		uint32_t s = k->raw_size[i], al = 1;
		FAIL_IF(!k->raw[i], CL_INVALID_KERNEL_ARGS,
			"argument %u is not set", i);
		while (al < s && al < 8)
			al <<= 1;
		o = (o + al - 1) & ~(al - 1);
		FAIL_IF(o + s > k->args_size, CL_INVALID_KERNEL_ARGS,
			"argument %u ends at %u, past the kernel's %u "
			"bytes of arguments",
			i, o + s, k->args_size);
		memcpy(out + o, k->raw[i], s);
		off[i] = o;
		o += s;
	}
	return CL_SUCCESS;
}

static cl_int kernel_pack(cl_kernel k, cl_device_id d, uint8_t *out,
			  uint32_t *size, uint32_t *local_bytes,
			  struct icd_hold *hold)
{
	uint32_t off[HP_CL_ARGS_MAX > ICD_RAW_ARGS ? HP_CL_ARGS_MAX
						   : ICD_RAW_ARGS];
	memset(out, 0, HP_MBOX_ARGS_MAX);
	*local_bytes = 0;
	*size = k->args_size;
	if (!k->meta) {
		cl_int rc = pack_raw(k, out, off);
		return rc ? rc : args_hold(k, d, k->raw_count, off, out, hold);
	}
	memcpy(out, k->args, k->args_size);
	uint32_t loc = 0;
	for (unsigned i = 0; i < k->meta->num_args; i++) {
		FAIL_IF(!(k->set[i / 64] & (1ull << (i % 64))),
			CL_INVALID_KERNEL_ARGS, "argument %u (%s) is not set",
			i, k->meta->args[i].name);
		off[i] = k->meta->args[i].offset;
		if (k->meta->args[i].addr_space != HP_CL_LOCAL)
			continue;
		loc = (loc + 127u) & ~127u; /* a long16 */
		uint64_t o = loc;
		memcpy(out + k->meta->args[i].offset, &o, 8);
		loc += k->local_size[i];
	}
	*local_bytes = loc;
	return args_hold(k, d, k->meta->num_args, off, out, hold);
}

static cl_int check_launch(cl_command_queue q, cl_kernel k, cl_uint nw,
			   const cl_event *w)
{
	FAIL_IF(!icd_valid_queue(q), CL_INVALID_COMMAND_QUEUE,
		"%p is not a live command queue", (void *)q);
	FAIL_IF(!icd_valid_kernel(k), CL_INVALID_KERNEL,
		"%p is not a live kernel", (void *)k);
	FAIL_IF(k->prog->ctx != q->ctx, CL_INVALID_CONTEXT,
		"the kernel's context %p is not the queue's %p",
		(void *)k->prog->ctx, (void *)q->ctx);
	FAIL_IF(!(k->ids & (1u << q->dev->index)),
		CL_INVALID_PROGRAM_EXECUTABLE,
		"the kernel's program is not built for the queue's device %u "
		"('%s')",
		q->dev->index, q->dev->spec);
	return icd_check_wait(q->ctx, nw, w);
}

static const char *code_name(cl_int rc)
{
	switch (rc) {
	case CL_INVALID_WORK_DIMENSION:
		return "CL_INVALID_WORK_DIMENSION";
	case CL_INVALID_GLOBAL_WORK_SIZE:
		return "CL_INVALID_GLOBAL_WORK_SIZE";
	case CL_INVALID_GLOBAL_OFFSET:
		return "CL_INVALID_GLOBAL_OFFSET";
	case CL_INVALID_WORK_ITEM_SIZE:
		return "CL_INVALID_WORK_ITEM_SIZE";
	default:
		return "CL_INVALID_WORK_GROUP_SIZE";
	}
}

/* The launch's NDRange, checked against the device and the kernel. */
static cl_int ndrange(cl_kernel k, cl_device_id d, cl_uint dim,
		      const size_t *offset, const size_t *global,
		      const size_t *local, hp_ndrange *r)
{
	const hp_device_info *di = &d->info;
	uint32_t wgs = 0;
	hp_kernel_work_group_size(d->hp, k->id[d->index], &wgs);
	struct icd_ndrange_limits lim = {
		.max_work_dim = di->max_work_dim,
		.address_bits = di->address_bits,
		.max_work_group_size = wgs,
		.uniform = icd_kernel_uniform(k),
	};
	for (int i = 0; i < 3; i++)
		lim.max_work_item_sizes[i] = di->max_work_item_sizes[i];
	icd_kernel_reqd(k, d, lim.reqd);
	char why[256];
	cl_int rc = icd_ndrange_check(&lim, dim, offset, global, local, r, why,
				      sizeof(why));
	if (rc)
		return icd_fail(rc, code_name(rc), "clEnqueueNDRangeKernel",
				"%s", why);
	return CL_SUCCESS;
}

/* The launch command: its argument block, the kernel and the buffers its
 * arguments name held. */
static cl_int launch_cmd(cl_kernel k, cl_device_id d, const hp_ndrange *r,
			 struct icd_cmd **out)
{
	struct icd_cmd *c = icd_cmd_new(CMD_NDRANGE);
	*out = NULL;
	if (!c)
		return CL_OUT_OF_HOST_MEMORY;
	struct icd_cmd_ndrange *x = &c->u.ndrange;
	uint32_t lbytes;
	cl_int rc =
		kernel_pack(k, d, x->args, &x->args_size, &lbytes, &c->hold);
	const hp_mbox_kernel *mk = hp_kernel_at(d->hp, k->id[d->index]);
	uint64_t kbytes = mk ? mk->local_mem_bytes : 0;
	if (!rc && lbytes + kbytes > d->info.local_mem_size)
		rc = icd_fail(CL_OUT_OF_RESOURCES, "CL_OUT_OF_RESOURCES",
			      "clEnqueueNDRangeKernel",
			      "__local arguments of %u bytes and the kernel's "
			      "%llu exceed the device's local memory %llu",
			      lbytes, (unsigned long long)kbytes,
			      (unsigned long long)d->info.local_mem_size);
	if (!rc)
		rc = icd_cmd_use(c, k);
	for (unsigned i = 0; !rc && i < k->num_exec_svm; i++) {
		const struct icd_arg_mem *am = &k->exec_svm[i];
		rc = icd_valid_mem(am->mem) && am->mem->serial == am->serial
			     ? icd_cmd_use(c, am->mem)
			     : icd_fail(CL_INVALID_KERNEL_ARGS,
					"CL_INVALID_KERNEL_ARGS",
					"clEnqueueNDRangeKernel",
					"CL_KERNEL_EXEC_INFO_SVM_PTRS[%u]'s "
					"allocation was freed",
					i);
	}
	if (rc) {
		icd_cmd_free(c);
		return rc;
	}
	x->range = *r;
	x->range.local_mem_bytes = lbytes;
	x->kernel = k;
	*out = c;
	return CL_SUCCESS;
}

ICD_EXPORT cl_int CL_API_CALL clEnqueueNDRangeKernel(
	cl_command_queue q, cl_kernel k, cl_uint dim, const size_t *offset,
	const size_t *global, const size_t *local, cl_uint nw,
	const cl_event *w, cl_event *ev)
{
	icd_lock();
	hp_ndrange r;
	struct icd_cmd *c = NULL;
	cl_int rc = check_launch(q, k, nw, w);
	if (!rc)
		rc = ndrange(k, q->dev, dim, offset, global, local, &r);
	if (!rc)
		rc = launch_cmd(k, q->dev, &r, &c);
	if (!rc)
		rc = icd_enqueue(q, c, nw, w, CL_COMMAND_NDRANGE_KERNEL, false,
				 ev);
	icd_fail_deliver(icd_ctx_of(q), rc);
	icd_unlock();
	return rc;
}

ICD_EXPORT cl_int CL_API_CALL clEnqueueTask(cl_command_queue q, cl_kernel k,
					    cl_uint nw, const cl_event *w,
					    cl_event *ev)
{
	size_t one = 1;
	return clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, nw, w, ev);
}

ICD_EXPORT cl_int CL_API_CALL clEnqueueNativeKernel(
	cl_command_queue q, void(CL_CALLBACK *fn)(void *), void *args,
	size_t cb, cl_uint nm, const cl_mem *ml, const void **loc, cl_uint nw,
	const cl_event *w, cl_event *ev)
{
	(void)fn, (void)args, (void)cb, (void)nm, (void)ml, (void)loc;
	(void)nw, (void)w, (void)ev;
	return icd_check(q, MAGIC_QUEUE, CL_INVALID_OPERATION,
			 CL_INVALID_COMMAND_QUEUE);
}

/* cl_khr_suggested_local_work_size: every argument must be set. */
static cl_int args_all_set(cl_kernel k)
{
	if (!k->meta) {
		for (unsigned i = 0; i < k->raw_count; i++)
			FAIL_IF(!k->raw[i], CL_INVALID_KERNEL_ARGS,
				"argument %u is not set", i);
		return CL_SUCCESS;
	}
	for (unsigned i = 0; i < k->meta->num_args; i++)
		FAIL_IF(!(k->set[i / 64] & (1ull << (i % 64))),
			CL_INVALID_KERNEL_ARGS, "argument %u (%s) is not set",
			i, k->meta->args[i].name);
	return CL_SUCCESS;
}

/* The local size the device would choose for this launch without one
 * (hp_nd_choose_local, the firmware's rule), or the kernel's required
 * one. */
static void suggest(cl_kernel k, cl_device_id d, const hp_ndrange *r,
		    size_t *out)
{
	const hp_device_info *di = &d->info;
	size_t reqd[3];
	icd_kernel_reqd(k, d, reqd);
	if (reqd[0] || reqd[1] || reqd[2]) {
		for (cl_uint i = 0; i < r->work_dim; i++)
			out[i] = reqd[i] ? reqd[i] : 1;
		return;
	}
	uint32_t wgs = 0, items[3];
	hp_kernel_work_group_size(d->hp, k->id[d->index], &wgs);
	const hp_mbox_kernel *mk = hp_kernel_at(d->hp, k->id[d->index]);
	unsigned s = k->meta && k->meta->sub_group_size
			     ? k->meta->sub_group_size
		     : mk && mk->sub_group_size ? mk->sub_group_size
						: di->default_sub_group_size;
	uint64_t g[3] = {1, 1, 1}, e[3];
	for (unsigned i = 0; i < 3; i++) {
		items[i] = di->max_work_item_sizes[i];
		if (i < r->work_dim)
			g[i] = r->global[i];
	}
	/* the firmware's workers: every hart but the dispatcher, hart 0,
	 * when there are two or more */
	unsigned workers = di->harts > 1 ? di->harts - 1 : 1;
	hp_nd_choose_local(items, r->uniform, wgs ? wgs : 1, s ? s : 1, workers,
			   g, e);
	for (cl_uint i = 0; i < r->work_dim; i++)
		out[i] = (size_t)e[i];
}

ICD_EXPORT cl_int CL_API_CALL clGetKernelSuggestedLocalWorkSizeKHR(
	cl_command_queue q, cl_kernel k, cl_uint dim, const size_t *offset,
	const size_t *global, size_t *local)
{
	icd_lock();
	hp_ndrange r;
	cl_int rc = check_launch(q, k, 0, NULL);
	if (!rc)
		rc = args_all_set(k);
	if (!rc && (!global || !local))
		rc = icd_fail(CL_INVALID_VALUE, "CL_INVALID_VALUE", __func__,
			      "global_work_size %p, suggested_local_work_size "
			      "%p",
			      (const void *)global, (void *)local);
	for (cl_uint i = 0; !rc && dim >= 1 && dim <= 3 && i < dim; i++)
		if (!global[i])
			rc = icd_fail(CL_INVALID_GLOBAL_WORK_SIZE,
				      "CL_INVALID_GLOBAL_WORK_SIZE", __func__,
				      "global size 0 in dimension %u", i);
	if (!rc)
		rc = ndrange(k, q->dev, dim, offset, global, NULL, &r);
	if (!rc)
		suggest(k, q->dev, &r, local);
	icd_fail_deliver(icd_ctx_of(q), rc);
	icd_unlock();
	return rc;
}
