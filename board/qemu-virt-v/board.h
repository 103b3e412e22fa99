/* SPDX-License-Identifier: MIT */
/*
 * Board: qemu-virt with the vector extension (RVV 1.0): qemu-virt's addresses
 * and devices; its harts have V (board.mk: BOARD_ARCH, BOARD_VLEN_MAX).
 */
#ifndef BOARD_QEMU_VIRT_V_H
#define BOARD_QEMU_VIRT_V_H

#define BOARD_NAME "qemu-virt-v"
#include "../qemu-virt/board.h"

#endif
