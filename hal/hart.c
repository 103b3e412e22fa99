// SPDX-License-Identifier: MIT
/* The hart table: filled by the boot hart, read by boot/start.S to turn a
 * hart id into an index, and by hal_hart_id() afterwards. */
#include <hal/asm.h>
#include <hal/csr.h>
#include <hal/hart.h>

__thread unsigned hal_tls_hart_idx;

/* Sorted hart ids from the device tree (the lowest HAL_MAX_HARTS). */
uint32_t hal_hart_ids[HAL_MAX_HARTS];
/* HAL_HART_* bits, parallel to hal_hart_ids. */
uint8_t hal_hart_caps_tab[HAL_MAX_HARTS];
/* Entries of hal_hart_ids that are valid. */
unsigned hal_hart_found;
/* Harts in use: hal_hart_found capped by the run-time limit. */
unsigned hal_hart_used;

unsigned hal_hart_num(void)
{
	return hal_hart_used;
}

uint32_t hal_hart_id(unsigned idx)
{
	return hal_hart_ids[idx];
}

unsigned hal_hart_caps(unsigned idx)
{
	return hal_hart_caps_tab[idx];
}

unsigned hal_hart_vlenb(void)
{
#if HAL_VLENB_MAX
	if (csr_read(CSR_STATUS) & SR_VS)
		return (unsigned)csr_read(vlenb);
#endif
	return 0;
}
