/* SPDX-License-Identifier: MIT */
/*
 * Board: Milk-V Pioneer (Sophgo SG2042, 64 T-Head C920 cores), firmware in
 * S-mode under OpenSBI: the same code as board/qemu-virt-sbi (harts, console
 * UART, PLIC, timebase and DRAM from the device tree; IPIs, the timer and
 * power-off through SBI), linked where this board's boot flow puts a kernel
 * (memory.ld). docs/boards/milkv-pioneer.md. Not run on hardware.
 */
#ifndef BOARD_H
#define BOARD_H

#define BOARD_NAME "milkv-pioneer"

/* The console's rate when the device tree gives its input clock
 * (otherwise the rate OpenSBI / U-Boot set stays). */
#define BOARD_UART_BAUD 115200UL

/* Used only when the device tree carries no timebase-frequency. */
#define BOARD_TIMEBASE_HZ_DEFAULT 1000000UL

/* DRAM at 0x0; the firmware image from 0x2000000 to the mailbox
 * (memory.ld), then the mailbox and the buffer heap to the end of DRAM
 * (its size from the device tree; the default below only without one). */
#define BOARD_DRAM_BASE 0x0UL
#define BOARD_DRAM_SIZE_DEFAULT 0x200000000UL
#define BOARD_MBOX_BASE 0x10000000UL
#define BOARD_MBOX_SIZE 0x00800000UL
#define BOARD_BUF_BASE 0x10800000UL

#endif
