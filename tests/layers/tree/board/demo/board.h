/* SPDX-License-Identifier: MIT */
#define BOARD_CLINT 0x2000000
