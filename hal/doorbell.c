// SPDX-License-Identifier: MIT
/* The hartpool doorbell device (hal/doorbell.h, docs/barrier-unit.md). */
#include "mmio.h"
#include <board.h>
#include <hal/doorbell.h>
#include <hal/irq.h>

#define DB_ID 0x00u
#define DB_ACK 0x0cu
#define DB_ID_VALUE 0x42445048u /* "HPDB" */

static uintptr_t db_base;
static unsigned db_irq;

bool hal_doorbell_setup(uintptr_t base, unsigned irq)
{
#if defined(BOARD_DOORBELL_BASE) && defined(BOARD_DOORBELL_IRQ)
	if (!base) {
		base = BOARD_DOORBELL_BASE;
		irq = BOARD_DOORBELL_IRQ;
	}
#endif
	if (!base || !irq || mmio_read32(base + DB_ID) != DB_ID_VALUE)
		return false;
	mmio_write32(base + DB_ACK, 1u);
	if (!hal_irq_enable(irq))
		return false;
	db_base = base;
	db_irq = irq;
	return true;
}

unsigned hal_doorbell_irq(void)
{
	return db_irq;
}

void hal_doorbell_ack(void)
{
	mmio_write32(db_base + DB_ACK, 1u);
}
