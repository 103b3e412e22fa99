/* SPDX-License-Identifier: MIT */
/*
 * Reset entry for M-mode boards whose harts start at the image's first
 * byte with nothing in front to pass a0 = hart id and a1 = device tree
 * (QEMU's microchip-icicle-kit with -bios, the PolarFire SoC's eNVM): the
 * hart id from mhartid, no device tree (a1 = 0: boot takes the board's
 * BOARD_HARTS), then boot's _start. linker/common.ld puts .text.reset
 * first.
 */
	.section .text.reset, "ax"
	.globl hal_reset
hal_reset:
	csrr	a0, mhartid
	li	a1, 0
	j	_start
