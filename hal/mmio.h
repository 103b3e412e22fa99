/* SPDX-License-Identifier: MIT */
/* Device register access for the firmware HAL files (not a public header). */
#ifndef HAL_MMIO_H
#define HAL_MMIO_H

#include <stdint.h>

static inline void mmio_write32(uintptr_t addr, uint32_t v)
{
	*(volatile uint32_t *)addr = v;
}
static inline uint32_t mmio_read32(uintptr_t addr)
{
	return *(volatile uint32_t *)addr;
}
static inline void mmio_write8(uintptr_t addr, uint8_t v)
{
	*(volatile uint8_t *)addr = v;
}
static inline uint8_t mmio_read8(uintptr_t addr)
{
	return *(volatile uint8_t *)addr;
}
/* Order all earlier memory and device accesses before all later ones. */
static inline void mmio_fence(void)
{
	__asm__ volatile("fence iorw, iorw" ::: "memory");
}

#endif
