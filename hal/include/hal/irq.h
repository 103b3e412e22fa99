/* SPDX-License-Identifier: MIT */
/**
 * @file Device interrupts through the platform interrupt controller, routed
 * to hart index 0 in M-mode. mstatus.MIE stays 0: an enabled, pending
 * interrupt only ends that hart's wfi (hal/sleep.h), and the hart then
 * claims it, serves the device and completes it. No trap handler.
 */
#ifndef HAL_IRQ_H
#define HAL_IRQ_H

/** Route interrupt @p source to hart index 0 and let it end that hart's
 * wfi (sets mie.MEIE of the calling hart: call on hart index 0). */
void hal_irq_enable(unsigned source);
/** The highest pending enabled source, now in service; 0 if none. */
unsigned hal_irq_claim(void);
/** Done with @p source (from hal_irq_claim): it may interrupt again. */
void hal_irq_complete(unsigned source);

#endif
