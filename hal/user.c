// SPDX-License-Identifier: MIT
/* U-mode for kernels, the part that does not depend on how memory is
 * protected (hal/pmp.c: the PMP in M-mode; hal/mmu_sv39.c: page tables in
 * S-mode): the call into U-mode and back, and the firmware side of the
 * ecall services. See hal/isolation.h. */
#include <hal/csr.h>
#include <hal/ipi.h>
#include <hal/isolation.h>
#include <hal/jump.h>
#include <stddef.h>

extern char __text_start[], __rodata_end[], __heap_start[], __heap_end[];

/* The recovery point hal_user_call()'s caller made: the firmware context
 * the HAL_SYS_EXIT ecall resumes (boot's trap entry takes that ecall on a
 * fast path). Kernels can read TLS blocks but not write them. */
static __thread hal_jmp_buf *user_ret;

__attribute__((noreturn)) void hal_user_enter(void (*fn)(void *), void *arg,
					      void *stack_top);

void hal_user_call(hal_jmp_buf *ret, void (*fn)(void *), void *arg,
		   void *stack_top)
{
	user_ret = ret;
	hal_user_enter(fn, arg, stack_top);
}

__attribute__((noreturn)) void hal_user_resume_enter(const hal_user_regs *r);

_Static_assert(sizeof(hal_user_regs) == HAL_UREGS_SIZE, "hal_user_regs");
_Static_assert(offsetof(hal_user_regs, f) == HAL_UREGS_F(0), "UREGS_F");
#if HAL_VLENB_MAX
_Static_assert(offsetof(hal_user_regs, vs) == HAL_UREGS_VS, "UREGS_VS");
_Static_assert(offsetof(hal_user_regs, v) == HAL_UREGS_V, "UREGS_V");
#endif

/* Below the trap area's top (its reserved words: the hart's tp and id). */
#define TRAP_AREA_KEEP 64

void hal_user_resume(hal_jmp_buf *ret, const hal_user_regs *r)
{
	user_ret = ret;
	/* A copy in the hart's trap area, which S-mode still reaches once a
	 * kernel's page table is live (the trap area is free: no trap is
	 * being handled, and interrupts are off until the xRET). */
	uintptr_t top = csr_read(CSR_SCRATCH) - TRAP_AREA_KEEP;
	hal_user_regs *t =
		(hal_user_regs *)((top - sizeof(*t)) & ~(uintptr_t)15);
	*t = *r;
	hal_user_resume_enter(t);
}

void hal_user_return(void)
{
	hal_longjmp(user_ret, HAL_USER_RETURNED);
}

unsigned long hal_user_wait_begin(void)
{
	unsigned long saved = csr_read(CSR_IE);
	csr_write(CSR_IE, saved | IE_SOFT);
	return saved;
}

void hal_user_wait_end(unsigned long saved)
{
	csr_write(CSR_IE, saved);
	hal_ipi_clear_self();
}

bool hal_user_heap_has(uintptr_t p, size_t n)
{
	return p >= (uintptr_t)__heap_start && p <= (uintptr_t)__heap_end &&
	       n <= (uintptr_t)__heap_end - p;
}

bool hal_rodata_has(uintptr_t p)
{
	return p >= (uintptr_t)__text_start && p < (uintptr_t)__rodata_end;
}
