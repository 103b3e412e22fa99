/* SPDX-License-Identifier: MIT */
/**
 * @file Device interrupts through the platform interrupt controller, routed
 * to hart index 0 in the firmware's mode (M or S). The global interrupt
 * enable (mstatus.MIE / sstatus.SIE) stays 0: an enabled, pending
 * interrupt only ends that hart's wfi (hal/sleep.h), and the hart then
 * claims it, serves the device and completes it. No trap handler.
 */
#ifndef HAL_IRQ_H
#define HAL_IRQ_H

#include <stdbool.h>
#include <stdint.h>

/** The controller at @p base and hart index 0's context @p context (-1:
 * none): S-mode boards, from the device tree, before hal_irq_enable. */
void hal_irq_setup(uintptr_t base, long context);
/** Route interrupt @p source to hart index 0 and let it end that hart's
 * wfi (sets the calling hart's external interrupt enable: call on hart
 * index 0). False if there is no controller or context to route it by. */
bool hal_irq_enable(unsigned source);
/** The highest pending enabled source, now in service; 0 if none. */
unsigned hal_irq_claim(void);
/** Done with @p source (from hal_irq_claim): it may interrupt again. */
void hal_irq_complete(unsigned source);

#endif
