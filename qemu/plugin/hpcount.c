// SPDX-License-Identifier: MIT
/*
 * hpcount: a QEMU TCG plugin (QEMU 7.2, plugin API version 1) that counts
 * the instructions every vCPU executes, exactly, and records each execution
 * of an HP_MARKER (include/hartpool/marker.h) with that vCPU's count up to
 * and including the marker. docs/counting.md has the method and its limits.
 *
 *   -plugin build/host/hpcount.so[,out=PATH][,marks=N]
 *
 * At exit it writes (to PATH, default stderr), one record a line:
 *
 *   vcpu V insns N     each vCPU: instructions it executed
 *   mark V ID COUNT    each marker execution, in execution order per vCPU
 *   dropped K          marker executions not kept (past the first N,
 *                      default 2^20), if any
 *
 * Method: a translation block is cut into runs that end at an instruction
 * that can leave the block early (a load, store, AMO, fence or SYSTEM
 * instruction), at a marker, or at the block's end. One callback on a run's
 * last instruction adds the run's length to the vCPU's counter: it fires
 * once every earlier instruction of the run has executed, and none of them
 * could have left the block. A marker ends its run, so its callback knows
 * the exact count including itself.
 */
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin_api.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = 1;

/* ---- hpcount ---- */

#define MAX_VCPUS 1024		/* QEMU virt: 512; user mode: threads */
#define MAX_MARKS (1u << 20)	/* marker records kept (marks=N) */
#define MARKER_BITS 0x00002013u /* slti x0, x0, imm */
#define MARKER_MASK 0x800fffffu /* ... with imm 0..2047 */
#define RUN_BITS 16		/* udata: run length | marker id << 16 */

/* One per vCPU, on its own cache line: only that vCPU's thread adds to it
 * (relaxed atomics so that the exit report may read it meanwhile). */
struct vcpu {
	_Alignas(64) _Atomic uint64_t insns;
};

struct mark {
	_Atomic uint32_t vcpu1; /* vCPU + 1 once the record is complete */
	uint32_t id;
	uint64_t count;
};

static struct vcpu *vcpus;
static struct mark *marks;
static _Atomic uint64_t marks_taken; /* slots claimed, may pass max_marks */
static _Atomic unsigned vcpus_seen;  /* highest vCPU index + 1 */
static uint64_t max_marks = MAX_MARKS;
static FILE *out;

static uint64_t add(unsigned vcpu, uint64_t n)
{
	_Atomic uint64_t *c = &vcpus[vcpu].insns;
	n += atomic_load_explicit(c, memory_order_relaxed);
	atomic_store_explicit(c, n, memory_order_relaxed);
	return n;
}

static void on_run(unsigned int vcpu, void *udata)
{
	if (vcpu < MAX_VCPUS)
		add(vcpu, (uintptr_t)udata);
}

static void on_marker(unsigned int vcpu, void *udata)
{
	uintptr_t u = (uintptr_t)udata;
	if (vcpu >= MAX_VCPUS)
		return;
	uint64_t count = add(vcpu, u & ((1u << RUN_BITS) - 1));
	uint64_t slot = atomic_fetch_add_explicit(&marks_taken, 1,
						  memory_order_relaxed);
	if (slot >= max_marks)
		return;
	marks[slot].id = (uint32_t)(u >> RUN_BITS);
	marks[slot].count = count;
	atomic_store_explicit(&marks[slot].vcpu1, vcpu + 1,
			      memory_order_release);
}

/* Can this instruction leave its block before the next one runs? Memory
 * accesses (fault, or I/O under -icount) and SYSTEM/fence instructions.
 * Branches and jumps always end their block. Runtime traps of FP ops (a
 * reserved rounding mode) are not cut for: docs/counting.md. */
