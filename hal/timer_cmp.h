/* SPDX-License-Identifier: MIT */
/* The board's timer comparator, under hal/timer.c (private to hal/). */
#ifndef HAL_TIMER_CMP_H
#define HAL_TIMER_CMP_H

#include <stdint.h>

/** Raise the calling hart's timer interrupt once the time reaches @p t
 * (UINT64_MAX: never); a pending one is cleared when @p t lies ahead. */
void hal_timer_cmp_set(uint64_t t);

#endif
