// SPDX-License-Identifier: MIT
/*
 * `hartpool info` and `hartpool kernels` (info.h): what a device is, from
 * its INFO record and its kernel table, as `key: value` lines or JSON.
 */
#include "info.h"
#include "workloads.h"
#include <stdint.h>
#include <string.h>

static void list_sizes(char *buf, size_t n, uint32_t mask)
{
	buf[0] = 0;
	for (unsigned k = 0; k < 32; k++)
		if (mask & (1u << k)) {
			size_t at = strlen(buf);
			snprintf(buf + at, n - at, "%s%u", at ? "," : "",
				 1u << k);
		}
}

/* "kernels": one object per kernel row in use. */
static void json_kernels(hp_device *d)
{
	printf("\"kernels\": [");
	for (unsigned k = 0, n = 0; k < hp_kernel_count(d); k++) {
		const hp_mbox_kernel *m = hp_kernel_at(d, k);
		if (!m)
			continue;
		printf("%s{\"name\": ", n++ ? ", " : "");
		cli_json_str(m->name, sizeof(m->name));
		printf(", \"work_group_size\": %u, \"max_work_group_size\": "
		       "%u, "
		       "\"reqd_work_group_size\": [%u, %u, %u], "
		       "\"sub_group_size\": %u, \"local_mem_bytes\": %u, "
		       "\"args_size\": %u, \"barriers\": %s, \"fpu\": %s, "
		       "\"loaded\": %s}",
		       m->work_group_size, m->max_work_group_size,
		       m->reqd_work_group_size[0], m->reqd_work_group_size[1],
		       m->reqd_work_group_size[2], (unsigned)m->sub_group_size,
		       m->local_mem_bytes, (unsigned)m->args_size,
		       m->flags & HP_KFLAG_BARRIERS ? "true" : "false",
		       m->flags & HP_KFLAG_FPU ? "true" : "false",
		       m->flags & HP_KFLAG_LOADED ? "true" : "false");
	}
	putchar(']');
}

static const char *const quota_names[HP_QUOTAS] = {
	"heap", "buffers", "objects", "rows", "queues", "commands",
};

/* A session's floor of resource r while @p open sessions are open
 * (mailbox/quota.c's rule). */
static uint64_t quota_floor(const hp_device_usage *u, unsigned r, unsigned open)
{
	uint64_t f = u->quota_cap[r] / ((uint64_t)open + 1);
	f = u->quota_min[r] < f ? u->quota_min[r] : f;
	return f < u->quota_max[r] ? f : u->quota_max[r];
}

/* "heap 1024 of 1073741824 bytes, buffers 3 of 32768, ...": a session's
 * use against its quota (a private device: against the capacity). */
static void print_quota_use(const hp_device_usage *u, const hp_session_info *s)
{
	printf("%s: ", u->shared ? "quota" : "of all");
	for (unsigned r = 0; r < HP_QUOTAS; r++)
		printf("%s%s %llu of %llu%s", r ? ", " : "", quota_names[r],
		       (unsigned long long)s->quota_use[r],
		       (unsigned long long)u->quota_max[r],
		       r == HP_QUOTA_HEAP ? " bytes" : "");
}

/* "quotas: ..." : what each session may take and is sure of. */
static void print_quotas(const hp_device_usage *u)
{
	if (!u->shared) {
		printf("quotas: none (a device for one process)\n");
		return;
	}
	printf("quotas: per session, most (floor) of all:");
	for (unsigned r = 0; r < HP_QUOTAS; r++)
		printf("%s %s %llu (%llu) of %llu", r ? "," : "",
		       quota_names[r], (unsigned long long)u->quota_max[r],
		       (unsigned long long)quota_floor(u, r, u->sessions),
		       (unsigned long long)u->quota_cap[r]);
	printf("\n");
}

/* What the device holds: its sessions and how full its heap and tables
 * are, as `key: value` lines. */
