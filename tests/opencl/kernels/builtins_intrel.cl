// Built-in coverage: integer, common, geometric and relational functions.
#define I2(f) r += f(x, y); r4 += f(a4, b4); c16 += f(c16, c16); \
	u8 += f(u8, u8); s3 += f(s3, s3); l2 += f(l2, l2);
#if __OPENCL_C_VERSION__ < 200
#define ctz(x) clz(x) /* ctz is OpenCL C 2.0 */
#endif
#define I1(f) r += f(x); r4 += f(a4); c16 += f(c16); u8 += f(u8); \
	s3 += f(s3); l2 += f(l2);
__kernel void bi_int(__global int *o, int x, int y, int4 a4, int4 b4,
		     char16 c16, uint8 u8, short3 s3, long2 l2, ulong ul,
		     uchar uc, ushort us)
{
	int r = 0;
	int4 r4 = 0;
	I2(add_sat) I2(sub_sat) I2(hadd) I2(rhadd) I2(max) I2(min)
	I2(mul_hi) I2(rotate)
	I1(clz) I1(ctz) I1(popcount)
	r += abs(x) + abs_diff(x, y) + clamp(x, 1, 5) + mad_hi(x, y, x) +
	     mad_sat(x, y, x) + mad24(x, y, x) + mul24(x, y);
	r4 += as_int4(abs(a4)) + as_int4(abs_diff(a4, b4)) +
	      clamp(a4, b4, b4) + clamp(a4, 0, 9) + max(a4, 3) + min(a4, 2) +
	      mad_sat(a4, b4, a4) + mad24(a4, b4, a4) + mul24(a4, b4) +
	      mad_hi(a4, b4, a4);
	l2 += mad_sat(l2, l2, l2) + (long2)upsample(x, (uint)y) +
	      mul_hi(l2, l2) + as_long2(abs(l2));
	ul += mad_sat(ul, ul, ul) + mul_hi(ul, ul) + abs_diff(ul, ul) +
	      rotate(ul, ul) + clz(ul) + upsample((uint)x, (uint)y);
	r += upsample((short)x, us) + upsample((char)x, uc);
	u8 += clamp(u8, (uint)1, (uint)7) + convert_uint8(upsample(u8, u8));
	o[0] = r + (int)ul;
	vstore4(r4, 1, o);
	vstore16(convert_int16(c16), 1, o);
	vstore8(as_int8(u8), 3, o);
	vstore3(convert_int3(s3), 30, o);
	vstore2(convert_int2(l2), 50, o);
}

__kernel void bi_common(__global float *o, float x, float y, float4 a,
			float4 b, float3 c3, float2 c2)
{
	float r = clamp(x, 0.0f, 1.0f) + degrees(x) + radians(x) + max(x, y) +
		  min(x, y) + mix(x, y, 0.5f) + step(x, y) +
		  smoothstep(0.0f, 1.0f, x) + sign(x);
	float4 v = clamp(a, b, b) + clamp(a, 0.0f, 1.0f) + degrees(a) +
		   max(a, b) + max(a, x) + min(a, y) + mix(a, b, b) +
		   mix(a, b, 0.25f) + step(a, b) + step(0.5f, a) +
		   smoothstep(a, b, b) + smoothstep(0.0f, 1.0f, a) + sign(a);
	r += dot(x, y) + dot(a, b) + dot(c3, c3) + dot(c2, c2) + length(a) +
	     length(c3) + length(x) + distance(a, b) + distance(c2, c2) +
	     fast_length(a) + fast_distance(c3, c3) + fast_length(x);
	v += normalize(a) + fast_normalize(b) + cross(a, b);
	c3 = cross(c3, c3) + normalize(c3);
	c2 = normalize(c2) + fast_normalize(c2);
	o[0] = r + normalize(x) + fast_normalize(y);
	vstore4(v, 1, o);
	vstore3(c3, 4, o);
	vstore2(c2, 9, o);
}

__kernel void bi_rel(__global int *o, float x, float y, float4 a, float4 b,
		     int4 i4, uint8 u8, char16 c16, long3 l3, float16 f16)
{
	int r = isequal(x, y) + isnotequal(x, y) + isgreater(x, y) +
		isgreaterequal(x, y) + isless(x, y) + islessequal(x, y) +
		islessgreater(x, y) + isfinite(x) + isinf(x) + isnan(x) +
		isnormal(x) + isordered(x, y) + isunordered(x, y) + signbit(x);
	int4 v = isequal(a, b) + isnotequal(a, b) + isgreater(a, b) +
		 isgreaterequal(a, b) + isless(a, b) + islessequal(a, b) +
		 islessgreater(a, b) + isfinite(a) + isinf(a) + isnan(a) +
		 isnormal(a) + isordered(a, b) + isunordered(a, b) + signbit(a);
	r += any(i4) + all(i4) + any(c16) + all(l3) + any(x > y) +
	     all(isnan(f16));
	v += bitselect(i4, v, i4) + select(i4, v, i4) + select(i4, v, as_uint4(v));
	a = bitselect(a, b, a) + select(a, b, i4) + select(a, b, as_uint4(i4));
	u8 = select(u8, u8, as_int8(u8)) + bitselect(u8, u8, u8);
	c16 = select(c16, c16, c16) + select(c16, c16, as_uchar16(c16));
	l3 = select(l3, l3, l3) + bitselect(l3, l3, l3);
	o[0] = r + select(1, 2, r) + (int)select(x, y, r);
	vstore4(v + convert_int4(a), 1, o);
	vstore8(as_int8(u8), 2, o);
	vstore16(convert_int16(c16), 2, o);
	vstore3(convert_int3(l3), 30, o);
}
