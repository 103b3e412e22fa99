/* SPDX-License-Identifier: MIT */
/*
 * Board: qemu-virt-sbi with the vector extension (RVV 1.0): qemu-virt-sbi's
 * addresses and devices; its harts have V (board.mk: BOARD_ARCH,
 * BOARD_VLEN_MAX).
 */
#ifndef BOARD_QEMU_VIRT_SBI_V_H
#define BOARD_QEMU_VIRT_SBI_V_H

#define BOARD_NAME "qemu-virt-sbi-v"
#include "../qemu-virt-sbi/board.h"

#endif