static void print_usage(const hp_device_usage *u, const hp_session_info *s,
			unsigned ns)
{
	printf("sessions: %u of %u (%u ended since boot)\n", u->sessions,
	       u->sessions_max, u->sessions_ended);
	print_quotas(u);
	for (unsigned k = 0; k < ns; k++) {
		printf("session %u: pid %d%s%s%s%s, %s, %u queues, %llu "
		       "buffers (%llu bytes), %u objects (%u kernels), %llu "
		       "commands in flight; ",
		       s[k].slot, s[k].pid, s[k].name[0] ? " " : "", s[k].name,
		       s[k].serial ? " (serial)" : "",
		       s[k].self ? " (this one)" : "",
		       s[k].state == HP_SESSION_OPEN ? "open" : "ending",
		       s[k].queues, (unsigned long long)s[k].buffers,
		       (unsigned long long)s[k].bytes, s[k].objects,
		       s[k].kernels, (unsigned long long)s[k].commands);
		if (s[k].host_bell)
			printf("host bell: %u rings; ", s[k].bells);
		print_quota_use(u, &s[k]);
		putchar('\n');
	}
	printf("heap_used: %llu\n", (unsigned long long)u->heap_used);
	printf("heap_free: %llu\n", (unsigned long long)u->heap_free);
	printf("heap_largest_free: %llu\n",
	       (unsigned long long)u->heap_largest);
	printf("buffers: %u of %u\n", u->buffers, u->buffers_max);
	printf("kernel_objects: %u of %u\n", u->objects, u->objects_max);
	printf("kernel_rows: %u of %u\n", u->kernel_rows, u->kernel_rows_max);
	printf("code_used: %u of %llu\n", u->code_used,
	       (unsigned long long)u->code_size);
}

static void json_usage(const hp_device_usage *u, const hp_session_info *s,
		       unsigned ns)
{
	printf(", \"usage\": {\"sessions\": %u, \"sessions_max\": %u, "
	       "\"sessions_ended\": %u, \"heap_size\": %llu, "
	       "\"heap_used\": %llu, \"heap_free\": %llu, "
	       "\"heap_largest_free\": %llu, \"buffers\": %u, "
	       "\"buffers_max\": %u, \"kernel_objects\": %u, "
	       "\"kernel_objects_max\": %u, \"kernel_rows\": %u, "
	       "\"kernel_rows_max\": %u, \"code_used\": %u, "
	       "\"code_size\": %llu}",
	       u->sessions, u->sessions_max, u->sessions_ended,
	       (unsigned long long)u->heap_size,
	       (unsigned long long)u->heap_used,
	       (unsigned long long)u->heap_free,
	       (unsigned long long)u->heap_largest, u->buffers, u->buffers_max,
	       u->objects, u->objects_max, u->kernel_rows, u->kernel_rows_max,
	       u->code_used, (unsigned long long)u->code_size);
	printf(", \"quotas\": {\"shared\": %s", u->shared ? "true" : "false");
	for (unsigned r = 0; r < HP_QUOTAS; r++)
		printf(", \"%s\": {\"max\": %llu, \"min\": %llu, \"floor\": "
		       "%llu, \"capacity\": %llu}",
		       quota_names[r], (unsigned long long)u->quota_max[r],
		       (unsigned long long)u->quota_min[r],
		       (unsigned long long)quota_floor(u, r, u->sessions),
		       (unsigned long long)u->quota_cap[r]);
	printf("}, \"sessions\": [");
	for (unsigned k = 0; k < ns; k++) {
		printf("%s{\"slot\": %u, \"pid\": %d, \"name\": ",
		       k ? ", " : "", s[k].slot, s[k].pid);
		cli_json_str(s[k].name, sizeof(s[k].name));
		printf(", \"state\": \"%s\", \"serial\": %s, \"self\": %s, "
		       "\"queues\": %u, \"buffers\": %llu, \"bytes\": %llu, "
		       "\"objects\": %u, \"kernels\": %u, \"commands\": "
		       "%llu",
		       s[k].state == HP_SESSION_OPEN ? "open" : "ending",
		       s[k].serial ? "true" : "false",
		       s[k].self ? "true" : "false", s[k].queues,
		       (unsigned long long)s[k].buffers,
		       (unsigned long long)s[k].bytes, s[k].objects,
		       s[k].kernels, (unsigned long long)s[k].commands);
		printf(", \"host_bell\": %s, \"bells\": %u",
		       s[k].host_bell ? "true" : "false", s[k].bells);
		printf(", \"quota_use\": {");
		for (unsigned r = 0; r < HP_QUOTAS; r++)
			printf("%s\"%s\": %llu", r ? ", " : "", quota_names[r],
			       (unsigned long long)s[k].quota_use[r]);
		printf("}}");
	}
	putchar(']');
}