static bool may_leave(uint32_t op, size_t size)
{
	if (size == 2) { /* C: quadrants 0 and 2, funct3 1-3 and 5-7 */
		unsigned quadrant = op & 3, funct3 = (op >> 13) & 7;
		return (quadrant == 0 || quadrant == 2) && (funct3 & 3);
	}
	switch (op & 0x7f) {
	case 0x03: /* LOAD */
	case 0x07: /* LOAD-FP */
	case 0x0f: /* MISC-MEM */
	case 0x23: /* STORE */
	case 0x27: /* STORE-FP */
	case 0x2f: /* AMO */
	case 0x73: /* SYSTEM */
		return true;
	default:
		return false;
	}
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	(void)id;
	size_t n = qemu_plugin_tb_n_insns(tb);
	uintptr_t run = 0;
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		size_t size = qemu_plugin_insn_size(insn);
		const uint8_t *bytes = qemu_plugin_insn_data(insn);
		uint32_t op = 0; /* RISC-V is little-endian */
		for (size_t b = 0; b < size && b < 4; b++)
			op |= (uint32_t)bytes[b] << 8 * b;
		run++;
		if (size == 4 && (op & MARKER_MASK) == MARKER_BITS) {
			qemu_plugin_register_vcpu_insn_exec_cb(
				insn, on_marker, QEMU_PLUGIN_CB_NO_REGS,
				(void *)(run | (uintptr_t)(op >> 20)
						       << RUN_BITS));
		} else if (i == n - 1 || may_leave(op, size)) {
			qemu_plugin_register_vcpu_insn_exec_cb(
				insn, on_run, QEMU_PLUGIN_CB_NO_REGS,
				(void *)run);
		} else {
			continue;
		}
		run = 0;
	}
}

static void on_vcpu_init(qemu_plugin_id_t id, unsigned int vcpu)
{
	(void)id;
	unsigned seen = atomic_load(&vcpus_seen);
	while (seen < vcpu + 1 &&
	       !atomic_compare_exchange_weak(&vcpus_seen, &seen, vcpu + 1))
		;
}

static void on_qemu_exit(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	unsigned nv = atomic_load(&vcpus_seen);
	if (nv > MAX_VCPUS) {
		fprintf(stderr, "hpcount: vCPUs %d..%u not counted\n",
			MAX_VCPUS, nv - 1);
		nv = MAX_VCPUS;
	}
	for (unsigned v = 0; v < nv; v++)
		fprintf(out, "vcpu %u insns %llu\n", v,
			(unsigned long long)atomic_load_explicit(
				&vcpus[v].insns, memory_order_relaxed));
	uint64_t taken = atomic_load(&marks_taken);
	uint64_t kept = taken < max_marks ? taken : max_marks;
	uint64_t dropped = taken - kept;
	for (uint64_t i = 0; i < kept; i++) {
		uint32_t v1 = atomic_load_explicit(&marks[i].vcpu1,
						   memory_order_acquire);
		if (v1 == 0) { /* still being written by a running vCPU */
			dropped++;
			continue;
		}
		fprintf(out, "mark %u %u %llu\n", v1 - 1, marks[i].id,
			(unsigned long long)marks[i].count);
	}
	if (dropped)
		fprintf(out, "dropped %llu\n", (unsigned long long)dropped);
	fflush(out);
	if (out != stderr)
		fclose(out);
}

static bool parse_arg(const char *arg, const char **path)
{
	if (!strncmp(arg, "out=", 4) && arg[4]) {
		*path = arg + 4;
		return true;
	}
	if (!strncmp(arg, "marks=", 6)) {
		char *end;
		max_marks = strtoull(arg + 6, &end, 10);
		return end != arg + 6 && !*end;
	}
	return false;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
					   const qemu_info_t *info, int argc,
					   char **argv)
{
	const char *path = NULL;
	for (int i = 0; i < argc; i++)
		if (!parse_arg(argv[i], &path)) {
			fprintf(stderr,
				"hpcount: unknown argument '%s' "
				"(takes out=PATH, marks=N)\n",
				argv[i]);
			return -1;
		}
	out = path ? fopen(path, "w") : stderr;
	if (!out) {
		fprintf(stderr, "hpcount: cannot open %s\n", path);
		return -1;
	}
	vcpus = aligned_alloc(64, MAX_VCPUS * sizeof(*vcpus));
	marks = calloc(max_marks ? max_marks : 1, sizeof(*marks)); /* lazy */
	if (!vcpus || !marks) {
		fprintf(stderr, "hpcount: out of memory\n");
		return -1;
	}
	memset(vcpus, 0, MAX_VCPUS * sizeof(*vcpus));
	if (info->system_emulation)
		atomic_store(&vcpus_seen, (unsigned)info->system.smp_vcpus);
	qemu_plugin_register_vcpu_init_cb(id, on_vcpu_init);
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, on_qemu_exit, NULL);
	return 0;
}
