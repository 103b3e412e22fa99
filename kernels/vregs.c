// SPDX-License-Identifier: MIT
/*
 * vregs (include/hartpool/kernels/diag.h): a kernel whose vector state must
 * live through everything the firmware does while it runs (traps, time
 * slices, the other sessions' kernels on its hart between its slices:
 * docs/vector.md). Only where the firmware is built for a board with V;
 * the firmware's compiler (GCC 12) emits no vector code of its own, so the
 * registers hold only what the assembly below puts there.
 */
#include <hartpool/kernel.h>
#include <hartpool/kernels/diag.h>

#if defined(__riscv_vector)

/* A vector register's bytes, at most (BOARD_VLEN_MAX 512 / 8). */
#define VLENB_MAX 64u

static unsigned long vlenb(void)
{
	unsigned long b;
	__asm__ volatile("csrr %0, vlenb" : "=r"(b));
	return b;
}

/* Byte j of register r for the pattern base p. */
static unsigned char want(unsigned p, unsigned r, unsigned long lenb,
			  unsigned long j)
{
	return (unsigned char)(p + (r % 8) * lenb + j + (r / 8) * 41);
}

/* The pattern in v0-v31 (vid.v over each group of eight, plus the base),
 * then vl = 5 at e32, m1. */
static void fill(unsigned p)
{
	__asm__ volatile("vsetvli t0, zero, e8, m8, ta, ma\n\t"
			 "vid.v v0\n\t"
			 "vadd.vx v0, v0, %0\n\t"
			 "vid.v v8\n\t"
			 "vadd.vx v8, v8, %1\n\t"
			 "vid.v v16\n\t"
			 "vadd.vx v16, v16, %2\n\t"
			 "vid.v v24\n\t"
			 "vadd.vx v24, v24, %3\n\t"
			 "vsetivli zero, 5, e32, m1, ta, ma"
			 :
			 : "r"(p), "r"(p + 41), "r"(p + 82), "r"(p + 123)
			 : "t0", "memory");
}

/* Registers 8k..8k+7 as they are now (a whole-register store: vl and
 * vtype stay as they are). */
static void dump(unsigned k, unsigned char *buf)
{
	switch (k) {
	case 0:
		__asm__ volatile("vs8r.v v0, (%0)" : : "r"(buf) : "memory");
		break;
	case 1:
		__asm__ volatile("vs8r.v v8, (%0)" : : "r"(buf) : "memory");
		break;
	case 2:
		__asm__ volatile("vs8r.v v16, (%0)" : : "r"(buf) : "memory");
		break;
	default:
		__asm__ volatile("vs8r.v v24, (%0)" : : "r"(buf) : "memory");
		break;
	}
}

static void vl_vtype(unsigned long *vl, unsigned long *vtype)
{
	__asm__ volatile("csrr %0, vl\n\tcsrr %1, vtype"
			 : "=r"(*vl), "=r"(*vtype));
}

/* Are the vector state's registers, vl and vtype what fill() set? */
static bool intact(unsigned p, unsigned long lenb, unsigned long vl0,
		   unsigned long vtype0)
{
	unsigned char buf[8 * VLENB_MAX];
	unsigned long vl, vtype;
	vl_vtype(&vl, &vtype);
	if (vl != vl0 || vtype != vtype0)
		return false;
	for (unsigned k = 0; k < 4; k++) {
		dump(k, buf);
		for (unsigned r = 0; r < 8; r++)
			for (unsigned long j = 0; j < lenb; j++)
				if (buf[r * lenb + j] !=
				    want(p, 8 * k + r, lenb, j))
					return false;
	}
	return true;
}

/* Bytes of the vector registers that are not zero. */
static uint32_t nonzero(unsigned long lenb)
{
	unsigned char buf[8 * VLENB_MAX];
	uint32_t n = 0;
	for (unsigned k = 0; k < 4; k++) {
		dump(k, buf);
		for (unsigned long j = 0; j < 8 * lenb; j++)
			n += buf[j] != 0;
	}
	return n;
}

HP_KERNEL(vregs, const hp_item *it, const void *args)
{
	const hp_vregs_args *a = args;
	size_t g = hp_global_linear_id(it);
	unsigned long lenb = vlenb();
	if (!a->iters) {
		((uint32_t *)(uintptr_t)a->out)[g] = nonzero(lenb);
		return;
	}
	unsigned p = (unsigned)(a->seed + g);
	unsigned long vl0, vtype0;
	uint32_t bad = 0, x = (uint32_t)g + 1;
	fill(p);
	vl_vtype(&vl0, &vtype0);
	for (uint64_t i = 0; i < a->iters; i++) {
		x = x * 1664525u + 1013904223u;
		__asm__ volatile("" : "+r"(x));
		if (i % 1024 == 1023)
			bad += !intact(p, lenb, vl0, vtype0);
	}
	((uint32_t *)(uintptr_t)a->out)[g] = bad;
}
HP_REGISTER(vregs, .args_size = sizeof(hp_vregs_args),
	    HP_BUFFERS(HP_BUF(hp_vregs_args, out, uint32_t, ITEMS, 0)));

#endif
