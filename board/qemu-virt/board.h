/* SPDX-License-Identifier: MIT */
/*
 * Board: QEMU `virt`, RV64 (rv64imafdc, lp64d).
 *
 * Addresses are those of QEMU 7.2's virt machine with one socket (the
 * launcher never asks for more), which is what `-smp N` gives for N <= 512.
 */
#ifndef BOARD_H
#define BOARD_H

#ifndef BOARD_NAME
#define BOARD_NAME "qemu-virt"
#endif

/* 16550 UART, 8-bit registers at stride 1. */
#define BOARD_UART_BASE 0x10000000UL
#define BOARD_UART_CLOCK_HZ 3686400UL
#define BOARD_UART_BAUD 115200UL

/* CLINT (ACLINT MSWI + MTIMER at the SiFive CLINT layout). */
#define BOARD_CLINT_BASE 0x02000000UL
#define BOARD_CLINT_MSIP_OFFSET 0x0000UL
#define BOARD_CLINT_MTIMECMP_OFFSET 0x4000UL
#define BOARD_CLINT_MTIME_OFFSET 0xbff8UL

/* sifive_test finisher: writes end the QEMU process with a status. */
#define BOARD_FINISHER_BASE 0x00100000UL

/* Used only when the device tree carries no timebase-frequency. */
#define BOARD_TIMEBASE_HZ_DEFAULT 10000000UL

/* Interrupt controller (PLIC) and the UART's source: the UART's receive
 * interrupt wakes the dispatcher hart (serial transport, doorbells). The
 * context of hart index 0 in M-mode. */
#define BOARD_PLIC_BASE 0x0c000000UL
#define BOARD_PLIC_CONTEXT_HART0 0
#define BOARD_UART_IRQ 10

/* Memory the host shares with the device (include/hartpool/mbox.h):
 * DRAM starts at BOARD_DRAM_BASE; the firmware owns its first 256 MiB
 * (memory.ld); the mailbox (device header, queues, rings) and then the
 * buffer heap lie above. The heap runs to the end of DRAM as the device
 * tree's /memory gives it (`hartpool --mem`; BOARD_DRAM_SIZE_DEFAULT if
 * the tree has none), below the last page of the address space. */
#define BOARD_DRAM_BASE 0x80000000UL
#define BOARD_DRAM_SIZE_DEFAULT 0x20000000UL
#define BOARD_MBOX_BASE 0x90000000UL
#define BOARD_MBOX_SIZE 0x00800000UL
#define BOARD_BUF_BASE 0x90800000UL

#endif
