/* SPDX-License-Identifier: MIT */
/**
 * @file The kernel API: what a hartpool kernel is written against.
 *
 * A kernel is a C function run once per work-item, OpenCL-style:
 *
 *     #include <hartpool/kernel.h>
 *
 *     HP_KERNEL(vadd, const hp_item *it, const void *args)
 *     {
 *             const struct vadd_args *a = args;
 *             size_t i = hp_global_id(it, 0);
 *             ...
 *     }
 *     HP_REGISTER(vadd, .args_size = sizeof(struct vadd_args));
 *
 * and listed in the registry (kernels/registry.c). The accessors are named
 * after the OpenCL built-ins (get_global_id -> hp_global_id, ...) and follow
 * OpenCL 3.0 section 3.2.1: dimensions >= hp_work_dim() report size 1 and
 * id 0, and so does any dimension >= 3.
 *
 * A kernel that calls hp_barrier() or any sub-group function must say so
 * with `.uses_barriers = true`: its work-items then run as fibers that can
 * wait for each other. Barrier-free kernels run as a plain loop.
 */
#ifndef HARTPOOL_KERNEL_H
#define HARTPOOL_KERNEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- launch and work-item state (read through the accessors only) ---- */

/** A launch after validation: every size normalised to 3 dimensions. */
typedef struct hp_launch {
	unsigned work_dim;
	size_t global_size[3];	 /**< 1 beyond work_dim */
	size_t global_offset[3]; /**< 0 beyond work_dim */
	size_t local_size[3];	 /**< enqueued local size; 1 beyond work_dim */
	size_t num_groups[3];
	size_t total_groups;
	size_t enqueued_linear; /**< product of local_size */
	unsigned sub_group_size;
	unsigned enqueued_num_sub_groups;
	unsigned max_sub_group_size;
	unsigned team_size; /**< harts sharing one work-group */
	unsigned schedule;  /**< how harts claim groups (executor/exec.h) */
	size_t chunk;	    /**< groups per claim (fixed schedule) */
	/** Bytes of a vector register of the harts that run it (vlenb), 0
	 * where the vector unit is off; set on boards with V only (kernels
	 * built without V do not read it). */
	unsigned vector_bytes;
	/** Which space an address is in (OpenCL C's to_global, to_local,
	 * get_fence): the device's global memory (the buffer heap) and the
	 * bytes of each work-group's local memory. */
	uintptr_t global_base;
	size_t global_bytes;
	size_t local_bytes;
} hp_launch;

struct exec_wg;	   /* the executor's per-work-group fiber state */
struct exec_kview; /* the executor's kernel-visible instance state */

/** One work-group as seen from one hart. */
typedef struct hp_group {
	const hp_launch *l;
	size_t group_id[3];
	size_t local_size[3]; /**< actual: smaller in remainder groups */
	size_t linear_size;   /**< product of local_size */
	unsigned num_sub_groups;
	void *local_mem;
	struct exec_wg *wg; /**< NULL when the kernel has no barriers */
	struct exec_kview *kv;
} hp_group;

/** One work-item. */
typedef struct hp_item {
	const hp_group *g;
	size_t global_id[3];
	size_t local_id[3];
	size_t local_linear_id;
	/** The executor's fiber of this work-item (kernels with barriers),
	 * else NULL: where hp_barrier() and the sub-group functions switch
	 * from. */
	void *fiber;
	/* Sub-group collectives of barrier kernels (the executor's; the
	 * inline functions below use them): */
	uint64_t *sg_acc;   /**< the sub-group's accumulators, one per bank */
	uint64_t *sg_slots; /**< lane 0's slot of bank 0 (HP_SG_BANK_STRIDE) */
	uint32_t sg_lane;   /**< sub-group local id */
	uint32_t sg_size;   /**< items of the sub-group */
	uint32_t sg_count;  /**< collectives passed: the bank is its parity */
} hp_item;

/* ---- kernel descriptor and registration ---- */

typedef void (*hp_kernel_fn)(const hp_item *it, const void *args);
/** Runs @p n work-items along dimension 0 starting at @p it (a row of a
 * work-group): the kernel body inlined into one loop. */
typedef void (*hp_kernel_row_fn)(const hp_item *it, const void *args, size_t n);

