/* SPDX-License-Identifier: MIT */
/*
 * Board: qemu-virt-sbi's firmware in one OpenSBI domain of QEMU virt, with
 * Linux in another (docs/boards/qemu-virt-amp.md): qemu-virt-sbi's
 * addresses and devices; the firmware's device tree holds only its harts
 * and the first gigabyte of DRAM (qemu/linux/amp-dt.py).
 */
#ifndef BOARD_QEMU_VIRT_AMP_H
#define BOARD_QEMU_VIRT_AMP_H

#define BOARD_NAME "qemu-virt-amp"
#include "../qemu-virt-sbi/board.h"

#endif
