/* SPDX-License-Identifier: MIT */
/**
 * @file The host's doorbell (docs/barrier-unit.md, "hartpool,doorbell"):
 * a device that raises an interrupt through the platform interrupt
 * controller (hal/irq.h, routed to hart index 0) whenever the host rings.
 * (The device can also ring the host back, NOTIFY; nothing uses that yet.)
 * Boards without one leave it unset; the
 * dispatcher then polls on a timer.
 */
#ifndef HAL_DOORBELL_H
#define HAL_DOORBELL_H

#include <stdbool.h>
#include <stdint.h>

/** Use the doorbell at @p base on interrupt source @p irq (the device
 * tree's; 0, 0: the board's default, if any); on hart index 0. False if
 * there is none, it does not answer, or its interrupt cannot be routed. */
bool hal_doorbell_setup(uintptr_t base, unsigned irq);
/** Its interrupt source, 0 if there is no doorbell. */
unsigned hal_doorbell_irq(void);
/** The ring was seen: lower the interrupt until the next one. */
void hal_doorbell_ack(void);

#endif
