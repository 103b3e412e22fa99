// SPDX-License-Identifier: MIT
/*
 * The kernel API table loaded kernel objects call the firmware through
 * (hartpool/api.h): one entry per function, in the order of the list.
 */
#include <executor/exec.h>
#include <hartpool/api.h>

const struct hp_api exec_api = {
	.version = HP_API_VERSION,
	.count = HP_API_COUNT,
#define API_VOID_(name, params, args) .name = hp_##name,
#define API_(ret, name, params, args) .name = hp_##name,
	HP_API_VOID_FUNCS(API_VOID_) HP_API_FUNCS(API_)
#ifdef __riscv
		.yield_wg = hp_yield_wg,
	.yield_sg = hp_yield_sg,
#endif
	.cl_printf = hp_cl_printf,
	.wg_diverged = hp_wg_diverged,
#undef API_VOID_
#undef API_
};
