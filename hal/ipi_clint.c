// SPDX-License-Identifier: MIT
/* IPIs through the CLINT / ACLINT MSWI: one 32-bit msip word per hart id. */
#include "mmio.h"
#include <board.h>
#include <hal/csr.h>
#include <hal/ipi.h>

static uintptr_t msip_addr(uint32_t hart_id)
{
	return BOARD_CLINT_BASE + BOARD_CLINT_MSIP_OFFSET + 4u * hart_id;
}

void hal_ipi_send(unsigned idx)
{
	mmio_fence(); /* the wakee must see what we published */
	mmio_write32(msip_addr(hal_hart_id(idx)), 1);
}

void hal_ipi_clear_self(void)
{
	mmio_write32(msip_addr((uint32_t)csr_read(mhartid)), 0);
	mmio_fence(); /* clear before the caller re-reads its condition */
}
