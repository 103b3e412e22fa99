// SPDX-License-Identifier: MIT
#include <board.h>
#include <hartpool/api.h>
