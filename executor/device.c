// SPDX-License-Identifier: MIT
/*
 * The device's description (exec_dev): the limits every layer of the core
 * checks against, and what the mailbox reports to the host (INFO). The
 * lowest layer of the core: it depends on nothing else here.
 */
#include "exec.h"
#include <hal/hart.h>
#include <stdio.h>

#ifndef BOARD_SUB_GROUP_SIZE
#define BOARD_SUB_GROUP_SIZE 8
#endif

exec_device exec_dev;

/* The hal_hart_caps() bits a hart needs to run the firmware's float code:
 * F and D where it uses doubles in FP registers (lp64d, ilp32d), F for a
 * single-precision build, both on the host (threads on the host CPU). */
#if defined(__riscv_flen) && __riscv_flen == 32
#define FW_FPU HAL_HART_F
#else
#define FW_FPU (HAL_HART_F | HAL_HART_D)
#endif

void exec_device_init(unsigned harts)
{
	exec_dev = (exec_device){
		.harts = harts,
		.address_bits = 8 * sizeof(size_t),
		.max_work_group_size = 256,
		.max_work_item_sizes = {256, 256, 64},
		.local_mem_size = 32 * 1024,
		.default_sub_group_size = BOARD_SUB_GROUP_SIZE,
		.sub_group_sizes = 0x7f, /* 1, 2, 4, ..., 64 */
		.fiber_stack_default = HP_FIBER_STACK_DEFAULT,
		.fiber_arena_size = 256 * 1024,
		.fiber_stack_scale = 1,
		.kernel_stack = HP_KERNEL_STACK_USE,
		.isolation = true,
	};
	/* Sanitizers: redzones and shadow frames. GCC says so with
	 * __SANITIZE_*__, clang (the fuzz targets) only through
	 * __has_feature. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	exec_dev.fiber_stack_scale = 16;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
	exec_dev.fiber_stack_scale = 16;
#endif
#endif
	/* The boot hart's vector unit stands for every hart's: the boards
	 * with V have one kind of hart. */
	exec_dev.vlenb = hal_hart_vlenb();
	if (exec_dev.vlenb >= 4 && exec_dev.vlenb / 4 <= 64)
		exec_dev.default_sub_group_size = exec_dev.vlenb / 4;
	for (unsigned i = 0; i < harts && i < HAL_MAX_HARTS; i++) {
		bool fpu = (hal_hart_caps(i) & FW_FPU) == FW_FPU;
		exec_dev.caps[i] = fpu ? EXEC_CAP_FPU : 0;
		exec_dev.without_fpu += !fpu;
	}
}

unsigned exec_kernel_needs(const hp_kernel *k)
{
#if defined(__riscv) && !defined(__riscv_flen)
	/* Soft float: float code is integer instructions and libgcc. */
	(void)k;
	return 0;
#else
	/* A barrier kernel's code saves the FP callee-saved registers: its
	 * barriers leave them to the compiler (kernel.h, docs/design.md, 43),
	 * so it runs only where there is an FPU. */
	return k->uses_fpu || k->uses_barriers ? EXEC_CAP_FPU : 0;
#endif
}

/* Does every hart of [first, first + n) have the bits `need`? */
static bool harts_have(const exec_device *dev, unsigned first, unsigned n,
		       unsigned need)
{
	for (unsigned i = first; i < first + n; i++)
		if ((dev->caps[i] & need) != need)
			return false;
	return true;
}

/* Why a kernel needs an FPU (exec_kernel_needs). */
static const char *fpu_why(const hp_kernel *k)
{
	return k->uses_fpu ? "uses the FPU"
			   : "has barriers, which need an FPU here";
}

int exec_kernel_supported(const exec_device *dev, const hp_kernel *k,
			  unsigned team, char *why, size_t why_size)
{
	unsigned need = exec_kernel_needs(k);
	if (!need || !dev->without_fpu)
		return 0;
	unsigned t = team > 1 ? team : 1;
	for (unsigned w = dev->first_worker; w + t <= dev->harts; w += t)
		if (harts_have(dev, w, t, need))
			return 0;
	if (why && why_size) {
		if (t > 1)
			snprintf(why, why_size,
				 "kernel %s %s: no team of %u worker harts has "
				 "one on every hart",
				 k->name ? k->name : "?", fpu_why(k), t);
		else
			snprintf(why, why_size,
				 "kernel %s %s: none of the %u worker harts in "
				 "use has one",
				 k->name ? k->name : "?", fpu_why(k),
				 dev->harts - dev->first_worker);
	}
	return HP_KERNEL_NOT_SUPPORTED;
}
