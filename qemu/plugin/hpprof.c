// SPDX-License-Identifier: MIT
/*
 * hpprof: a QEMU TCG plugin (QEMU 7.2, plugin API version 1) that counts
 * how often every instruction address executes while its vCPU is inside
 * marker region R (between HP_MARK_BEGIN(R) and HP_MARK_END(R),
 * include/hartpool/marker.h), to see where a region's instructions go.
 * hpcount gives exact totals; this one is for finding the functions.
 *
 *   -plugin build/host/hpprof.so,region=R[,out=PATH]
 *
 * At exit: one line per executed address, "pc count", and a last line
 * "total N" (instructions counted inside the region). qemu/plugin/
 * hpprof-report folds the lines into functions with the image's symbols.
 *
 * Method: an exec callback on every instruction (slow, fine for a
 * benchmark image on 1 hart), counting only while the vCPU's flag is set;
 * the region's markers set and clear it. An instruction that traps is
 * still counted once.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin_api.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = 1;

#define MAX_VCPUS 1024
#define MARKER_BITS 0x00002013u /* slti x0, x0, imm */
#define MARKER_MASK 0x800fffffu

/* One record per instruction address, shared by every translation of it
 * (open hashing on the address). */
struct site {
	uint64_t pc, count;
	struct site *next;
};

#define BUCKETS (1u << 16)
static struct site *table[BUCKETS];
static bool inside[MAX_VCPUS];
static unsigned region;
static uint64_t total;
static FILE *out;

static struct site *site_of(uint64_t pc)
{
	unsigned h = (unsigned)(pc >> 1) & (BUCKETS - 1);
	for (struct site *s = table[h]; s; s = s->next)
		if (s->pc == pc)
			return s;
	struct site *s = calloc(1, sizeof(*s));
	if (!s)
		abort();
	s->pc = pc;
	s->next = table[h];
	table[h] = s;
	return s;
}

static void on_insn(unsigned int vcpu, void *udata)
{
	if (vcpu < MAX_VCPUS && inside[vcpu]) {
		((struct site *)udata)->count++;
		total++;
	}
}

static void on_begin(unsigned int vcpu, void *udata)
{
	(void)udata;
	if (vcpu < MAX_VCPUS)
		inside[vcpu] = true;
}

static void on_end(unsigned int vcpu, void *udata)
{
	(void)udata;
	if (vcpu < MAX_VCPUS)
		inside[vcpu] = false;
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	(void)id;
	size_t n = qemu_plugin_tb_n_insns(tb);
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		size_t size = qemu_plugin_insn_size(insn);
		const uint8_t *bytes = qemu_plugin_insn_data(insn);
		uint32_t op = 0;
		for (size_t b = 0; b < size && b < 4; b++)
			op |= (uint32_t)bytes[b] << 8 * b;
		if (size == 4 && (op & MARKER_MASK) == MARKER_BITS) {
			unsigned m = op >> 20;
			if (m == 2 * region)
				qemu_plugin_register_vcpu_insn_exec_cb(
					insn, on_begin, QEMU_PLUGIN_CB_NO_REGS,
					NULL);
			else if (m == 2 * region + 1)
				qemu_plugin_register_vcpu_insn_exec_cb(
					insn, on_end, QEMU_PLUGIN_CB_NO_REGS,
					NULL);
		}
		/* Single-threaded TCG is assumed (the plain counters). */
		qemu_plugin_register_vcpu_insn_exec_cb(
			insn, on_insn, QEMU_PLUGIN_CB_NO_REGS,
			site_of(qemu_plugin_insn_vaddr(insn)));
	}
}

static void on_qemu_exit(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	for (unsigned h = 0; h < BUCKETS; h++)
		for (struct site *s = table[h]; s; s = s->next)
			if (s->count)
				fprintf(out, "%llx %llu\n",
					(unsigned long long)s->pc,
					(unsigned long long)s->count);
	fprintf(out, "total %llu\n", (unsigned long long)total);
	fflush(out);
	if (out != stderr)
		fclose(out);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info, int argc,
					   char **argv)
{
	(void)info;
	const char *path = NULL;
	bool have_region = false;
	for (int i = 0; i < argc; i++) {
		char *end;
		if (!strncmp(argv[i], "out=", 4) && argv[i][4]) {
			path = argv[i] + 4;
		} else if (!strncmp(argv[i], "region=", 7)) {
			region = (unsigned)strtoul(argv[i] + 7, &end, 10);
			have_region =
				end != argv[i] + 7 && !*end && region < 1024;
			if (!have_region)
				break;
		} else {
			have_region = false;
			break;
		}
	}
	if (!have_region) {
		fprintf(stderr, "hpprof: takes region=R (0..1023) and "
				"optionally out=PATH\n");
		return -1;
	}
	out = path ? fopen(path, "w") : stderr;
	if (!out) {
		fprintf(stderr, "hpprof: cannot open %s\n", path);
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, on_qemu_exit, NULL);
	return 0;
}