/** How many elements a buffer argument spans (checked before launch). */
enum hp_extent {
	HP_EXTENT_ITEMS,  /**< one element per work-item of the NDRange */
	HP_EXTENT_GROUPS, /**< one element per work-group */
	HP_EXTENT_FIXED,  /**< `param` elements */
	HP_EXTENT_ARG,	  /**< the uint64_t argument at offset `param` */
	/** items of the NDRange plus the uint64_t argument at `param` (a
	 * kernel that writes at base + global linear id) */
	HP_EXTENT_ITEMS_PLUS_ARG,
};

/**
 * A buffer argument: a device address (uint64_t) at byte @p offset of the
 * argument block, spanning count(extent) * @p elem_size bytes. The mailbox
 * checks that the span lies inside one allocated buffer and that the
 * address is aligned to @p align (HP_INVALID_KERNEL_ARGS otherwise).
 */
typedef struct hp_arg_buffer {
	uint16_t offset;
	uint16_t align;
	uint32_t elem_size;
	uint32_t extent; /**< enum hp_extent */
	uint32_t param;
} hp_arg_buffer;

/**
 * Program-scope data kernels may write (like OpenCL's program-scope
 * __global variables): `static HP_KERNEL_DATA uint32_t hits[64];`. With
 * isolation on, kernels reach no other firmware data. Zero-initialised
 * only (cleared at boot; an initialiser is lost). In a kernel object any
 * writable global is such data, with its initialiser, one copy per loaded
 * object in its session's memory (docs/kernel-objects.md).
 */
#ifdef HP_KERNEL_OBJECT
#define HP_KERNEL_DATA
#else
#define HP_KERNEL_DATA __attribute__((section(".kdata")))
#endif

/** A barrier kernel's fiber stack per work-item when stack_bytes is 0. */
#define HP_FIBER_STACK_DEFAULT 1024u
/** The hart's stack for kernel code with isolation on (in the
 * kernel-visible heap, a 4 KiB no-access guard below it). */
#define HP_KERNEL_STACK_BYTES (32u << 10)
/** What a kernel without barriers may need of it (hp_kernel.stack_bytes):
 * the rest is the executor's frames and calls out of the object. */
#define HP_KERNEL_STACK_USE (HP_KERNEL_STACK_BYTES - (4u << 10))

/** A kernel and its attributes (OpenCL __attribute__s and more). */
typedef struct hp_kernel {
	const char *name;
	hp_kernel_fn fn;
	/** The row loop HP_KERNEL generates (barrier-free kernels run through
	 * it: no call per work-item); NULL: the executor calls fn per item. */
	hp_kernel_row_fn row;
	/** reqd_work_group_size(X,Y,Z); all 0 = none. */
	uint32_t reqd_work_group_size[3];
	/** max_work_group_size(N); 0 = the device limit. */
	uint32_t max_work_group_size;
	/** Required sub-group size; 0 = the board's default. */
	uint32_t sub_group_size;
	/** Bytes of local memory each work-group gets (hp_local_mem()). */
	uint32_t local_mem_bytes;
	/** Exact size of the argument block the kernel reads; 0 = none. */
	uint32_t args_size;
	/** Barrier kernels: the fiber stack per work-item (0: the default).
	 * Others: the bytes of the hart's kernel stack the kernel needs (0:
	 * unknown, it must fit); the build measures it for OpenCL C. */
	uint32_t stack_bytes;
	/** Calls hp_barrier() or sub-group functions. */
	bool uses_barriers;
	/** Computes with float or double (or moves them through FP
	 * registers): where the firmware is built for an FPU, its
	 * work-groups run only on harts that have one (docs/design.md, 34).
	 * Kernel objects need not set it: the loader finds FP instructions
	 * in their code. */
	bool uses_fpu;
	/** A barrier kernel whose `row` runs whole work-groups (a work-group
	 * function the OpenCL build made, docs/opencl.md): row(it, args, n)
	 * with @p it the group's first work-item (local id 0; `fiber` the
	 * group's scratch, stack_bytes per work-item, which may be 0) and n
	 * its work-items; `fn` is not used. With a team of harts the
	 * team's first runs the group. (In the padding after uses_fpu: the
	 * layout of older objects, where it is 0, is kept.) */
	bool row_is_group;
	/** A barrier-free kernel whose `row` may run past the end of a
	 * work-group: it reads no local or group ids and no local memory,
	 * so the executor may call row(it, args, m * local_size[0]) for m
	 * consecutive full groups of one row of groups, @p it the first
	 * group's first item (1-D local sizes only; docs/design.md, 81).
	 * (In the padding after row_is_group, 0 in older objects.) */
	bool row_spans_groups;
	/** The buffer arguments (set with HP_BUFFERS()). */
	const hp_arg_buffer *buffers;
	unsigned num_buffers;
} hp_kernel;

