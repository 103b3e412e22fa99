/* SPDX-License-Identifier: MIT */
/*
 * Board: SiFive HiFive Premier P550 (ESWIN EIC7700X, 4 P550 cores), firmware in
 * S-mode under OpenSBI: the same code as board/qemu-virt-sbi (harts, console
 * UART, PLIC, timebase and DRAM from the device tree; IPIs, the timer and
 * power-off through SBI), linked where this board's boot flow puts a kernel
 * (memory.ld). docs/boards/p550.md. Not run on hardware.
 */
#ifndef BOARD_H
#define BOARD_H

#define BOARD_NAME "p550"

/* The console's rate when the device tree gives its input clock
 * (otherwise the rate OpenSBI / U-Boot set stays). */
#define BOARD_UART_BAUD 115200UL

/* Used only when the device tree carries no timebase-frequency. */
#define BOARD_TIMEBASE_HZ_DEFAULT 1000000UL

/* DRAM at 0x80000000; the firmware image from 0x80200000 to the mailbox
 * (memory.ld), then the mailbox and the buffer heap to the end of DRAM
 * (its size from the device tree; the default below only without one). */
#define BOARD_DRAM_BASE 0x80000000UL
#define BOARD_DRAM_SIZE_DEFAULT 0x400000000UL
#define BOARD_MBOX_BASE 0x90000000UL
#define BOARD_MBOX_SIZE 0x00800000UL
#define BOARD_BUF_BASE 0x90800000UL

#endif
