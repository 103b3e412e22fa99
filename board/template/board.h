/* SPDX-License-Identifier: MIT */
/*
 * Board template: copy this folder to board/<name>/ and change every value
 * marked PORT. docs/porting.md walks through it. The values here are QEMU
 * virt's, so the template builds as it is (`make BOARD=template`), which the
 * test suite checks.
 */
#ifndef BOARD_H
#define BOARD_H

#define BOARD_NAME "template" /* PORT: the folder name */

/* PORT: console. A 16550-compatible UART uses hal/console_ns16550.c; another
 * device needs its own hal/console_<device>.c. */
#define BOARD_UART_BASE 0x10000000UL
#define BOARD_UART_CLOCK_HZ 3686400UL
#define BOARD_UART_BAUD 115200UL

/* PORT: the CLINT / ACLINT (IPIs and timer). */
#define BOARD_CLINT_BASE 0x02000000UL
#define BOARD_CLINT_MSIP_OFFSET 0x0000UL
#define BOARD_CLINT_MTIMECMP_OFFSET 0x4000UL
#define BOARD_CLINT_MTIME_OFFSET 0xbff8UL

/* PORT: how a run ends. QEMU's sifive_test device; a board without one
 * provides hal/exit_<mechanism>.c (e.g. print the code and park). */
#define BOARD_FINISHER_BASE 0x00100000UL

/* PORT: timer rate if the device tree does not give timebase-frequency. */
#define BOARD_TIMEBASE_HZ_DEFAULT 10000000UL

/* PORT: Interrupt controller (PLIC) and the UART's source: the UART's receive
 * interrupt wakes the dispatcher hart (serial transport, doorbells). The
 * context of hart index 0 in M-mode. */
#define BOARD_PLIC_BASE 0x0c000000UL
#define BOARD_PLIC_CONTEXT_HART0 0
#define BOARD_UART_IRQ 10

/* PORT: Memory the host shares with the device (include/hartpool/mbox.h):
 * DRAM starts at BOARD_DRAM_BASE; the firmware owns the RAM of memory.ld;
 * the mailbox (device header, queues, rings) and then the buffer heap lie
 * above. The heap runs to the end of DRAM as the device tree's /memory
 * gives it; BOARD_DRAM_SIZE_DEFAULT if the tree has none. */
#define BOARD_DRAM_BASE 0x80000000UL
#define BOARD_DRAM_SIZE_DEFAULT 0x20000000UL
#define BOARD_MBOX_BASE 0x90000000UL
#define BOARD_MBOX_SIZE 0x00800000UL
#define BOARD_BUF_BASE 0x90800000UL

#endif