/**
 * Define kernel @p kname with the given parameter list (const hp_item *,
 * const void *) and the body that follows. Besides the per-work-item
 * function it generates the row loop, with the body inlined, the ids in
 * registers and, in the firmware, four work-items per iteration (GCC
 * unroll: the loop is the runtime's, not the kernel author's), which is how
 * barrier-free kernels run.
 */
/* Kernels built into the firmware get their row loop unrolled 4 times;
 * loaded objects do not, so that a gdb breakpoint on a kernel line stops in
 * every work-item (gdb sets one location per line and function, and the
 * unrolled copies are other addresses: docs/debugging.md). */
#ifdef HP_KERNEL_OBJECT
#define HP_ROW_UNROLL_
#else
#define HP_ROW_UNROLL_ _Pragma("GCC unroll 4")
#endif
#define HP_KERNEL(kname, ...)                                                  \
	static inline __attribute__((always_inline)) void hp_kbody_##kname(    \
		__VA_ARGS__);                                                  \
	void hp_kfn_##kname(const hp_item *hp_it_, const void *hp_args_);      \
	void hp_kfn_##kname(const hp_item *hp_it_, const void *hp_args_)       \
	{                                                                      \
		hp_kbody_##kname(hp_it_, hp_args_);                            \
	}                                                                      \
	void hp_krow_##kname(const hp_item *hp_it_, const void *hp_args_,      \
			     size_t hp_n_);                                    \
	void hp_krow_##kname(const hp_item *hp_it_, const void *hp_args_,      \
			     size_t hp_n_)                                     \
	{                                                                      \
		hp_item hp_i_ = *hp_it_;                                       \
		HP_ROW_UNROLL_ for (size_t hp_k_ = 0; hp_k_ < hp_n_; hp_k_++)  \
		{                                                              \
			hp_kbody_##kname(&hp_i_, hp_args_);                    \
			hp_i_.global_id[0]++;                                  \
			hp_i_.local_id[0]++;                                   \
			hp_i_.local_linear_id++;                               \
		}                                                              \
	}                                                                      \
	static inline __attribute__((always_inline)) void hp_kbody_##kname(    \
		__VA_ARGS__)

/**
 * Declare kernel @p name and its attributes as designated initialisers,
 * e.g. HP_REGISTER(k, .uses_barriers = true, .local_mem_bytes = 1024).
 * Defines `const hp_kernel hp_kernel_<name>` for the registry.
 */
#ifdef HP_KERNEL_OBJECT
/* In a kernel object the descriptors are collected in one section, which
 * `hartpool build` lists in the object's header. */
#define HP_REGISTER_SECTION_                                                   \
	__attribute__((section(".hp_kernels"), used, aligned(8)))
#else
#define HP_REGISTER_SECTION_
#endif
#define HP_REGISTER(kname, ...)                                                \
	HP_REGISTER_SECTION_ const hp_kernel hp_kernel_##kname = {             \
		.name = #kname,                                                \
		.fn = hp_kfn_##kname,                                          \
		.row = hp_krow_##kname,                                        \
		__VA_ARGS__}
/**
 * HP_REGISTER with a row entry of the kernel's own, @p rowfn, in place of
 * the generated one (a hp_kernel_row_fn: n items along dimension 0 from
 * @p it; with .row_is_group a whole work-group): the library kernels'
 * vector loops on boards with V (kernels/lib_rvv.h).
 */
#define HP_REGISTER_ROW(kname, rowfn, ...)                                     \
	HP_REGISTER_SECTION_ const hp_kernel hp_kernel_##kname = {             \
		.name = #kname,                                                \
		.fn = hp_kfn_##kname,                                          \
		.row = (rowfn),                                                \
		__VA_ARGS__}

