// SPDX-License-Identifier: MIT
/*
 * y = a * x + y over n floats with RVV intrinsics: each work-item takes
 * `per_item` consecutive elements and strip-mines them, vl elements at a
 * time (vsetvl: the last pass takes what is left). Boards with V only
 * (docs/vector.md): `hartpool build` compiles C with clang-19 there.
 *
 *   hartpool build --board qemu-virt-v examples/saxpy_rvv.c -o saxpy_rvv.hpk
 *   hartpool run --board qemu-virt-v --kernel-file saxpy_rvv.hpk saxpy_rvv \
 *           --global 16 --karg buf:f32:1000:iota --karg buf:f32:1000:1 \
 *           --karg u64:1000 --karg f32:2.5 --karg u32:64 --print 8
 */
#include <hartpool/kernel.h>
#if !defined(__riscv_vector)
#error "saxpy_rvv needs a board with the vector extension (docs/vector.md)"
#endif
#include <riscv_vector.h>

struct saxpy_rvv_args {
	uint64_t x, y; /* float[n] */
	uint64_t n;
	float a;
	uint32_t per_item; /* elements per work-item */
};

HP_KERNEL(saxpy_rvv, const hp_item *it, const void *args)
{
	const struct saxpy_rvv_args *p = args;
	const float *x = HP_PTR(const float, p->x);
	float *y = HP_PTR(float, p->y);
	size_t i = hp_global_id(it, 0) * p->per_item;
	size_t end = i + p->per_item < p->n ? i + p->per_item : p->n;
	while (i < end) {
		size_t vl = __riscv_vsetvl_e32m8(end - i);
		vfloat32m8_t vx = __riscv_vle32_v_f32m8(x + i, vl);
		vfloat32m8_t vy = __riscv_vle32_v_f32m8(y + i, vl);
		vy = __riscv_vfmacc_vf_f32m8(vy, p->a, vx, vl);
		__riscv_vse32_v_f32m8(y + i, vy, vl);
		i += vl;
	}
}
HP_REGISTER(saxpy_rvv, .args_size = sizeof(struct saxpy_rvv_args),
	    HP_BUFFERS(HP_BUF(struct saxpy_rvv_args, x, float, ARG,
			      offsetof(struct saxpy_rvv_args, n)),
		       HP_BUF(struct saxpy_rvv_args, y, float, ARG,
			      offsetof(struct saxpy_rvv_args, n))));
