// SPDX-License-Identifier: MIT
/* bench/wait.c with spinning waiters; see there. */
#define BENCH_SPIN 1
#include "wait.c"