/**
 * The buffer arguments of a kernel, as HP_REGISTER attributes:
 *   HP_REGISTER(vadd, .args_size = sizeof(struct vadd_args),
 *               HP_BUFFERS(HP_BUF(struct vadd_args, a, float, ITEMS, 0),
 *                          ...));
 */
#define HP_BUFFERS(...)                                                        \
	.buffers = (const hp_arg_buffer[]){__VA_ARGS__},                       \
	.num_buffers = sizeof((const hp_arg_buffer[]){__VA_ARGS__}) /          \
		       sizeof(hp_arg_buffer)
/** Member @p field of argument struct @p type is a buffer of @p elem
 * elements spanning HP_EXTENT_<extent> (with @p param). */
#define HP_BUF(type, field, elem, extent, param)                               \
	{                                                                      \
		(uint16_t) offsetof(type, field), (uint16_t) _Alignof(elem),   \
			(uint32_t)sizeof(elem), HP_EXTENT_##extent, (param)    \
	}

/** A buffer argument (a device address, uint64_t) as a T pointer:
 * `float *y = HP_PTR(float, a->y);`. */
#define HP_PTR(T, addr) ((T *)(uintptr_t)(addr))

/* ---- work-item functions ---- */

static inline unsigned hp_work_dim(const hp_item *it)
{
	return it->g->l->work_dim;
}
static inline size_t hp_global_size(const hp_item *it, unsigned d)
{
	return d < 3 ? it->g->l->global_size[d] : 1;
}
static inline size_t hp_global_id(const hp_item *it, unsigned d)
{
	return d < 3 ? it->global_id[d] : 0;
}
static inline size_t hp_global_offset(const hp_item *it, unsigned d)
{
	return d < 3 ? it->g->l->global_offset[d] : 0;
}
static inline size_t hp_local_size(const hp_item *it, unsigned d)
{
	return d < 3 ? it->g->local_size[d] : 1;
}
static inline size_t hp_enqueued_local_size(const hp_item *it, unsigned d)
{
	return d < 3 ? it->g->l->local_size[d] : 1;
}
static inline size_t hp_local_id(const hp_item *it, unsigned d)
{
	return d < 3 ? it->local_id[d] : 0;
}
static inline size_t hp_num_groups(const hp_item *it, unsigned d)
{
	return d < 3 ? it->g->l->num_groups[d] : 1;
}
static inline size_t hp_group_id(const hp_item *it, unsigned d)
{
	return d < 3 ? it->g->group_id[d] : 0;
}
static inline size_t hp_global_linear_id(const hp_item *it)
{
	const hp_launch *l = it->g->l;
	return (it->global_id[0] - l->global_offset[0]) +
	       ((it->global_id[1] - l->global_offset[1]) +
		(it->global_id[2] - l->global_offset[2]) * l->global_size[1]) *
		       l->global_size[0];
}
static inline size_t hp_local_linear_id(const hp_item *it)
{
	return it->local_linear_id;
}

/* ---- sub-group queries (OpenCL 3.0 sub-groups by lane grouping) ---- */

/** Items of this sub-group (the last one of a group may be smaller). */
static inline unsigned hp_sub_group_size(const hp_item *it)
{
	unsigned s = it->g->l->sub_group_size;
	size_t first = it->local_linear_id / s * s;
	size_t left = it->g->linear_size - first;
	return left < s ? (unsigned)left : s;
}
static inline unsigned hp_max_sub_group_size(const hp_item *it)
{
	return it->g->l->max_sub_group_size;
}
static inline unsigned hp_num_sub_groups(const hp_item *it)
{
	return it->g->num_sub_groups;
}
static inline unsigned hp_enqueued_num_sub_groups(const hp_item *it)
{
	return it->g->l->enqueued_num_sub_groups;
}
static inline unsigned hp_sub_group_id(const hp_item *it)
{
	return (unsigned)(it->local_linear_id / it->g->l->sub_group_size);
}
static inline unsigned hp_sub_group_local_id(const hp_item *it)
{
	return (unsigned)(it->local_linear_id % it->g->l->sub_group_size);
}

/* ---- synchronisation and memory ---- */

