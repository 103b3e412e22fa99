/* SPDX-License-Identifier: MIT */
/** @file The generated board table (build/host/boards_table.c, from
 * board/<B>/board.mk by host/boards/objects.mk), by name. */
#ifndef HOST_BOARDS_TABLE_H
#define HOST_BOARDS_TABLE_H

#include <hartpool_boards.h>

extern const hp_board_info hp_boards_table[];
extern const size_t hp_boards_table_count;

#endif
