// SPDX-License-Identifier: MIT
#include "pool.h"
/* Not an include: #include <firmware/trap.h> */
// Nor this: #include "cmd.h"
