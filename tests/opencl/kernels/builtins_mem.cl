// Built-in coverage: conversions, vload/vstore (every address space, half
// forms), shuffles, atomics, async copies, sub-group functions.
__kernel void bc_conv(__global int *o, float x, float4 a, int4 i4, uint u,
		      long l, char16 c16, ulong8 ul8)
{
	int r = convert_int(x) + convert_int_sat(x) + convert_int_rte(x) +
		convert_int_sat_rtz(x) + convert_int_rtp(x) + convert_int_rtn(x) +
		convert_char_sat(u) + convert_uchar_sat_rte(x) +
		convert_short_sat(l) + convert_ushort(l) + convert_int_sat(u) +
		(int)convert_uint_sat(l) + (int)convert_long_sat_rtn(x) +
		(int)convert_ulong_sat(x) + (int)convert_float_rtz(u) +
		(int)convert_float_rtp(l) + (int)convert_float_rtn(u);
	int4 v = convert_int4(a) + convert_int4_sat_rte(a) +
		 convert_int4_rtz(a) + convert_int4(convert_char4_sat(i4)) +
		 convert_int4(convert_float4_rtz(i4)) +
		 convert_int4(convert_uchar4_sat_rtn(a)) +
		 convert_int4(convert_ushort4_sat(i4));
	c16 = convert_char16_sat(c16) + convert_char16_sat(ul8.s0123456701234567);
	ul8 = convert_ulong8_sat(convert_float8(ul8)) + convert_ulong8(c16.lo);
	short3 s3 = convert_short3_sat_rte(a.xyz);
	uint2 u2 = convert_uint2_sat(a.xy);
	o[0] = r;
	vstore4(v, 1, o);
	vstore16(convert_int16(c16), 1, o);
	vstore8(convert_int8(ul8), 5, o);
	vstore3(convert_int3(s3), 20, o);
	vstore2(as_int2(u2), 40, o);
#ifdef cl_khr_fp64
	double d = convert_double(x) + convert_double_rtz(l) + convert_double(u);
	o[1] = convert_int_sat_rte(d) + (int)convert_float_rtz(d) +
	       (int)convert_float4_rtp(convert_double4(a)).x +
	       convert_uint_sat_rtn(d);
#endif
}

__kernel void bc_vload(__global float *g, __local float *l,
		       __constant float *c, __global half *gh,
		       __local half *lh, __constant half *ch,
		       __global uchar *gb, __constant long *cl)
{
	float p[16];
	ushort phb[16];
	__private half *ph = (__private half *)phb;
	for (int i = 0; i < 16; i++)
		p[i] = g[i];
	float4 v = vload4(0, g) + vload4(1, l) + vload4(2, c) + vload4(0, p);
	float16 v16 = vload16(0, g) + vload16(0, l) + vload16(0, c) +
		      vload16(0, p);
	float3 v3 = vload3(1, g) + vload3(1, l) + vload3(1, c) + vload3(1, p);
	float2 v2 = vload2(1, g);
	float8 v8 = vload8(1, l);
	vstore4(v, 1, g);
	vstore4(v, 1, l);
	vstore4(v, 1, p);
	vstore16(v16, 1, g);
	vstore16(v16, 0, l);
	vstore3(v3, 1, g);
	vstore3(v3, 1, p);
	vstore2(v2, 3, l);
	vstore8(v8, 2, g);
	uchar16 b = vload16(0, gb);
	vstore16(b + (uchar)1, 1, gb);
	long4 ll = vload4(0, cl);
	vstore4(convert_uchar4(ll), 0, gb);
	vstore_half(v.x, 0, gh);
	vstore_half_rtz(v.x, 1, lh);
	vstore_half_rtp(v.y, 2, ph);
	vstore_half4(v, 1, gh);
	vstore_half4_rtn(v, 1, lh);
	vstore_half16_rte(v16, 0, ph);
	vstorea_half4(v, 2, gh);
	vstorea_half3_rtz(v3, 2, lh);
	vstore_half3(v3, 4, gh);
	float h = vload_half(0, gh) + vload_half(1, lh) + vload_half(2, ch) +
		  vload_half(3, ph);
	float4 h4 = vload_half4(0, gh) + vload_half4(1, lh) +
		    vload_half4(1, ch) + vloada_half4(0, gh) +
		    vloada_half4(0, ph);
	float3 h3 = vload_half3(0, gh) + vloada_half3(1, ch);
	g[0] = h + h4.x + h3.y + p[3] + vload_half(0, ph);
#ifdef cl_khr_fp64
	double4 d = vload4(0, (__global double *)g);
	vstore4(d, 1, (__global double *)g);
	vstore_half4_rtz(d, 0, gh);
	vstore_half(d.x, 1, lh);
#endif
}

__kernel void bc_shuffle(__global int *o, int4 a, int8 b, float4 f,
			 uchar16 u)
{
	int4 r = shuffle(a, (uint4)(3, 2, 1, 0)) +
		 shuffle2(a, a, (uint4)(7, 2, 5, 0)) +
		 shuffle(b, (uint4)(7, 6, 5, 4));
	int8 r8 = shuffle(a, (uint8)(1));
	float2 f2 = shuffle(f, (uint2)(1, 0));
	uchar16 u16 = shuffle2(u, u, u);
	vstore4(r + r8.lo + convert_int4(f2.xyxy) + convert_int4(u16.lo.lo), 0,
		o);
}

