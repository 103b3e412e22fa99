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

int cmd_info(hp_device *d, const cli_opts *o)
{
	hp_device_info i;
	int rc = hp_device_query(d, &i);
	if (rc)
		return cli_lib_fail(rc);
	char sgs[64];
	list_sizes(sgs, sizeof(sgs), i.sub_group_sizes);
	char items[64];
	snprintf(items, sizeof(items), "%u,%u,%u", i.max_work_item_sizes[0],
		 i.max_work_item_sizes[1], i.max_work_item_sizes[2]);
	if (o->json) {
		printf("{\"harts\": %u, \"max_work_group_size\": %u, "
		       "\"max_work_item_sizes\": [%s], \"max_work_dim\": %u, "
		       "\"sub_group_sizes\": [%s], "
		       "\"default_sub_group_size\": %u, "
		       "\"local_mem_size\": %u, \"global_mem_size\": %llu, "
		       "\"max_mem_alloc_size\": %llu, \"dram_size\": %llu, "
		       "\"address_bits\": %u, \"max_args_size\": %u, "
		       "\"timer_hz\": %llu, \"privilege\": ",
		       i.harts, i.max_work_group_size, items, i.max_work_dim,
		       sgs, i.default_sub_group_size, i.local_mem_size,
		       (unsigned long long)i.global_mem_size,
		       (unsigned long long)i.max_mem_alloc_size,
		       (unsigned long long)i.dram_size, i.address_bits,
		       i.max_args_size, (unsigned long long)i.timer_hz);
		cli_json_str(i.privilege, sizeof(i.privilege));
		printf(", \"doorbell_device\": %s, \"barrier_unit\": %s",
		       i.features & HP_DEV_HAS_DOORBELL ? "true" : "false",
		       i.features & HP_DEV_HAS_BARRIER_UNIT ? "true" : "false");
		printf(", \"harts_skipped\": %u, \"skipped\": ",
		       i.harts_skipped);
		cli_json_str(i.skipped, sizeof(i.skipped));
		printf(", \"board\": ");
		cli_json_str(i.board, sizeof(i.board));
		printf(", \"firmware\": ");
		cli_json_str(i.firmware, sizeof(i.firmware));
		printf(", \"connect\": ");
		cli_json_str(hp_connect_string(d), SIZE_MAX);
		printf(", ");
		json_kernels(d);
		printf("}\n");
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
	printf("firmware: %s\n", i.firmware);
	printf("queues: %u x %u packets\n", HP_MBOX_QUEUES, HP_MBOX_RING_SIZE);
	printf("kernels: ");
	for (unsigned k = 0, n = 0; k < hp_kernel_count(d); k++)
		if (hp_kernel_at(d, k))
			printf("%s%s", n++ ? "," : "",
			       hp_kernel_at(d, k)->name);
	printf("\nconnect: %s\n", hp_connect_string(d));
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
