/* SPDX-License-Identifier: MIT */
/**
 * @file What a device says of itself and of its kernels: the description
 * hp_info() returns and the rows of its kernel table (hp_kernel_at()). The
 * mailbox carries them as they are (hartpool/mbox.h), and the public host
 * API (hartpool.h) hands them out without the rest of the protocol.
 */
#ifndef HARTPOOL_DEVICE_INFO_H
#define HARTPOOL_DEVICE_INFO_H

#include <stdint.h>

typedef struct hp_device_info {
	uint32_t harts;
	uint32_t address_bits; /**< width of the device's size_t */
	uint32_t max_work_dim;
	uint32_t max_work_group_size;
	uint32_t max_work_item_sizes[3];
	uint32_t local_mem_size;	 /**< bytes per work-group */
	uint32_t sub_group_sizes;	 /**< bit k: size 1 << k allowed */
	uint32_t default_sub_group_size; /**< the board's lane count */
	uint32_t max_args_size;		 /**< HP_MBOX_ARGS_MAX */
	uint32_t features;		 /**< HP_DEV_HAS_* */
	uint64_t global_mem_size;	 /**< bytes of the buffer heap */
	uint64_t timer_hz;		 /**< device ticks per second */
	char board[32];
	char firmware[32]; /**< firmware build string */
	/** Largest single buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE): the heap
	 * less alignment, when nothing is allocated. */
	uint64_t max_mem_alloc_size;
	/** Bytes of DRAM the device found (its device tree's /memory). */
	uint64_t dram_size;
	/** The mode the firmware runs in: "M" (machine mode, the board's own
	 * firmware) or "S" (supervisor mode under SBI firmware, OpenSBI). */
	char privilege[4];
	/** Harts the device tree lists that the firmware does not use
	 * (cannot run S-mode payloads); parked ones (hartpool.harts=N) are
	 * not counted. */
	uint32_t harts_skipped;
	/** Those harts and why, "id 0: no S-mode (...); ...", cut to fit. */
	char skipped[120];
	/** The time slice between sessions in microseconds (hartpool.slice_us;
	 * 0: kernels are never preempted; docs/sessions.md). */
	uint32_t slice_us;
	/** Bits of a vector register of the device's harts (RVV's VLEN); 0:
	 * no vector unit in use (docs/vector.md). */
	uint32_t vector_bits;
} hp_device_info;

/** hp_device_info.features: the host rings a doorbell device after
 * writing packets, and the dispatcher sleeps until it does (no polling
 * on a timer; docs/barrier-unit.md). */
#define HP_DEV_HAS_DOORBELL 1u
/** Team barriers (work-groups spread over harts) use a hardware barrier
 * unit (docs/barrier-unit.md). */
#define HP_DEV_HAS_BARRIER_UNIT 2u
/** The device rings the host back: an interrupt at every completion of a
 * session that asks for one (HP_SESSION_BELL, include/hartpool/mbox.h),
 * through a device of the board the host's kernel hands to user space
 * (qemu-virt-amp: QEMU's edu PCI device under Linux's uio_pci_generic;
 * docs/boards/qemu-virt-amp.md). */
#define HP_DEV_HAS_HOST_BELL 4u

/** A kernel of the device (a row of the kernel table). */
typedef struct hp_kernel_info {
	char name[32];
	uint32_t reqd_work_group_size[3];
	uint32_t max_work_group_size; /**< the declared attribute; 0: none */
	/** The largest work-group this kernel runs with on this device, one
	 * hart per work-group (CL_KERNEL_WORK_GROUP_SIZE): the device limit,
	 * the declared max/reqd sizes and the fiber stacks of a barrier
	 * kernel counted; 0 if it cannot run at all (local memory). The
	 * device never chooses a larger local size. */
	uint32_t work_group_size;
	uint32_t local_mem_bytes;
	uint16_t sub_group_size;
	uint16_t args_size;
	uint32_t flags; /**< HP_KFLAG_* */
} hp_kernel_info;

#define HP_KFLAG_BARRIERS 1u
/** It uses the FPU, and the device's firmware computes with one: only
 * harts that have an FPU run it (docs/design.md, 34). */
#define HP_KFLAG_FPU 4u
/** A kernel of a loaded object; bits 8-15 of flags: the object's slot,
 * bits 16-31: its generation. */
#define HP_KFLAG_LOADED 2u
#define HP_KFLAG_SLOT(f) (((f) >> 8) & 0xffu)
#define HP_KFLAG_GEN(f) ((f) >> 16)
/** The flags of a kernel of the object in slot @p slot, generation @p gen. */
#define HP_KFLAG_OBJECT(slot, gen)                                             \
	(HP_KFLAG_LOADED | (uint32_t)(slot) << 8 | (uint32_t)(gen) << 16)

/** The resources a session's quota limits (hp_device_usage,
 * hp_mbox_header.quota_*; docs/sessions.md, "Quotas"): heap bytes, buffers,
 * kernel objects, kernel-table rows, queues, commands in flight. */
enum hp_quota_res {
	HP_QUOTA_HEAP = 0,
	HP_QUOTA_BUFFERS = 1,
	HP_QUOTA_OBJECTS = 2,
	HP_QUOTA_ROWS = 3,
	HP_QUOTA_QUEUES = 4,
	HP_QUOTA_COMMANDS = 5,
	HP_QUOTAS
};

#endif
