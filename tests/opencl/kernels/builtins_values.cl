// Built-in results checked against builtins_values.expect (index by
// index): work-item 0 computes them all; every work-item takes part in the
// collectives (a __local counter, a sub-group sum). The inputs go through
// a volatile zero so that the compiler cannot fold the calls on the host.
// Results whose difference lies past 6 significant digits (what `hartpool
// run --print` shows) are printed as differences.
#if __OPENCL_C_VERSION__ < 200
/* ctz is OpenCL C 2.0 */
#define ctz(x) popcount(((x) & -(x)) - 1)
#endif
__kernel void builtins_values(__global float *out_f, __global int *out_i)
{
	volatile float vzf = 0.0f;
	volatile int vzi = 0;
	float zf = vzf;
	int zi = vzi;
#define F(x) ((x) + zf)
#define I(x) ((x) + zi)
	__local int count;
	if (get_local_id(0) == 0)
		count = 0;
	barrier(CLK_LOCAL_MEM_FENCE);
	atomic_inc(&count);
	barrier(CLK_LOCAL_MEM_FENCE);
#if __OPENCL_C_VERSION__ >= 200 && defined(__opencl_c_subgroups)
	int sg = sub_group_reduce_add(I(1)) == (int)get_sub_group_size();
#else
	int sg = 1;
#endif
	if (get_global_id(0) != 0)
		return;

	float p;
	int q, e;
	ushort hb[4];
	float arr[8];
	for (int i = 0; i < 8; i++)
		arr[i] = F((float)i);
	out_f[0] = sin(F(0.5f));
	out_f[1] = dot(F((float4)(1, 2, 3, 4)), F((float4)(5, 6, 7, 8)));
	out_f[2] = fract(F(2.75f), &p);
	out_f[3] = p;
	out_f[4] = exp(F(1.0f));
	out_f[5] = log(F(10.0f));
	out_f[6] = pow(F(2.0f), F(10.5f));
	out_f[7] = sqrt(F(2.0f));
	out_f[8] = rsqrt(F(4.0f));
	out_f[9] = cospi(F(0.25f));
	out_f[10] = sinpi(F(0.5f));
	out_f[11] = tgamma(F(5.0f));
	out_f[12] = lgamma(F(0.5f));
	out_f[13] = atan2(F(1.0f), F(-1.0f));
	out_f[14] = length(F((float3)(3, 4, 12)));
	out_f[15] = normalize(F((float2)(3, 4))).y;
	out_f[16] = cross(F((float3)(1, 0, 0)), F((float3)(0, 1, 0))).z;
	out_f[17] = mix(F(1.0f), F(3.0f), F(0.25f));
	out_f[18] = smoothstep(F(0.0f), F(1.0f), F(0.5f));
	out_f[19] = clamp(F(5.5f), F(0.0f), F(2.0f));
	out_f[20] = degrees(F(M_PI_F));
	out_f[21] = hypot(F(3.0f), F(4.0f));
	out_f[22] = fmod(F(7.5f), F(2.0f));
	out_f[23] = remainder(F(7.5f), F(2.0f));
	out_f[24] = remquo(F(7.5f), F(2.0f), &q);
	out_f[25] = cbrt(F(27.0f));
	out_f[26] = erf(F(0.5f));
	out_f[27] = expm1(F(1e-3f));
	out_f[28] = log1p(F(1e-3f));
	out_f[29] = ldexp(F(0.75f), I(4));
	out_f[30] = frexp(F(12.0f), &e);
	out_f[31] = modf(F(-3.25f), &p);
	out_f[32] = convert_float_rtz(I(16777217)) - 16777216.0f;
	out_f[33] = convert_float_rtp(I(16777217)) - 16777216.0f;
	out_f[34] = convert_float(I(16777219)) - 16777216.0f;
	vstore_half(F(1.0f / 3), 0, (half *)hb);
	vstore_half_rtp(F(1.0f / 3), 1, (half *)hb);
	out_f[35] = vload_half(0, (half *)hb);
	out_f[36] = vload_half(1, (half *)hb);
	out_f[37] = asinpi(F(0.5f));
	out_f[38] = (nextafter(F(1.0f), F(2.0f)) - 1.0f) * 0x1p23f;
	out_f[39] = fma(F(2.0f), F(3.0f), F(4.0f));
	out_f[40] = tanh(F(0.5f));
	out_f[41] = exp10(F(2.0f));
	out_f[42] = log2(F(8.0f));
	out_f[43] = atanpi(F(1.0f));
	out_f[44] = sign(F(-2.5f));
	out_f[45] = step(F(1.0f), F(0.5f));
	out_f[46] = maxmag(F(-3.0f), F(2.0f));
	out_f[47] = (sincos(F(0.5f), &p), p);
	out_f[48] = distance(F((float4)(1)), F((float4)(2)));
	out_f[49] = mad(F(2.0f), F(3.0f), F(1.0f));
	out_f[50] = rootn(F(27.0f), I(3));
	out_f[51] = powr(F(4.0f), F(0.5f));
	out_f[52] = pown(F(2.0f), I(-2));
	out_f[53] = half_divide(F(1.0f), F(4.0f));
	out_f[54] = acos(F(0.5f));
	out_f[55] = select(F(1.0f), F(2.0f), I(-1));
	out_f[56] = copysign(F(3.0f), -0.0f + zf * -1.0f);
	out_f[57] = fdim(F(5.0f), F(3.0f));
	out_f[58] = minmag(F(-3.0f), F(2.0f));
	out_f[59] = logb(F(10.0f));
	out_f[60] = vload4(1, arr).z;
	out_f[61] = convert_float_rtn(I(-16777217)) + 16777216.0f;
	out_f[62] = tan(F(0.5f));
	out_f[63] = atan(F(1.0f));

	out_i[0] = convert_int_sat_rte(F(2.5f));
	out_i[1] = convert_int_sat_rte(F(3.5f));
	out_i[2] = convert_int_sat(F(3e10f));
	out_i[3] = convert_int_sat(F(NAN));
	out_i[4] = convert_uchar_sat(I(-5));
	out_i[5] = convert_char_sat(I(300));
	out_i[6] = convert_int_rtn(F(-1.5f));
	out_i[7] = convert_int_rtp(F(-1.5f));
	out_i[8] = clz(I(1u));
	out_i[9] = ctz(I(8));
	out_i[10] = popcount(I(0xff0f));
	out_i[11] = rotate(I(0x80000001u), 1u);
	out_i[12] = rotate(I(0x12345678), 8);
	out_i[13] = mad24(I(3), I(4), I(5));
	out_i[14] = mul_hi(I(0x40000000), I(8));
	out_i[15] = mul_hi(I(-1), I(1));
	out_i[16] = add_sat(I(INT_MAX), I(1));
	out_i[17] = sub_sat((uint)I(0), 1u);
	out_i[18] = abs_diff(I(-5), I(7));
	out_i[19] = hadd(I(7), I(8));
	out_i[20] = rhadd(I(7), I(8));
	out_i[21] = upsample((short)I(1), (ushort)I(2));
	int4 s4 = select(I((int4)(1, 2, 3, 4)), I((int4)(5, 6, 7, 8)),
			 I((int4)(-1, 0, -1, 0)));
	out_i[22] = s4.x + s4.y + s4.z + s4.w;
	out_i[23] = isnan(F(NAN));
	out_i[24] = isequal(F((float4)(1)), F((float4)(1, 2, 1, 2))).x;
	out_i[25] = any(I((int4)(0, 0, -1, 0)));
	out_i[26] = all(I((int4)(-1, -1, 0, -1)));
	out_i[27] = ilogb(F(10.0f));
	out_i[28] = q;
	out_i[29] = e;
	out_i[30] = mad_sat(I(INT_MAX), I(2), I(0));
	out_i[31] = mad_sat((long)I(1) << 62, 4L, 0L) == LONG_MAX;
	out_i[32] = mul_hi((ulong)I(-1), (ulong)I(-1)) == 0xfffffffffffffffeul;
	out_i[33] = abs(I(-7));
	out_i[34] = max(I(3), I(9));
	out_i[35] = min((uint)I(3), 9u);
	out_i[36] = bitselect(I(0xf0), I(0x0f), I(0xff));
	out_i[37] = convert_short_sat(I(70000));
	out_i[38] = convert_ushort_sat_rtz(F(-0.5f));
	out_i[39] = convert_uint_sat(F(4.7e9f));
	out_i[40] = shuffle(I((int4)(10, 20, 30, 40)), (uint4)(3, 2, 1, 0)).x;
	out_i[41] = shuffle2(I((int4)(1, 2, 3, 4)), I((int4)(5, 6, 7, 8)),
			     (uint4)(4, 5, 6, 7))
			    .w;
	out_i[42] = clamp(I(15), 0, 10);
	out_i[43] = signbit(-0.0f + zf * -1.0f);
	out_i[44] = isinf(F(INFINITY));
	out_i[45] = isgreater(F(2.0f), F(1.0f));
	out_i[46] = convert_long_sat_rte(F(-1e30f)) == LONG_MIN;
	out_i[47] = convert_int(F(-2.7f));
	out_i[48] = popcount((ulong)I(-1));
	out_i[49] = count == (int)get_local_size(0);
	out_i[50] = sg;
	out_i[51] = convert_int_rte(F(-2.5f));
	out_i[52] = convert_uint_sat_rtp(F(-0.5f));
	out_i[53] = convert_char_sat_rtn(F(-128.5f));
	out_i[54] = mad_hi(I(0x10000), I(0x10000), I(5));
	out_i[55] = sub_sat(I(INT_MIN), I(1));
	out_i[56] = abs_diff((char)I(-128), (char)I(127));
	out_i[57] = convert_int(convert_float_rtz(I(0x7fffffff)));
	out_i[58] = (int)convert_uint_sat_rte(F(4294967040.0f));
	out_i[59] = upsample((char)I(-1), (uchar)I(0));
	out_i[60] = isordered(F(1.0f), F(NAN));
	out_i[61] = popcount((char)I(-1));
	out_i[62] = clz((ulong)I(1));
	out_i[63] = ctz(I(0));
	/* what the CTS's math_brute_force found (bit-exact checks) */
	float nz = zf * -1.0f, q_r;
	out_i[64] = as_int(powr(nz, F(-1.0f))) == 0x7f800000; /* +inf */
	out_i[65] = as_int(powr(nz, F(1.0f))); /* +0 */
	out_i[66] = (int)pown(F(-1.0f), I(16777217)); /* odd: -1 */
	out_i[67] = cbrt(F(-0x1.3b1p+122f)) == -0x1.b37d9ep+40f;
	out_i[68] = rootn(F(-0x1p-147f), I(3)) == -0x1p-49f;
	out_i[69] = pow(F(0x1.51ec12p+0f), F(-0x1.307904p+8f)) ==
		    0x1.07fd2ep-122f;
	q_r = remquo(F(-0x1.ap-137f), F(0x1p-140f), &q); /* subnormal */
	out_i[70] = q;
	out_i[71] = as_int(q_r); /* -0 */
}
