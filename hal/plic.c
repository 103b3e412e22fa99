// SPDX-License-Identifier: MIT
/* Device interrupts on a RISC-V PLIC (QEMU virt layout), one context: hart
 * index 0 in M-mode (BOARD_PLIC_CONTEXT_HART0). See hal/irq.h. */
#include "mmio.h"
#include <board.h>
#include <hal/csr.h>
#include <hal/irq.h>

#define CTX BOARD_PLIC_CONTEXT_HART0
#define PLIC_PRIORITY(src) (BOARD_PLIC_BASE + 4 * (uintptr_t)(src))
#define PLIC_ENABLE(src)                                                       \
	(BOARD_PLIC_BASE + 0x2000 + CTX * 0x80 + 4 * (uintptr_t)((src) / 32))
#define PLIC_THRESHOLD (BOARD_PLIC_BASE + 0x200000 + CTX * 0x1000)
#define PLIC_CLAIM (PLIC_THRESHOLD + 4)

void hal_irq_enable(unsigned src)
{
	uintptr_t en = PLIC_ENABLE(src);
	/* Priority 0 would mean "never"; threshold 0 lets every other one
	 * through. */
	mmio_write32(PLIC_PRIORITY(src), 1);
	mmio_write32(en, mmio_read32(en) | 1u << (src % 32));
	mmio_write32(PLIC_THRESHOLD, 0);
	csr_set(mie, MIP_MEIP);
}

unsigned hal_irq_claim(void)
{
	return mmio_read32(PLIC_CLAIM);
}

void hal_irq_complete(unsigned src)
{
	mmio_write32(PLIC_CLAIM, src);
}