/** This work-group's local memory (kernel's local_mem_bytes). */
static inline void *hp_local_mem(const hp_item *it)
{
	return it->g->local_mem;
}

/* ---- functions the firmware provides ----
 *
 * void hp_barrier(const hp_item *it): work-group barrier (global and local
 *   memory fence included).
 * unsigned hp_hart(void): index of the hart running this work-item.
 * void hp_printf(const hp_item *it, const char *fmt, ...): printf into
 *   the command's printf buffer (at most 255 bytes a call), tagged with the
 *   work-item's global id; the host prints it after completion (`hartpool
 *   run` does). Without a buffer nothing is printed; calls that do not fit
 *   are counted, not written.
 *
 * Sub-group functions (the kernel must declare uses_barriers):
 *   void hp_sub_group_barrier(it); bool hp_sub_group_any(it, pred);
 *   bool hp_sub_group_all(it, pred); and for each type T in (int, uint,
 *   long, ulong, float):
 *   T hp_sub_group_broadcast_T(it, T x, unsigned lane)
 *   T hp_sub_group_shuffle_T(it, T x, unsigned lane)
 *   T hp_sub_group_reduce_OP_T(it, T x)
 *   T hp_sub_group_scan_inclusive_OP_T(it, T x)
 *   T hp_sub_group_scan_exclusive_OP_T(it, T x)
 * with OP in (add, min, max). Exclusive scans start from the identity (0
 * for add, the type's max for min, its lowest value for max; +-INFINITY
 * for float min/max). shuffle reads lane `lane` of the sub-group (any lane
 * per item); broadcast requires the same lane for all items.
 *
 * The list is include/hartpool/api.h: kernels built into the firmware call
 * these functions directly, kernel objects (HP_KERNEL_OBJECT, `hartpool
 * build`) through the firmware's versioned table.
 */
#include <hartpool/api.h>

#ifdef HP_KERNEL_OBJECT
/* Set by the loader to the firmware's table (weak: one per object). */
__attribute__((weak, visibility("hidden"), section(".hp_api"), used))
const struct hp_api *hp_api_ptr;
#define HP_API_VOID_DEF_(name, params, args)                                   \
	static inline void hp_##name params                                    \
	{                                                                      \
		hp_api_ptr->name args;                                         \
	}
#define HP_API_DEF_(ret, name, params, args)                                   \
	static inline ret hp_##name params                                     \
	{                                                                      \
		return hp_api_ptr->name args;                                  \
	}
HP_API_VOID_FUNCS(HP_API_VOID_DEF_)
HP_API_FUNCS(HP_API_DEF_)
#undef HP_API_VOID_DEF_
#undef HP_API_DEF_
/* The yield entries through the table, loaded into t0 (every other
 * register is an operand or clobbered). */
#if __riscv_xlen == 64
#define HP_LREG_ "ld"
#else
#define HP_LREG_ "lw"
#endif
#define HP_YIELD_INSN_(entry)                                                  \
	"lla t0, hp_api_ptr\n\t" HP_LREG_ " t0, 0(t0)\n\t" HP_LREG_            \
	" t0, %4(t0)\n\tjalr t0"
#define HP_YIELD_FN_(entry) "i"(offsetof(struct hp_api, entry))
static inline __attribute__((format(printf, 2, 3))) void
hp_printf(const hp_item *it, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	hp_api_ptr->vprintf(it, fmt, ap);
	va_end(ap);
}
#else
#define HP_API_VOID_DECL_(name, params, args) void hp_##name params;
#define HP_API_DECL_(ret, name, params, args) ret hp_##name params;
HP_API_VOID_FUNCS(HP_API_VOID_DECL_)
HP_API_FUNCS(HP_API_DECL_)
#undef HP_API_VOID_DECL_
#undef HP_API_DECL_
#define HP_YIELD_INSN_(entry) "call hp_" #entry
#define HP_YIELD_FN_(entry)
void hp_yield_wg(void);
void hp_yield_sg(void);
void hp_printf(const hp_item *it, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* OpenCL C printf's formatting (struct hp_api's cl_printf). */
void hp_cl_printf(const hp_item *it, const char *fmt, const uint64_t *args,
		  unsigned n);
/* A work-group function's divergent barriers (struct hp_api's
 * wg_diverged). */
