/* SPDX-License-Identifier: MIT */
/*
 * Board: QEMU `virt`, RV32 (rv32imac, ilp32). The same machine as qemu-virt,
 * so the same devices at the same addresses; only the harts differ
 * (board.mk).
 */
#ifndef BOARD_H
#define BOARD_NAME "qemu-virt32"
#include "../qemu-virt/board.h"
#endif
