/* SPDX-License-Identifier: MIT */
/**
 * @file Inter-processor interrupts (wake-ups).
 *
 * An IPI sets the target's software-interrupt pending bit, which ends its
 * wfi. hartpool never takes the interrupt as a trap: a woken hart clears its
 * own pending bit (hal_sleep_prepare) and re-checks what it waits for.
 */
#ifndef HAL_IPI_H
#define HAL_IPI_H

#include <hal/hartmask.h>

/** Make hart @p idx's pending bit set. Orders earlier stores before it. */
void hal_ipi_send(unsigned idx);

/** Send an IPI to every hart in @p m whose bit this call clears. Starts
 * with a full fence, so a condition stored before is visible to every hart
 * that registered in @p m after reading it. */
void hal_ipi_send_mask_clear(hal_hartmask *m);

/** Clear the calling hart's pending IPI. */
void hal_ipi_clear_self(void);

#endif
