/* SPDX-License-Identifier: MIT */
/*
 * Board: any OpenSBI board, RV64 (rv64imafdc, lp64d), firmware in S-mode;
 * tested on QEMU `virt` under OpenSBI 1.1 (fw_dynamic).
 *
 * Nothing about devices is fixed here: the harts (only those that run
 * S-mode payloads), the console UART (/chosen/stdout-path), the PLIC and
 * its S-mode context, the timebase and DRAM come from the device tree;
 * IPIs, the timer and power-off go through SBI. What is fixed is where
 * the image and the shared memory lie (memory.ld, below).
 */
#ifndef BOARD_H
#define BOARD_H

#ifndef BOARD_NAME
#define BOARD_NAME "qemu-virt-sbi"
#endif

/* The console's rate when the device tree gives its input clock
 * (otherwise the rate OpenSBI / U-Boot set stays). */
#define BOARD_UART_BAUD 115200UL

/* Used only when the device tree carries no timebase-frequency. */
#define BOARD_TIMEBASE_HZ_DEFAULT 10000000UL

/* Memory the host shares with the device (include/hartpool/mbox.h), as on
 * qemu-virt: DRAM at 0x80000000, OpenSBI in its first 2 MiB, the firmware
 * image in the rest of the first 256 MiB (memory.ld), then the mailbox
 * and the buffer heap to the end of DRAM. */
#define BOARD_DRAM_BASE 0x80000000UL
#define BOARD_DRAM_SIZE_DEFAULT 0x20000000UL
#define BOARD_MBOX_BASE 0x90000000UL
#define BOARD_MBOX_SIZE 0x00800000UL
#define BOARD_BUF_BASE 0x90800000UL

#endif