void hp_wg_diverged(const hp_item *it);
#endif

/*
 * Barriers and sub-group functions. On RISC-V a work-item with a fiber
 * switches through the yield entries (hartpool/api.h: the caller keeps only
 * its live registers, the switch saves three words); without a fiber (a
 * kernel without .uses_barriers) and on the host they are plain calls.
 */
#if defined(__riscv)
/* Call `entry` with a0-a3 = f, a1, a2, a3 by the yield convention;
 * returns a0. */
#define HP_YIELD_(entry, f, x1, x2, x3)                                        \
	({                                                                     \
		register uintptr_t hp_a0_ __asm__("a0") = (uintptr_t)(f);      \
		register uintptr_t hp_a1_ __asm__("a1") = (uintptr_t)(x1);     \
		register uintptr_t hp_a2_ __asm__("a2") = (uintptr_t)(x2);     \
		register uintptr_t hp_a3_ __asm__("a3") = (uintptr_t)(x3);     \
		__asm__ volatile(HP_YIELD_INSN_(entry)                         \
				 : "+r"(hp_a0_), "+r"(hp_a1_), "+r"(hp_a2_),   \
				   "+r"(hp_a3_)                                \
				 : HP_YIELD_FN_(entry)                         \
				 : HP_YIELD_CLOBBERS_);                        \
		hp_a0_;                                                        \
	})
#define HP_HAS_YIELD_ 1
#else
#define HP_HAS_YIELD_ 0
#define HP_YIELD_(entry, f, x1, x2, x3) ((uintptr_t)0)
#endif

/** Work-group barrier (global and local memory fence included). */
static inline __attribute__((always_inline)) void hp_barrier(const hp_item *it)
{
	if (HP_HAS_YIELD_ && __builtin_expect(it->fiber != NULL, 1))
		(void)HP_YIELD_(yield_wg, it->fiber, 0, 0, 0);
	else
		hp_barrier_call(it);
}

/** Sub-group barrier. */
static inline __attribute__((always_inline)) void
hp_sub_group_barrier(const hp_item *it)
{
	if (HP_HAS_YIELD_ && __builtin_expect(it->fiber != NULL, 1))
		(void)HP_YIELD_(yield_sg, it->fiber, 0, 0, 0);
	else
		hp_sub_group_barrier_call(it);
}

/*
 * Sub-group collectives, inline: a lane folds its value into the
 * sub-group's accumulator as it arrives (lane 0 starts it; lanes arrive in
 * order, so the fold is in lane order and float results do not depend on
 * scheduling), meets the others at the sub-group barrier, and reads the
 * result. Consecutive collectives alternate between two banks: a lane is
 * at most one collective ahead of the others, so it never writes a bank
 * still being read. Without a fiber the sub-group is this one work-item
 * (or the kernel broke the uses_barriers rule, which the barrier reports).
 */
#define HP_SG_BITS_int(x) ((uint64_t)(uint32_t)(x))
#define HP_SG_BITS_uint(x) ((uint64_t)(x))
#define HP_SG_BITS_long(x) ((uint64_t)(x))
#define HP_SG_BITS_ulong(x) ((uint64_t)(x))
#define HP_SG_BITS_float(x) hp_sg_fbits_(x)
#define HP_SG_FROM_int(b) ((int32_t)(uint32_t)(b))
#define HP_SG_FROM_uint(b) ((uint32_t)(b))
#define HP_SG_FROM_long(b) ((int64_t)(b))
#define HP_SG_FROM_ulong(b) ((uint64_t)(b))
#define HP_SG_FROM_float(b) hp_sg_ffrom_(b)
static inline uint64_t hp_sg_fbits_(float f)
{
	union {
		float f;
		uint32_t u;
	} v = {.f = f};
	return v.u;
}
static inline float hp_sg_ffrom_(uint64_t b)
{
	union {
		uint32_t u;
		float f;
	} v = {.u = (uint32_t)b};
	return v.f;
}
#define HP_SG_ADD_(a, b) ((a) + (b))
#define HP_SG_MIN_(a, b) ((b) < (a) ? (b) : (a))
#define HP_SG_MAX_(a, b) ((b) > (a) ? (b) : (a))
/* Unsigned arithmetic for the integer sums (they wrap). */
#define HP_SG_ADDU_int(a, b) ((int32_t)((uint32_t)(a) + (uint32_t)(b)))
#define HP_SG_ADDU_uint(a, b) ((a) + (b))
#define HP_SG_ADDU_long(a, b) ((int64_t)((uint64_t)(a) + (uint64_t)(b)))
#define HP_SG_ADDU_ulong(a, b) ((a) + (b))
#define HP_SG_ADDU_float(a, b) ((a) + (b))

