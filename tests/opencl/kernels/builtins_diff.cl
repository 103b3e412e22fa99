// Exactly specified built-ins over many inputs, for a comparison with
// another implementation (tests/opencl/pocl_ref.c): work-item g writes 24
// ints to out_i[24 g ...] (floats as their bits; NaNs as one value).
// out_f is not used. builtins_diff64 (fp64): the same for doubles, 16 ints
// per work-item.
#define NB 24
static int fbits(float x)
{
	return isnan(x) ? 0x7fc00000 : as_int(x);
}
__kernel void builtins_diff(__global float *out_f, __global int *out_i)
{
	uint g = get_global_id(0);
	uint b = g * 2654435761u ^ (g << 11) ^ (g >> 3);
	uint b2 = (b * 40503u) ^ (g * 97u);
	float fr = as_float(b);			 /* any float */
	float fh = (float)((int)b >> 12) * 0.5f; /* halves, moderate */
	float f2 =
		as_float((b2 & 0x807fffffu) | 0x3f800000u) * 8; /* [-16, 16] */
	__global int *o = out_i + NB * g;
	ushort h[4];
	o[0] = convert_int_sat_rte(fh * 4096.0f);
	o[1] = convert_int_sat_rtn(fr);
	o[2] = convert_uchar_sat_rtp(fh);
	o[3] = convert_short_sat((int)b);
	o[4] = fbits(convert_float_rtz((int)b));
	o[5] = fbits(convert_float_rtp(b));
	o[6] = fbits(convert_float_rtn((long)(int)b * (long)b2));
	vstore_half_rte(fr * 0x1p-100f, 0, (half *)h);
	vstore_half_rtz(fh * 0.001f, 1, (half *)h);
	vstore_half_rtp(fr, 2, (half *)h);
	vstore_half_rtn(fh, 3, (half *)h);
	o[7] = isnan(fr) ? 0 : h[0] | (int)h[2] << 16;
	o[8] = h[1] | (int)h[3] << 16;
	o[9] = fbits(vload_half(0, (half *)&b));
	o[10] = mul_hi((int)b, (int)b2);
	o[11] = mad_sat((int)b, (int)b2 >> 16, (int)g);
	o[12] = (int)(mul_hi((long)b << 20, (long)(int)b2 << 30) >> 7);
	o[13] = mad_sat((long)(int)b << 31, (long)b2, (long)g) > 0;
	o[14] = rotate((int)b, (int)b2) ^ add_sat((short)b, (short)b2);
	o[15] = fbits(fmod(f2, fh)) ^ fbits(remainder(fh, f2));
	o[16] = fbits(sqrt(fr)) ^ fbits(fma(f2, fh, fr));
	o[17] = fbits(rint(fh * 0.3f)) ^ fbits(round(fh * 0.1f));
	o[18] = fbits(fract(f2 * 100.0f, &out_f[g]));
	o[19] = convert_int(convert_uint_sat_rte(fh) +
			    convert_ushort_sat_rtz(fr));
	o[20] = (int)convert_long_sat_rtp(fr * 0x1p32f);
	o[21] = fbits(ldexp(fr, (int)(b2 % 64) - 32)) ^ ilogb(f2);
	o[22] = upsample((short)b, (ushort)b2) + abs_diff((int)b, (int)b2) +
		hadd((uint)b, b2) + clz(b2) + popcount(b);
	o[23] = fbits(select(fr, f2, (int)b2)) + fbits(maxmag(f2, fh)) +
		fbits(copysign(fh, fr)) + fbits(nextafter(f2, fr));
}

#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
static int db(double x)
{
	long l = isnan(x) ? 0x7ff8000000000000L : as_long(x);
	return (int)(l ^ (l >> 32));
}
__kernel void builtins_diff64(__global float *out_f, __global int *out_i)
{
	uint g = get_global_id(0);
	ulong b = (ulong)(g * 2654435761u ^ (g << 11)) * 0x9E3779B97F4A7C15ul;
	double d = as_double(b);
	double dm = (double)(long)b * 0x1p-40;
	__global int *o = out_i + 16 * g;
	ushort h[4];
	o[0] = fbits(convert_float_rtz(d));
	o[1] = fbits(convert_float_rtp(dm));
	o[2] = fbits(convert_float_rtn(dm * 1e-30));
	o[3] = fbits(convert_float(dm));
	o[4] = convert_int_sat_rte(dm);
	o[5] = (int)convert_long_sat_rtn(d);
	o[6] = db(convert_double_rtz((long)b)) ^ db(convert_double_rtp(b));
	vstore_half_rtz(dm * 1e-8, 0, (half *)h);
	vstore_half_rtp(d, 1, (half *)h);
	vstore_half(dm, 2, (half *)h);
	vstore_half_rtn(dm * 1e-12, 3, (half *)h);
	o[7] = isnan(d) ? h[0] : h[0] | (int)h[1] << 16;
	o[8] = h[2] | (int)h[3] << 16;
	o[9] = db(fma(d, dm, dm)) ^ db(sqrt(d));
	o[10] = db(fmod(dm, 3.5)) ^ db(remainder(dm, 1.25));
	o[11] = db(rint(dm)) ^ db(floor(dm * 0.3));
	o[12] = db(round(dm * 0.7)) ^ db(trunc(-dm));
	o[13] = db(maxmag(d, dm)) ^ db(copysign(dm, d)) ^ db(fmin(d, dm));
	o[14] = db(ldexp(d, 5)) ^ ilogb(dm);
	o[15] = db(nextafter(d, dm)) ^ db(fract(dm, (__private double *)&b));
}
#endif
