// SPDX-License-Identifier: MIT
/* The host's bell through a PCI function (hal/host_bell.h). */
#include <hal/host_bell.h>

#define PCI_ID 0x00
#define PCI_COMMAND 0x04 /* low half; bit 1: memory space decoded */
#define PCI_BAR0 0x10
#define PCI_MEM_ENABLE 0x2u

static volatile uint32_t *bell_cfg;
static uint32_t bell_reg;

static uint32_t cfg_read(unsigned off)
{
	return bell_cfg[off / 4];
}

bool hal_host_bell_setup(uintptr_t cfg, uint32_t reg)
{
	if (!cfg || cfg % 4096 || reg % 4 || reg >= (1u << 20))
		return false;
	bell_cfg = (volatile uint32_t *)cfg;
	uint32_t id = cfg_read(PCI_ID);
	/* No function: all ones; BAR0 an I/O BAR: bit 0. */
	if (id == 0xffffffffu || id == 0 || (cfg_read(PCI_BAR0) & 1u)) {
		bell_cfg = 0;
		return false;
	}
	bell_reg = reg;
	return true;
}

void hal_host_bell_ring(void)
{
	if (!bell_cfg || !(cfg_read(PCI_COMMAND) & PCI_MEM_ENABLE))
		return;
	uint32_t lo = cfg_read(PCI_BAR0);
	uint64_t bar = lo & ~0xfull;
	if ((lo & 0x6u) == 0x4u) /* a 64-bit BAR: the high half next */
		bar |= (uint64_t)cfg_read(PCI_BAR0 + 4) << 32;
	if (!bar || bar > UINTPTR_MAX - bell_reg)
		return;
	__asm__ volatile("fence w, o" ::: "memory"); /* the record first */
	*(volatile uint32_t *)(uintptr_t)(bar + bell_reg) = 1;
}
