// SPDX-License-Identifier: MIT
/*
 * vloadn / vstoren (OpenCL 3.0 C 6.15.11) for every scalar type, width and
 * address space, and the half forms: vload_half[n], vloada_halfn,
 * vstore_half[n][_rte|_rtz|_rtp|_rtn], vstorea_halfn[...] for float and
 * double. Halves are converted in software (bit manipulation), rounding
 * directly from the source type (no double rounding).
 */
#include "clc.h"

#define VLOADV_(n, T, AS)                                                      \
	T##n OVL vload##n(size_t o, const AS T *p)                             \
	{                                                                      \
		T##n r;                                                        \
		for (int i = 0; i < n; i++)                                    \
			r[i] = p[o * n + i];                                   \
		return r;                                                      \
	}
#define VSTOREV_(n, T, AS)                                                     \
	void OVL vstore##n(T##n v, size_t o, AS T *p)                          \
	{                                                                      \
		for (int i = 0; i < n; i++)                                    \
			p[o * n + i] = v[i];                                   \
	}
#define VLS_(T)                                                                \
	HP_VEC(VLOADV_, T, __global)                                           \
	HP_VEC(VLOADV_, T, __local)                                            \
	HP_VEC(VLOADV_, T, __constant)                                         \
	HP_VEC(VLOADV_, T, __private)                                          \
	HP_VEC(VSTOREV_, T, __global)                                          \
	HP_VEC(VSTOREV_, T, __local)                                           \
	HP_VEC(VSTOREV_, T, __private)
#define VLSI_(T, UT, BITS, SG, X) VLS_(T)
HP_INTS(VLSI_, )
VLS_(float)
#if HPCL_FP64
VLS_(double)
#endif

/* ---- halves ---- */
static float h2f(ushort h)
{
	uint s = (uint)(h & 0x8000) << 16, e = (h >> 10) & 0x1f, m = h & 0x3ff;
	if (e == 31)
		return __builtin_bit_cast(float, s | 0x7f800000u | (m << 13));
	if (e == 0) {
		float f = (float)m * 0x1p-24f;
		return s ? -f : f;
	}
	return __builtin_bit_cast(float, s | ((e + 112) << 23) | (m << 13));
}

/* Round the magnitude bits a of a float (U uint, M 23 mantissa bits, B
 * bias 127) or double (ulong, 52, 1023) to half; mode 0 rte, 1 rtz, 2 rtp,
 * 3 rtn. */
#define F2H_(NAME, T, U, M, B)                                                 \
	static ushort NAME(T f, int mode)                                      \
	{                                                                      \
		U u = __builtin_bit_cast(U, f);                                \
		uint sign =                                                    \
			(uint)(u >> (M + (B > 127 ? 11 : 8) - 15)) & 0x8000;   \
		U a = u & ~((U)1 << (sizeof(U) * 8 - 1));                      \
		U inf = (U)(2 * B + 1) << M;                                   \
		if (a >= inf)                                                  \
			return sign |                                          \
			       (a > inf ? 0x7e00 | (uint)((a >> (M - 10)) &    \
							  0x3ff)               \
					: 0x7c00);                             \
		if (a == 0)                                                    \
			return sign;                                           \
		int e = (int)(a >> M) - B;                                     \
		int up = mode == 0 || (mode == 2 && !sign) ||                  \
			 (mode == 3 && sign);                                  \
		if (e > 15)                                                    \
			return sign | (up ? 0x7c00 : 0x7bff);                  \
		U m = (a & (((U)1 << M) - 1)) | ((U)(e > -B) << M);            \
		int sh = M - 10;                                               \
		uint h;                                                        \
		if (e >= -14) {                                                \
			h = ((uint)(e + 15) << 10) |                           \
			    (uint)((m >> sh) & 0x3ff);                         \
		} else {                                                       \
			sh += -14 - e;                                         \
			if (sh > M + 1) {                                      \
				h = 0;                                         \
				sh = 0;                                        \
			} else {                                               \
				h = (uint)(m >> sh);                           \
			}                                                      \
		}                                                              \
		U rem = sh ? m & (((U)1 << sh) - 1) : m;                       \
		U hw = sh ? (U)1 << (sh - 1) : (U)0;                           \
		int inc;                                                       \
		if (mode == 0)                                                 \
			inc = sh && (rem > hw || (rem == hw && (h & 1)));      \
		else                                                           \
			inc = up && mode != 1 && rem != 0;                     \
		return sign | (h + inc);                                       \
	}
F2H_(f2h, float, uint, 23, 127)
#if HPCL_FP64
F2H_(d2h, double, ulong, 52, 1023)
#endif

#define VLH_(n, AS)                                                            \
	float##n OVL vload_half##n(size_t o, const AS half *p)                 \
	{                                                                      \
		const AS ushort *q = (const AS ushort *)p + o * n;             \
		float##n r;                                                    \
		for (int i = 0; i < n; i++)                                    \
			r[i] = h2f(q[i]);                                      \
		return r;                                                      \
	}                                                                      \
	float##n OVL vloada_half##n(size_t o, const AS half *p)                \
	{                                                                      \
		const AS ushort *q =                                           \
			(const AS ushort *)p + o * (n == 3 ? 4 : n);           \
		float##n r;                                                    \
		for (int i = 0; i < n; i++)                                    \
			r[i] = h2f(q[i]);                                      \
		return r;                                                      \
	}
#define VLH1_(AS)                                                              \
	float OVL vload_half(size_t o, const AS half *p)                       \
	{                                                                      \
		return h2f(((const AS ushort *)p)[o]);                         \
	}                                                                      \
	HP_VEC(VLH_, AS)
VLH1_(__global)
VLH1_(__local)
VLH1_(__constant)
VLH1_(__private)

/* vstore_half: T (float or double) through CV, every width, rounding R
 * (suffix) = mode MODE, address space AS. */
#define VSH_(n, T, CV, R, MODE, AS)                                            \
	void OVL vstore_half##n##R(T##n v, size_t o, AS half *p)               \
	{                                                                      \
		AS ushort *q = (AS ushort *)p + o * n;                         \
		for (int i = 0; i < n; i++)                                    \
			q[i] = CV(v[i], MODE);                                 \
	}                                                                      \
	void OVL vstorea_half##n##R(T##n v, size_t o, AS half *p)              \
	{                                                                      \
		AS ushort *q = (AS ushort *)p + o * (n == 3 ? 4 : n);          \
		for (int i = 0; i < n; i++)                                    \
			q[i] = CV(v[i], MODE);                                 \
	}
#define VSH1_(T, CV, R, MODE, AS)                                              \
	void OVL vstore_half##R(T v, size_t o, AS half *p)                     \
	{                                                                      \
		((AS ushort *)p)[o] = CV(v, MODE);                             \
	}                                                                      \
	HP_VEC(VSH_, T, CV, R, MODE, AS)
#define VSHR_(T, CV, AS)                                                       \
	VSH1_(T, CV, , 0, AS)                                                  \
	VSH1_(T, CV, _rte, 0, AS)                                              \
	VSH1_(T, CV, _rtz, 1, AS)                                              \
	VSH1_(T, CV, _rtp, 2, AS)                                              \
	VSH1_(T, CV, _rtn, 3, AS)
#define VSHT_(T, CV)                                                           \
	VSHR_(T, CV, __global) VSHR_(T, CV, __local) VSHR_(T, CV, __private)
VSHT_(float, f2h)
#if HPCL_FP64
VSHT_(double, d2h)
#endif