/* kind 0: reduce, 1: inclusive scan, 2: exclusive scan. */
#define HP_SG_FOLD_(tn, T, name, kind, OP, IDENT)                              \
	static inline __attribute__((always_inline))                           \
	T hp_sub_group_##name##_##tn(const hp_item *it, T x)                   \
	{                                                                      \
		hp_item *m = (hp_item *)it;                                    \
		if (__builtin_expect(m->fiber == NULL, 0)) {                   \
			hp_sub_group_barrier_call(it);                         \
			return (kind) == 2 ? (T)(IDENT) : x;                   \
		}                                                              \
		uint64_t *acc = &m->sg_acc[m->sg_count++ & 1];                 \
		T before = m->sg_lane ? HP_SG_FROM_##tn(*acc) : (T)(IDENT);    \
		T after = m->sg_lane ? OP(before, x) : x;                      \
		*acc = HP_SG_BITS_##tn(after);                                 \
		hp_sub_group_barrier(it);                                      \
		if ((kind) == 0)                                               \
			return HP_SG_FROM_##tn(*acc);                          \
		return (kind) == 1 ? after : before;                           \
	}
#define HP_SG_LANE_(tn, T, name)                                               \
	static inline __attribute__((always_inline))                           \
	T hp_sub_group_##name##_##tn(const hp_item *it, T x, unsigned lane)    \
	{                                                                      \
		hp_item *m = (hp_item *)it;                                    \
		if (__builtin_expect(m->fiber == NULL, 0)) {                   \
			hp_sub_group_barrier_call(it);                         \
			return x;                                              \
		}                                                              \
		uint64_t *s =                                                  \
			m->sg_slots + (m->sg_count++ & 1) * HP_SG_BANK_STRIDE; \
		s[m->sg_lane] = HP_SG_BITS_##tn(x);                            \
		hp_sub_group_barrier(it);                                      \
		return lane < m->sg_size ? HP_SG_FROM_##tn(s[lane]) : x;       \
	}
