/* SPDX-License-Identifier: MIT */
/**
 * @file Sleeping until something happens.
 *
 * The only way a hartpool hart waits. The protocol that makes wake-ups
 * impossible to lose:
 *
 *     waiter:  hal_sleep_prepare();   // clear own pending IPI
 *              if (!condition) hal_sleep();  // wfi: returns if an IPI is
 *                                            // pending, even one sent
 *                                            // between the check and wfi
 *     waker:   make condition true (release); hal_ipi_send(waiter);
 *
 * Spurious returns from hal_sleep() are allowed, so every wait is a loop.
 * HAL_WAIT_UNTIL() is that loop, with a short bounded poll first (cheaper
 * than a sleep when the condition is about to become true).
 */
#ifndef HAL_SLEEP_H
#define HAL_SLEEP_H

#include <hal/hart.h>
#include <hal/hartmask.h>
#include <stdint.h>

/** Polls before sleeping in HAL_WAIT_UNTIL. */
#define HAL_WAIT_POLLS 32

/** Forget wake-ups that happened before now (clears own pending IPI). */
void hal_sleep_prepare(void);

/** Sleep until an IPI (or a timer the hart armed) is pending. */
void hal_sleep(void);

/** Like hal_sleep(), but also wake once hal_timer_now() >= @p deadline
 * (and on an enabled device interrupt, see hal/irq.h). */
void hal_sleep_until(uint64_t deadline);

/**
 * Wait until @p cond (an expression re-evaluated each time) is true:
 * HAL_WAIT_POLLS quick polls, then sleep/re-check. The condition must read
 * shared state with acquire loads.
 */
#define HAL_WAIT_UNTIL(cond)                                                   \
	do {                                                                   \
		for (unsigned hal_polls_ = 0; !(cond);) {                      \
			if (hal_polls_ < HAL_WAIT_POLLS) {                     \
				hal_polls_++;                                  \
				hal_cpu_relax();                               \
				continue;                                      \
			}                                                      \
			hal_sleep_prepare();                                   \
			if (cond)                                              \
				break;                                         \
			hal_sleep();                                           \
		}                                                              \
	} while (0)

/**
 * Sleep until *@p word != @p old (acquire). Before sleeping the hart adds
 * itself to @p sleepers; whoever changes the word must store it with
 * release and then call hal_ipi_send_mask_clear(@p sleepers).
 */
void hal_wait_while_eq(const unsigned *word, unsigned old,
		       hal_hartmask *sleepers);

#endif
