// SPDX-License-Identifier: MIT
#include <board.h>
#include <hal/ipi.h>
