/* SPDX-License-Identifier: MIT */
/*
 * Board: QEMU `virt` with hartpool's cluster devices (docs/barrier-unit.md),
 * RV64 (rv64imafdc, lp64d): qemu-virt's addresses, plus the barrier unit
 * and the doorbell.
 */
#ifndef BOARD_QEMU_CLUSTER_H
#define BOARD_QEMU_CLUSTER_H

#define BOARD_NAME "qemu-cluster"
#include "../qemu-virt/board.h"

/* The cluster devices of the patched QEMU (virt,hp-cluster=on), used
 * when the device tree has no node for them. */
#define BOARD_BARRIER_UNIT_BASE 0x06000000UL
#define BOARD_DOORBELL_BASE 0x06040000UL
#define BOARD_DOORBELL_IRQ 12

#endif