#define HP_SG_TYPE_(tn, T, LOWEST, HIGHEST)                                    \
	HP_SG_LANE_(tn, T, broadcast)                                          \
	HP_SG_LANE_(tn, T, shuffle)                                            \
	HP_SG_FOLD_(tn, T, reduce_add, 0, HP_SG_ADDU_##tn, 0)                  \
	HP_SG_FOLD_(tn, T, reduce_min, 0, HP_SG_MIN_, HIGHEST)                 \
	HP_SG_FOLD_(tn, T, reduce_max, 0, HP_SG_MAX_, LOWEST)                  \
	HP_SG_FOLD_(tn, T, scan_inclusive_add, 1, HP_SG_ADDU_##tn, 0)          \
	HP_SG_FOLD_(tn, T, scan_inclusive_min, 1, HP_SG_MIN_, HIGHEST)         \
	HP_SG_FOLD_(tn, T, scan_inclusive_max, 1, HP_SG_MAX_, LOWEST)          \
	HP_SG_FOLD_(tn, T, scan_exclusive_add, 2, HP_SG_ADDU_##tn, 0)          \
	HP_SG_FOLD_(tn, T, scan_exclusive_min, 2, HP_SG_MIN_, HIGHEST)         \
	HP_SG_FOLD_(tn, T, scan_exclusive_max, 2, HP_SG_MAX_, LOWEST)
HP_SG_TYPE_(int, int32_t, INT32_MIN, INT32_MAX)
HP_SG_TYPE_(uint, uint32_t, 0, UINT32_MAX)
HP_SG_TYPE_(long, int64_t, INT64_MIN, INT64_MAX)
HP_SG_TYPE_(ulong, uint64_t, 0, UINT64_MAX)
HP_SG_TYPE_(float, float, -__builtin_inff(), __builtin_inff())
#undef HP_SG_TYPE_
#undef HP_SG_FOLD_
#undef HP_SG_LANE_

/* any / all: the accumulator holds the fold of the predicates. */
#define HP_SG_BOOL_(name, OP)                                                  \
	static inline __attribute__((always_inline)) bool hp_sub_group_##name( \
		const hp_item *it, bool pred)                                  \
	{                                                                      \
		hp_item *m = (hp_item *)it;                                    \
		if (__builtin_expect(m->fiber == NULL, 0)) {                   \
			hp_sub_group_barrier_call(it);                         \
			return pred;                                           \
		}                                                              \
		uint64_t *acc = &m->sg_acc[m->sg_count++ & 1];                 \
		*acc = m->sg_lane ? (*acc OP(uint64_t) pred) : pred;           \
		hp_sub_group_barrier(it);                                      \
		return *acc != 0;                                              \
	}
HP_SG_BOOL_(any, |)
HP_SG_BOOL_(all, &)
#undef HP_SG_BOOL_

/* ---- atomics on global and local memory (relaxed unless stated) ---- */

#define HP_ATOMIC_DEFINE_(tn, T)                                               \
	static inline T hp_atomic_add_##tn(T *p, T v)                          \
	{                                                                      \
		return __atomic_fetch_add(p, v, __ATOMIC_RELAXED);             \
	}                                                                      \
	static inline T hp_atomic_sub_##tn(T *p, T v)                          \
	{                                                                      \
		return __atomic_fetch_sub(p, v, __ATOMIC_RELAXED);             \
	}                                                                      \
	static inline T hp_atomic_and_##tn(T *p, T v)                          \
	{                                                                      \
		return __atomic_fetch_and(p, v, __ATOMIC_RELAXED);             \
	}                                                                      \
	static inline T hp_atomic_or_##tn(T *p, T v)                           \
	{                                                                      \
		return __atomic_fetch_or(p, v, __ATOMIC_RELAXED);              \
	}                                                                      \
	static inline T hp_atomic_xor_##tn(T *p, T v)                          \
	{                                                                      \
		return __atomic_fetch_xor(p, v, __ATOMIC_RELAXED);             \
	}                                                                      \
	static inline T hp_atomic_xchg_##tn(T *p, T v)                         \
	{                                                                      \
		return __atomic_exchange_n(p, v, __ATOMIC_RELAXED);            \
	}                                                                      \
	/** Returns the old value; stores @p v only if it was @p cmp. */       \
	static inline T hp_atomic_cmpxchg_##tn(T *p, T cmp, T v)               \
	{                                                                      \
		__atomic_compare_exchange_n(p, &cmp, v, 0, __ATOMIC_RELAXED,   \
					    __ATOMIC_RELAXED);                 \
		return cmp;                                                    \
	}                                                                      \
	static inline T hp_atomic_min_##tn(T *p, T v)                          \
	{                                                                      \
		T old = __atomic_load_n(p, __ATOMIC_RELAXED);                  \
		while (v < old && !__atomic_compare_exchange_n(                \
					  p, &old, v, 1, __ATOMIC_RELAXED,     \
					  __ATOMIC_RELAXED))                   \
			continue;                                              \
		return old;                                                    \
	}                                                                      \
	static inline T hp_atomic_max_##tn(T *p, T v)                          \
	{                                                                      \
		T old = __atomic_load_n(p, __ATOMIC_RELAXED);                  \
		while (v > old && !__atomic_compare_exchange_n(                \
					  p, &old, v, 1, __ATOMIC_RELAXED,     \
					  __ATOMIC_RELAXED))                   \
			continue;                                              \
		return old;                                                    \
	}
HP_ATOMIC_DEFINE_(int, int32_t)
HP_ATOMIC_DEFINE_(uint, uint32_t)
#if !defined(__riscv) || __riscv_xlen == 64
/* 64-bit atomics only where the ISA has them (not on RV32). */
HP_ATOMIC_DEFINE_(long, int64_t)
HP_ATOMIC_DEFINE_(ulong, uint64_t)
#endif
#undef HP_ATOMIC_DEFINE_

/** Make this work-item's earlier global writes visible to other harts. */
static inline void hp_mem_fence(void)
{
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
}

#endif
