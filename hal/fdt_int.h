/* SPDX-License-Identifier: MIT */
/* What the device tree reader's files share (private to hal/): fdt.c asks
 * isa.c what a cpu node's riscv,isa string says. */
#ifndef HAL_FDT_INT_H
#define HAL_FDT_INT_H

#include <stdint.h>

/** The FDT_HART_* capabilities (hal/fdt.h) of the riscv,isa value @p v of
 * @p len bytes: F, D and S; 0 for a string that is not rv32 or rv64. */
uint8_t fdt_isa_caps(const uint8_t *v, uint32_t len);

#endif