/* The device as one JSON object (no newline after it). */
static void info_json(hp_device *d, const hp_device_info *i, const char *sgs,
		      const char *items, const hp_device_usage *u,
		      const hp_session_info *sess, unsigned ns)
{
	printf("{\"harts\": %u, \"max_work_group_size\": %u, "
	       "\"max_work_item_sizes\": [%s], \"max_work_dim\": %u, "
	       "\"sub_group_sizes\": [%s], "
	       "\"default_sub_group_size\": %u, "
	       "\"local_mem_size\": %u, \"global_mem_size\": %llu, "
	       "\"max_mem_alloc_size\": %llu, \"dram_size\": %llu, "
	       "\"address_bits\": %u, \"max_args_size\": %u, "
	       "\"timer_hz\": %llu, \"privilege\": ",
	       i->harts, i->max_work_group_size, items, i->max_work_dim, sgs,
	       i->default_sub_group_size, i->local_mem_size,
	       (unsigned long long)i->global_mem_size,
	       (unsigned long long)i->max_mem_alloc_size,
	       (unsigned long long)i->dram_size, i->address_bits,
	       i->max_args_size, (unsigned long long)i->timer_hz);
	cli_json_str(i->privilege, sizeof(i->privilege));
	printf(", \"doorbell_device\": %s, \"barrier_unit\": %s, "
	       "\"host_bell\": %s",
	       i->features & HP_DEV_HAS_DOORBELL ? "true" : "false",
	       i->features & HP_DEV_HAS_BARRIER_UNIT ? "true" : "false",
	       i->features & HP_DEV_HAS_HOST_BELL ? "true" : "false");
	printf(", \"slice_us\": %u", i->slice_us);
	printf(", \"vector_bits\": %u", i->vector_bits);
	printf(", \"harts_skipped\": %u, \"skipped\": ", i->harts_skipped);
	cli_json_str(i->skipped, sizeof(i->skipped));
	printf(", \"board\": ");
	cli_json_str(i->board, sizeof(i->board));
	printf(", \"firmware\": ");
	cli_json_str(i->firmware, sizeof(i->firmware));
	printf(", \"connect\": ");
	cli_json_str(hp_connect_string(d), SIZE_MAX);
	json_usage(u, sess, ns);
	printf(", ");
	json_kernels(d);
	printf("}");
}

/* What `info` prints of one device: JSON (one object, no newline) or
 * `key: value` lines. 0, or 1 after cli_die(). */
static int info_one(hp_device *d, const cli_opts *o)
{
	/* The description the device published at boot and the figures it
	 * publishes when asked (the header's usage_request): nothing of the
	 * heap, so info answers however full the device is. */
	hp_device_info i = *hp_info(d);
	int rc;
	hp_device_usage u;
	hp_session_info sess[HP_MBOX_SESSIONS];
	unsigned ns = 0;
	if ((rc = hp_device_usage_get(d, &u)) ||
	    (rc = hp_sessions(d, sess, HP_MBOX_SESSIONS, &ns)))
		return rc;
	if (ns > HP_MBOX_SESSIONS)
		ns = HP_MBOX_SESSIONS;
	char sgs[64];
	list_sizes(sgs, sizeof(sgs), i.sub_group_sizes);
	char items[64];
	snprintf(items, sizeof(items), "%u,%u,%u", i.max_work_item_sizes[0],
		 i.max_work_item_sizes[1], i.max_work_item_sizes[2]);
	if (o->json) {
		info_json(d, &i, sgs, items, &u, sess, ns);
		return 0;
	}
	printf("harts: %u\n", i.harts);
	printf("max_work_group_size: %u\n", i.max_work_group_size);
	printf("max_work_item_sizes: %s\n", items);
	printf("max_work_dim: %u\n", i.max_work_dim);
	printf("sub_group_sizes: %s\n", sgs);
	printf("default_sub_group_size: %u\n", i.default_sub_group_size);
	printf("local_mem_size: %u\n", i.local_mem_size);
	printf("global_mem_size: %llu\n",
	       (unsigned long long)i.global_mem_size);
	printf("max_mem_alloc_size: %llu\n",
	       (unsigned long long)i.max_mem_alloc_size);
	printf("dram_size: %llu\n", (unsigned long long)i.dram_size);
	printf("address_bits: %u\n", i.address_bits);
	printf("max_args_size: %u\n", i.max_args_size);
	printf("non_uniform_work_groups: yes\n");
	printf("timer_hz: %llu\n", (unsigned long long)i.timer_hz);
	printf("board: %s\n", i.board);
	printf("privilege: %s\n", i.privilege);
	if (i.skipped[0])
		printf("harts_skipped: %u (%.*s)\n", i.harts_skipped,
		       (int)sizeof(i.skipped), i.skipped);
	else
		printf("harts_skipped: %u\n", i.harts_skipped);
	if (i.slice_us)
		printf("time_slice: %u us between sessions\n", i.slice_us);
	else
		printf("time_slice: none (kernels are not preempted)\n");
	if (i.vector_bits)
		printf("vector: RVV, VLEN %u bits (%u 32-bit lanes a "
		       "register)\n",
		       i.vector_bits, i.vector_bits / 32);
	else
		printf("vector: none\n");
	printf("team_barriers: %s\n", i.features & HP_DEV_HAS_BARRIER_UNIT
					      ? "barrier unit"
					      : "software");
	uint64_t rings = 0;
	if (i.features & HP_DEV_HAS_DOORBELL &&
	    hp_doorbell_rings(d, &rings) == 0)
		printf("doorbell: device interrupt, %llu rings served\n",
		       (unsigned long long)rings);
	else
		printf("doorbell: UART interrupt or timer\n");
	if (hp_host_bell_of(d))
		printf("host_bell: this host sleeps on /dev/%s\n",
		       hp_host_bell_of(d));
	else if (i.features & HP_DEV_HAS_HOST_BELL)
		printf("host_bell: the device rings one, this host polls\n");
	printf("firmware: %s\n", i.firmware);
	printf("queues: %u x %u packets\n", HP_MBOX_QUEUES, HP_MBOX_RING_SIZE);
	printf("kernels: ");
	for (unsigned k = 0, n = 0; k < hp_kernel_count(d); k++)
		if (hp_kernel_at(d, k))
			printf("%s%s", n++ ? "," : "",
			       hp_kernel_at(d, k)->name);
	printf("\n");
	print_usage(&u, sess, ns);
	printf("connect: %s\n", hp_connect_string(d));
	return 0;
}

