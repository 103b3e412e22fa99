// SPDX-License-Identifier: MIT
/*
 * What every workload shares (workloads.h): --arg values, device buffers
 * with host copies, launch sequences.
 */
#include "workloads.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *workload_arg_str(const workload_ctx *c, const char *name)
{
	size_t n = strlen(name);
	for (unsigned i = 0; i < c->num_args; i++)
		if (strncmp(c->args[i], name, n) == 0 && c->args[i][n] == '=')
			return c->args[i] + n + 1;
	return NULL;
}

uint64_t workload_arg(const workload_ctx *c, const char *name, uint64_t dflt)
{
	const char *v = workload_arg_str(c, name);
	return v ? strtoull(v, NULL, 0) : dflt;
}

int workload_buffer(workload_ctx *c, uint64_t size, hp_buffer *out)
{
	if (c->num_bufs == WORKLOAD_MAX_BUFS) {
		snprintf(c->msg, sizeof(c->msg), "at most %u buffers",
			 WORKLOAD_MAX_BUFS);
		return HP_OUT_OF_RESOURCES;
	}
	if (size == UINT64_MAX) {
		snprintf(c->msg, sizeof(c->msg),
			 "a buffer for %llu%s work-items would need 2^64 bytes "
			 "or more",
			 (unsigned long long)c->items,
			 c->items == UINT64_MAX ? " or more" : "");
		return HP_OUT_OF_RESOURCES;
	}
	uint64_t len = size;
	if (size < 64)
		size = 64;
	/* The device first: its refusal carries its numbers. */
	int rc = hp_buffer_alloc(c->d, size, out);
	if (rc) {
		const char *why = hp_last_error(), *name = hp_error_name(rc);
		size_t n = strlen(name);
		if (!strncmp(why, name, n) && !strncmp(why + n, ": ", 2))
			why += n + 2;
		snprintf(c->msg, sizeof(c->msg),
			 "cannot allocate %llu bytes on the device: %s",
			 (unsigned long long)size, why);
		return rc;
	}
	void *h = size <= SIZE_MAX ? calloc(1, (size_t)size) : NULL;
	if (!h) {
		hp_buffer_free(c->d, *out);
		snprintf(c->msg, sizeof(c->msg),
			 "cannot hold a copy of a %llu-byte buffer on the host "
			 "(out of host memory)",
			 (unsigned long long)size);
		return HP_OUT_OF_RESOURCES;
	}
	unsigned i = c->num_bufs++;
	c->bufs[i] = *out;
	c->buf_size[i] = size;
	c->buf_len[i] = len;
	c->host[i] = h;
	return (int)i;
}

void workload_cleanup(workload_ctx *c)
{
	for (unsigned i = 0; i < c->num_bufs; i++) {
		hp_buffer_free(c->d, c->bufs[i]);
		free(c->host[i]);
	}
	c->num_bufs = 0;
}

unsigned workload_sub_group_size(const workload_ctx *c)
{
	if (c->r.sub_group_size)
		return c->r.sub_group_size;
	if (c->k && c->k->sub_group_size)
		return c->k->sub_group_size;
	return hp_info(c->d)->default_sub_group_size;
}

int workload_upload(workload_ctx *c, unsigned i)
{
	int rc = hp_buffer_write(c->d, c->bufs[i], 0, c->host[i],
				 c->buf_size[i]);
	if (rc)
		snprintf(c->msg, sizeof(c->msg), "%s", hp_last_error());
	return rc;
}

int workload_upload2(workload_ctx *c)
{
	int rc = workload_upload(c, 0);
	return rc ? rc : workload_upload(c, 1);
}

int workload_host_oom(workload_ctx *c, uint64_t bytes)
{
	snprintf(c->msg, sizeof(c->msg),
		 "out of host memory (%llu bytes for the result)",
		 (unsigned long long)bytes);
	return HP_OUT_OF_RESOURCES;
}

int workload_download(workload_ctx *c, unsigned i, void *dst, uint64_t size)
{
	int rc = hp_buffer_read(c->d, c->bufs[i], 0, dst, size);
	if (rc)
		snprintf(c->msg, sizeof(c->msg), "%s", hp_last_error());
	return rc;
}

int workload_enqueue(workload_ctx *c, uint32_t kernel, const hp_ndrange *r,
		     const void *args, uint32_t args_size, hp_event *ev)
{
	hp_event prev =
		c->num_seq ? c->seq[(c->num_seq - 1) % WORKLOAD_MAX_SEQ] : 0;
	int rc = hp_enqueue_kernel(c->q, kernel, r, args, args_size,
				   c->num_seq ? &prev : NULL,
				   c->num_seq ? 1 : 0, ev);
	if (rc) {
		snprintf(c->msg, sizeof(c->msg), "%s", hp_last_error());
		return rc;
	}
	c->seq[c->num_seq++ % WORKLOAD_MAX_SEQ] = *ev;
	return 0;
}

void workload_sequence_info(workload_ctx *c, hp_event_info *last)
{
	unsigned long n = c->num_seq,
		      kept = n < WORKLOAD_MAX_SEQ ? n : WORKLOAD_MAX_SEQ;
	hp_event_info fi;
	/* Launches are chained: the first failure aborted all later ones. */
	if (last->status) {
		for (unsigned long k = n - kept; k < n; k++) {
			if (hp_event_query(c->d, c->seq[k % WORKLOAD_MAX_SEQ],
					   &fi))
				continue;
			if (!fi.status)
				continue;
			char d[sizeof(fi.detail) + 64];
			snprintf(d, sizeof(d), "launch %lu of %lu: %s", k + 1,
				 n, fi.detail);
			*last = fi;
			memcpy(last->detail, d, sizeof(last->detail) - 1);
			last->detail[sizeof(last->detail) - 1] = 0;
			return;
		}
		return;
	}
	if (n == 0 || n > WORKLOAD_MAX_SEQ ||
	    hp_event_query(c->d, c->seq[0], &fi))
		return;
	last->queued_us = fi.queued_us;
	last->submit_us = fi.submit_us;
	last->start_us = fi.start_us;
	last->groups = fi.groups;
	memcpy(last->local, fi.local, sizeof(fi.local));
}

/* ---- the table ---- */
