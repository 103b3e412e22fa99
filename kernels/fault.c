// SPDX-License-Identifier: MIT
/*
 * Kernels that fault on purpose, for the fault-containment tests
 * (docs/faults.md). Every work-item writes out[glin] = 1 except the victim
 * (global linear id `victim`), which does the bad thing instead. The
 * command must end with HP_KERNEL_FAULT (HP_TIMEOUT for hang) and the
 * device must go on serving.
 */
#include <board.h>
#include <hartpool/kernel.h>
#include <hartpool/kernels/diag.h>

#define FAULT_KERNEL(name, bad)                                                \
	HP_KERNEL(name, const hp_item *it, const void *args)                   \
	{                                                                      \
		const hp_fault_args *a = args;                                 \
		size_t i = hp_global_linear_id(it);                            \
		uint32_t *out = (uint32_t *)(uintptr_t)a->out;                 \
		if (i == a->victim) {                                          \
			bad;                                                   \
		}                                                              \
		out[i] = 1;                                                    \
	}                                                                      \
	HP_REGISTER(                                                           \
		name, .args_size = sizeof(hp_fault_args),                      \
		HP_BUFFERS(HP_BUF(hp_fault_args, out, uint32_t, ITEMS, 0)))

/* An all-zero word is an illegal instruction on every RISC-V. */
FAULT_KERNEL(fault_illegal, __asm__ volatile(".4byte 0" ::: "memory"));

/* Reads the mailbox rings: firmware memory no kernel may touch. */
FAULT_KERNEL(fault_load, {
	volatile uint32_t *p =
		(volatile uint32_t *)(uintptr_t)(BOARD_MBOX_BASE + 16384);
	out[i] = *p;
});

/* Writes the firmware's code (the first page kernels may execute). */
FAULT_KERNEL(fault_store, {
	extern char __text_start[];
	*(volatile uint32_t *)(uintptr_t)__text_start = 0;
});

/* An atomic on an address that is not 4-byte aligned. */
FAULT_KERNEL(fault_misaligned, {
	uint32_t *p = (uint32_t *)((uintptr_t)(out + i) + 1);
	__atomic_fetch_add(p, 1u, __ATOMIC_RELAXED);
});

FAULT_KERNEL(fault_ebreak, __asm__ volatile("ebreak" ::: "memory"));

/* Tries to leave U-mode's rules: reads a machine CSR (illegal there). */
FAULT_KERNEL(fault_csr, {
	unsigned long v;
	__asm__ volatile("csrr %0, mstatus" : "=r"(v)::"memory");
	out[i] = (uint32_t)v;
});

/* Writes the firmware's data (its first .data word). */
FAULT_KERNEL(fault_data, {
	extern char __data_start[];
	uintptr_t at = (uintptr_t)__data_start;
	__asm__("" : "+r"(at)); /* one word store, not byte by byte */
	*(volatile uint32_t *)at = 0;
});

/* Writes a device register: the CLINT's software interrupt of hart id 0. */
#ifdef BOARD_CLINT_BASE
#define FAULT_MMIO_ADDR BOARD_CLINT_BASE
#else
#define FAULT_MMIO_ADDR 0x02000000UL /* S-mode boards: QEMU virt's CLINT */
#endif
FAULT_KERNEL(fault_mmio, *(volatile uint32_t *)(uintptr_t)FAULT_MMIO_ADDR = 1);

/* Runs code it wrote into its buffer (a `ret`): memory that is not code
 * cannot be executed. */
FAULT_KERNEL(fault_exec, {
	out[i] = 0x00008067u; /* ret */
	__asm__ volatile("fence.i" ::: "memory");
	((void (*)(void))(uintptr_t)(out + i))();
});

/* An ecall for a service that does not exist. */
FAULT_KERNEL(fault_ecall, __asm__ volatile("li a7, 999\n\tecall"
					   :
					   :
					   : "a7", "memory"));

/* Spins until the watchdog stops it. */
FAULT_KERNEL(hang, for (;;) __asm__ volatile("" ::: "memory"));

/* Recursion far past the work-item's stack (a fiber: the kernel says it
 * uses barriers). Each level keeps a page on its stack. */
static __attribute__((noinline)) unsigned deep(volatile uint32_t *p, unsigned n)
{
	volatile unsigned pad[256];
	pad[n % 256] = n;
	if (n == 0)
		return pad[0];
	return deep(p, n - 1) + pad[(n * 7) % 256];
}

/* The same recursion on the kernel stack (no fiber). */
FAULT_KERNEL(fault_kstack, out[i] = deep(out + i, 1u << 20));

HP_KERNEL(fault_stack, const hp_item *it, const void *args)
{
	const hp_fault_args *a = args;
	size_t i = hp_global_linear_id(it);
	uint32_t *out = (uint32_t *)(uintptr_t)a->out;
	hp_barrier(it);
	if (i == a->victim)
		out[i] = deep(out + i, 1u << 20);
	else
		out[i] = 1;
}
HP_REGISTER(fault_stack, .args_size = sizeof(hp_fault_args),
	    .uses_barriers = true,
	    HP_BUFFERS(HP_BUF(hp_fault_args, out, uint32_t, ITEMS, 0)));

/* Stores `value` at `addr`, a raw address the device does not check (no
 * declared buffer): only the isolation stands between it and whatever lies
 * there, e.g. another session's buffer (docs/faults.md). */
HP_KERNEL(poke, const hp_item *it, const void *args)
{
	const hp_poke_args *a = args;
	if (hp_global_linear_id(it) == 0)
		*(volatile uint32_t *)(uintptr_t)a->addr = a->value;
}
HP_REGISTER(poke, .args_size = sizeof(hp_poke_args));

/* Plants a pattern where a kernel keeps its own data (a private array on
 * its stack, its group's local memory), says where, and waits for the host
 * to let it go; then counts what changed meanwhile (hp_lurk_args). */
HP_KERNEL(lurk, const hp_item *it, const void *args)
{
	const hp_lurk_args *a = args;
	size_t i = hp_global_linear_id(it);
	volatile uint64_t *out = HP_PTR(volatile uint64_t, a->out) + 3 * i;
	volatile uint32_t *flag = HP_PTR(volatile uint32_t, a->flag);
	volatile uint32_t priv[HP_LURK_WORDS];
	volatile uint32_t *lm = hp_local_mem(it);
	uint32_t tag = 0x1a2b0000u ^ (uint32_t)i;
	for (unsigned w = 0; w < HP_LURK_WORDS; w++) {
		priv[w] = tag ^ w;
		lm[w] = ~tag ^ w;
	}
	out[0] = (uint64_t)(uintptr_t)priv;
	out[1] = (uint64_t)(uintptr_t)lm;
	uint64_t seen = 0;
	for (uint64_t n = 0; n < a->iters && !seen; n++)
		seen = *flag != 0;
	uint64_t changed = 0;
	for (unsigned w = 0; w < HP_LURK_WORDS; w++)
		changed += (priv[w] != (tag ^ w)) + (lm[w] != (~tag ^ w));
	out[2] = changed | seen << 32;
}
HP_REGISTER(lurk, .args_size = sizeof(hp_lurk_args),
	    .local_mem_bytes = HP_LURK_WORDS * 4,
	    HP_BUFFERS(HP_BUF(hp_lurk_args, out, hp_lurk_out, ITEMS, 0),
		       HP_BUF(hp_lurk_args, flag, uint32_t, FIXED, 1)));