int cmd_info(hp_device *d, const cli_opts *o)
{
	int rc = info_one(d, o);
	if (rc)
		return cli_lib_fail(rc);
	if (o->json)
		putchar('\n');
	return 0;
}

int cmd_info_devices(hp_device *const *d, unsigned n, const cli_opts *o)
{
	if (o->json)
		printf("{\"devices\": [");
	for (unsigned k = 0; k < n; k++) {
		if (o->json && k)
			printf(", ");
		else if (!o->json)
			printf("%sdevice %u of %u: %s\n", k ? "\n" : "", k, n,
			       hp_connect_string(d[k]));
		int rc = info_one(d[k], o);
		if (rc) {
			fflush(stdout);
			return cli_die(rc, "info: device %u of %u (%s): %s", k,
				       n, hp_connect_string(d[k]),
				       hp_last_error());
		}
	}
	if (o->json)
		printf("]}\n");
	return 0;
}

int cmd_kernels(hp_device *d, const cli_opts *o)
{
	(void)o;
	for (unsigned k = 0; k < hp_kernel_count(d); k++) {
		const hp_mbox_kernel *m = hp_kernel_at(d, k);
		if (!m)
			continue;
		printf("%-16s args %3u B, local mem %5u B, %s", m->name,
		       (unsigned)m->args_size, m->local_mem_bytes,
		       m->flags & HP_KFLAG_BARRIERS ? "barriers"
						    : "no barriers");
		/* The largest local size it runs with (0: none fits). */
		if (m->work_group_size)
			printf(", max work-group %u", m->work_group_size);
		else
			printf(", cannot run on this device");
		if (m->reqd_work_group_size[0])
			printf(", reqd %u,%u,%u", m->reqd_work_group_size[0],
			       m->reqd_work_group_size[1],
			       m->reqd_work_group_size[2]);
		if (m->sub_group_size)
			printf(", sub-group %u", (unsigned)m->sub_group_size);
		/* It runs only on harts with an FPU (docs/design.md, 34). */
		if (m->flags & HP_KFLAG_FPU)
			printf(", FPU harts only");
		const workload *wl = workload_find(m->name);
		if (m->flags & HP_KFLAG_LOADED)
			printf(", loaded (object %u)", HP_KFLAG_SLOT(m->flags));
		else if (wl)
			printf(" - %s", wl->help);
		putchar('\n');
	}
	return 0;
}