__kernel void bc_atomic(__global int *g, __local int *l, __global uint *gu,
			__local uint *lu, __global float *gf)
{
	int r = atomic_add(g, 1) + atomic_sub(l, 1) + atomic_xchg(g, 2) +
		atomic_inc(l) + atomic_dec(g) + atomic_cmpxchg(l, 1, 2) +
		atomic_min(g, 3) + atomic_max(l, 4) + atomic_and(g, 5) +
		atomic_or(l, 6) + atomic_xor(g, 7);
	uint u = atomic_add(gu, 1u) + atomic_min(lu, 2u) + atomic_max(gu, 3u) +
		 atomic_cmpxchg(gu, 1u, 2u) + atomic_inc(lu) + atomic_xor(lu, 1u);
	r += atom_add(g, 1) + atom_sub(l, 1) + atom_xchg(g, 1) + atom_inc(l) +
	     atom_dec(g) + atom_cmpxchg(l, 0, 1) + atom_min(g, 1) +
	     atom_max(l, 1) + atom_and(g, 1) + atom_or(l, 1) + atom_xor(g, 1);
	u += atom_add(gu, 1u) + atom_max(lu, 5u);
	float f = atomic_xchg(gf, 1.0f) + atomic_xchg((__local float *)l, 2.0f);
#if defined(cl_khr_int64_base_atomics)
	__global long *gl = (__global long *)gf;
	__local ulong *ll = (__local ulong *)l;
	r += (int)(atom_add(gl, 1L) + atom_cmpxchg(gl, 0L, 1L) +
		   atom_xchg(gl, 3L) + atom_inc(ll) + atom_dec(ll) +
		   atom_min(ll, 2ul) + atom_max(gl, 3L) + atom_and(gl, 1L) +
		   atom_or(ll, 1ul) + atom_xor(gl, 1L) + atom_sub(ll, 1ul));
#endif
#if __OPENCL_C_VERSION__ >= 200
	volatile __global atomic_int *ag = (volatile __global atomic_int *)g;
	volatile __local atomic_uint *al = (volatile __local atomic_uint *)lu;
	atomic_init(ag, 1);
	r += atomic_fetch_add_explicit(ag, 1, memory_order_relaxed,
				       memory_scope_work_group) +
	     atomic_fetch_max_explicit(ag, 1, memory_order_relaxed,
				       memory_scope_device) +
	     atomic_load_explicit(ag, memory_order_acquire,
				  memory_scope_work_group) +
	     atomic_exchange_explicit(ag, 1, memory_order_relaxed,
				      memory_scope_work_group);
	u += atomic_fetch_sub_explicit(al, 1u, memory_order_relaxed,
				       memory_scope_work_group) +
	     atomic_fetch_or_explicit(al, 1u, memory_order_relaxed,
				      memory_scope_work_group);
	atomic_store_explicit(ag, 3, memory_order_release,
			      memory_scope_work_group);
	int e = 0;
	r += atomic_compare_exchange_strong_explicit(
		ag, &e, 4, memory_order_relaxed, memory_order_relaxed,
		memory_scope_work_group);
	r += atomic_compare_exchange_weak_explicit(
		ag, g + 4, 4, memory_order_relaxed, memory_order_relaxed,
		memory_scope_work_group);
	r += atomic_flag_test_and_set_explicit(
		(volatile __global atomic_flag *)g, memory_order_relaxed,
		memory_scope_work_group);
	atomic_flag_clear_explicit((volatile __local atomic_flag *)l,
				   memory_order_relaxed,
				   memory_scope_work_group);
	atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acq_rel,
			       memory_scope_work_group);
	f += atomic_exchange_explicit((volatile __global atomic_float *)gf,
				      1.0f, memory_order_relaxed,
				      memory_scope_work_group);
#endif
	g[0] = r + (int)u + (int)f;
}

__kernel void bc_async(__global float4 *g, __local float4 *l,
		       __global char *gc, __local char *lc, __global int *gi)
{
	event_t e = async_work_group_copy(l, g, 64, 0);
	e = async_work_group_strided_copy(lc, gc, 16, 4, e);
	wait_group_events(1, &e);
	event_t e2[2];
	e2[0] = async_work_group_copy(g + 64, l, 64, 0);
	e2[1] = async_work_group_strided_copy(gc, lc, 16, 2, 0);
	wait_group_events(2, e2);
	prefetch(g, 16);
	prefetch(gc, 4);
	int x = gi[get_global_id(0)], s = 0;
#if __OPENCL_C_VERSION__ >= 200 && defined(__opencl_c_subgroups)
	s = sub_group_reduce_add(x) + sub_group_scan_inclusive_max(x) +
		sub_group_broadcast(x, 0) + sub_group_all(x) + sub_group_any(x);
#ifdef cl_khr_fp64
	double d = (double)x;
	d = sub_group_reduce_add(d) + sub_group_scan_exclusive_min(d) +
	    sub_group_scan_inclusive_add(d) + sub_group_broadcast(d, 1) +
	    sub_group_reduce_max(d);
	s += (int)d;
#endif
	s += get_sub_group_size();
#endif
	barrier(CLK_LOCAL_MEM_FENCE);
	gi[get_global_id(0)] = s;
}
