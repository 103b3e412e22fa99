/* SPDX-License-Identifier: MIT */
/*
 * The part of QEMU's plugin API (version 1, QEMU 7.2) that the project's
 * plugins (hpcount.c, hpprof.c) use, declared from docs/devel/tcg-plugins.rst
 * and the API reference (Debian ships no qemu-plugin.h).
 */
#ifndef QEMU_PLUGIN_API_H
#define QEMU_PLUGIN_API_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define QEMU_PLUGIN_EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;

typedef struct {
	const char *target_name;
	struct {
		int min, cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus, max_vcpus;
		} system;
	};
} qemu_info_t;

struct qemu_plugin_tb;	 /* opaque: a block being translated */
struct qemu_plugin_insn; /* opaque: one of its instructions */

enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS };

typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu, void *udata);

void qemu_plugin_register_vcpu_init_cb(qemu_plugin_id_t id,
				       void (*cb)(qemu_plugin_id_t id,
						  unsigned int vcpu));
void qemu_plugin_register_vcpu_tb_trans_cb(
	qemu_plugin_id_t id,
	void (*cb)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb));
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    void (*cb)(qemu_plugin_id_t id,
					       void *udata),
				    void *udata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *
qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t idx);
const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags,
					    void *udata);

#endif
