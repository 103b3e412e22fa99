// SPDX-License-Identifier: MIT
/* Device interrupts on a RISC-V PLIC, one context: hart index 0 in the
 * firmware's mode. M-mode boards name it in board.h (BOARD_PLIC_BASE,
 * BOARD_PLIC_CONTEXT_HART0); S-mode boards take it from the device tree
 * (hal_irq_setup). See hal/irq.h. */
#include "mmio.h"
#include <board.h>
#include <hal/csr.h>
#include <hal/irq.h>

#ifdef BOARD_PLIC_BASE
static uintptr_t plic = BOARD_PLIC_BASE;
static long ctx = BOARD_PLIC_CONTEXT_HART0;
#else
static uintptr_t plic;
static long ctx = -1;
#endif

#define PLIC_PRIORITY(src) (plic + 4 * (uintptr_t)(src))
#define PLIC_ENABLE(src)                                                       \
	(plic + 0x2000 + (uintptr_t)ctx * 0x80 + 4 * (uintptr_t)((src) / 32))
#define PLIC_THRESHOLD (plic + 0x200000 + (uintptr_t)ctx * 0x1000)
#define PLIC_CLAIM (PLIC_THRESHOLD + 4)

void hal_irq_setup(uintptr_t base, long context)
{
	plic = base;
	ctx = context;
}

bool hal_irq_enable(unsigned src)
{
	if (!plic || ctx < 0 || src == 0)
		return false;
	uintptr_t en = PLIC_ENABLE(src);
	/* Priority 0 would mean "never"; threshold 0 lets every other one
	 * through. */
	mmio_write32(PLIC_PRIORITY(src), 1);
	mmio_write32(en, mmio_read32(en) | 1u << (src % 32));
	mmio_write32(PLIC_THRESHOLD, 0);
	csr_set(CSR_IE, IE_EXT);
	return true;
}

unsigned hal_irq_claim(void)
{
	if (!plic || ctx < 0)
		return 0;
	return mmio_read32(PLIC_CLAIM);
}

void hal_irq_complete(unsigned src)
{
	if (plic && ctx >= 0)
		mmio_write32(PLIC_CLAIM, src);
}
