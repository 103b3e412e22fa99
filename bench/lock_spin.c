// SPDX-License-Identifier: MIT
/* bench/lock.c built with a spin lock; see there. */
#define BENCH_SPIN 1
#include "lock.c"
