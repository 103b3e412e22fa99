/* SPDX-License-Identifier: MIT */
/**
 * @file The host's bell: how the device interrupts a host beside it
 * (docs/boards/qemu-virt-amp.md). A PCI function of the host's domain
 * whose BAR0 holds a register that raises its interrupt when written
 * (QEMU's edu device: 0x60); the host's kernel enumerates the function
 * and assigns the BAR, so each ring reads where the BAR is now from the
 * function's configuration space (ECAM) and rings only while the
 * function decodes memory.
 */
#ifndef HAL_HOST_BELL_H
#define HAL_HOST_BELL_H

#include <stdbool.h>
#include <stdint.h>

/** Ring the function whose configuration space (ECAM) is at @p cfg by
 * writing 1 at BAR0 + @p reg. False (and no bell) if no function answers
 * there, its BAR0 is not a memory BAR, or @p reg is not a 4-aligned
 * offset below 1 MiB. */
bool hal_host_bell_setup(uintptr_t cfg, uint32_t reg);
/** Ring it, if the host has the function enabled; any hart, any time. */
void hal_host_bell_ring(void);

#endif
