// SPDX-License-Identifier: MIT
/*
 * Math functions (OpenCL 3.0 C 6.15.2) for float and, with cl_khr_fp64,
 * double: clang's __builtin_ math functions become LLVM intrinsics or calls
 * to picolibc's libm (sinf, tgamma...), which the kernel object's link
 * resolves. half_* and native_* are the full-precision functions.
 */
#include "clc.h"

/* private: libm's reentrant lgamma (the plain one writes signgam). */
float hp_lgamma_rf(float, int *) __asm__("lgammaf_r");
#if HPCL_FP64
double hp_lgamma_r(double, int *) __asm__("lgamma_r");
#endif

/* cbrt, erfc, pow, pown, rootn, tgamma: libm's float versions err past
 * the limit, libm.c's (through double) do not; the double ones are libm's,
 * rootn's with its argument reduced first, tgamma's below. */
float hp_cbrtf(float) __asm__("__hpcl_cbrtf");
float hp_erfcf(float) __asm__("__hpcl_erfcf");
float hp_powf(float, float) __asm__("__hpcl_powf");
float hp_pownf(float, int) __asm__("__hpcl_pownf");
float hp_rootn_absf(float, int) __asm__("__hpcl_rootnf");
float hp_tgammaf(float) __asm__("__hpcl_tgammaf");
#if HPCL_FP64
double hp_cbrt(double) __asm__("cbrt");
double hp_erfc(double) __asm__("erfc");
static double hp_pow(double x, double y)
{
	return __builtin_pow(x, y);
}
static double hp_pown(double x, int n)
{
	return __builtin_pow(x, (double)n);
}
/* ax^(1/n), ax = |x| > 0: pow(ax, 1/n) errs by |ln r| 2^-53 relatively
 * from the rounding of 1/n (75 ulp at rootn(DBL_MAX, 3)), so ax = a 2^(k|n|)
 * first, a in [1, 2^|n|): a^(1/n) has |ln| < ln 2, and 2^(+-k) is exact.
 * With |n| > 1023 (a would not fit) |ln ax^(1/n)| < ln(2^1075) / 1024. */
static double hp_rootn_abs(double ax, int n)
{
	long m = n < 0 ? -(long)n : n, k = 0;
	if (m < 1024) {
		long e = __builtin_ilogb(ax);
		k = e >= 0 ? e / m : -((m - 1 - e) / m);
		ax = __builtin_ldexp(ax, (int)(-k * m));
	}
	return __builtin_ldexp(__builtin_pow(ax, 1.0 / (double)n),
			       (int)(n < 0 ? -k : k));
}
#endif

/* fma: the hardware's with F and D; without an FPU softfma.c's (picolibc's
 * soft fmaf rounds some results wrongly). */
#if defined(__riscv_float_abi_soft)
float __hpcl_fmaf(float, float, float);
#define HP_FMAf __hpcl_fmaf
#else
#define HP_FMAf __builtin_fmaf
#endif
#define HP_FMA __builtin_fma

/* Unary: T F(T) from __builtin_F<S>. */
#define UN_(F, T, S)                                                           \
	T OVC F(T x)                                                           \
	{                                                                      \
		return __builtin_##F##S(x);                                    \
	}                                                                      \
	HP_V1(T, T, F)
#define BIN_(F, T, S)                                                          \
	T OVC F(T x, T y)                                                      \
	{                                                                      \
		return __builtin_##F##S(x, y);                                 \
	}                                                                      \
	HP_V2(T, T, F)
/* Unary / binary from an expression of x (and y). */
#define UNX_(F, T, E)                                                          \
	T OVC F(T x)                                                           \
	{                                                                      \
		return E;                                                      \
	}                                                                      \
	HP_V1(T, T, F)
#define BINX_(F, T, E)                                                         \
	T OVC F(T x, T y)                                                      \
	{                                                                      \
		return E;                                                      \
	}                                                                      \
	HP_V2(T, T, F)
/* Pointer outputs in every named address space: scalar body B with the
 * result in *p, vectors componentwise through the private overload. */
#define PTR_V_(n, F, T, P, AS)                                                 \
	T##n OVL F(T##n x, AS P##n *p)                                         \
	{                                                                      \
		T##n r;                                                        \
		P##n q;                                                        \
		for (int i = 0; i < n; i++) {                                  \
			P t;                                                   \
			r[i] = F(x[i], &t);                                    \
			q[i] = t;                                              \
		}                                                              \
		*p = q;                                                        \
		return r;                                                      \
	}
#define PTR_AS_(F, T, P, AS)                                                   \
	T OVL F(T x, AS P *p)                                                  \
	{                                                                      \
		P t;                                                           \
		T r = F(x, &t);                                                \
		*p = t;                                                        \
		return r;                                                      \
	}                                                                      \
	HP_VEC(PTR_V_, F, T, P, AS)
#define PTR_(F, T, P, B)                                                       \
	T OVL F(T x, __private P *p){B} HP_VEC(PTR_V_, F, T, P, __private)     \
		PTR_AS_(F, T, P, __global) PTR_AS_(F, T, P, __local)

/* Everything of one floating type T (libm suffix S, I: the integer of the
 * same width, M_PI etc. with suffix PS). */
#define MATH_(T, S, I, U, PI, PI_INV, FRACT_MAX)                               \
	UN_(acos, T, S)                                                        \
	UN_(acosh, T, S)                                                       \
	UN_(asin, T, S)                                                        \
	UN_(asinh, T, S)                                                       \
	UN_(atan, T, S)                                                        \
	UN_(atanh, T, S)                                                       \
	UN_(ceil, T, S)                                                        \
	UN_(cos, T, S)                                                         \
	UN_(cosh, T, S)                                                        \
	UN_(erf, T, S)                                                         \
	UN_(exp, T, S)                                                         \
	UN_(exp2, T, S)                                                        \
	UN_(exp10, T, S)                                                       \
	UN_(expm1, T, S)                                                       \
	UN_(fabs, T, S)                                                        \
	UN_(floor, T, S)                                                       \
	UN_(log, T, S)                                                         \
	UN_(log2, T, S)                                                        \
	UN_(log10, T, S)                                                       \
	UN_(log1p, T, S)                                                       \
	UN_(logb, T, S)                                                        \
	UN_(rint, T, S)                                                        \
	UN_(round, T, S)                                                       \
	UN_(sin, T, S)                                                         \
	UN_(sinh, T, S)                                                        \
	UN_(sqrt, T, S)                                                        \
	UN_(tan, T, S)                                                         \
	UN_(tanh, T, S)                                                        \
	UN_(trunc, T, S)                                                       \
	UNX_(acospi, T, acos(x) * PI_INV)                                      \
	UNX_(asinpi, T, asin(x) * PI_INV)                                      \
	UNX_(atanpi, T, atan(x) * PI_INV)                                      \
	UNX_(rsqrt, T, (T)1 / sqrt(x))                                         \
	UNX_(cbrt, T, hp_cbrt##S(x))                                           \
	UNX_(tgamma, T, hp_tgamma##S(x))                                       \
	UNX_(erfc, T, hp_erfc##S(x))                                           \
	UNX_(lgamma, T, hp_lgamma_r_##T(x))                                    \
	BIN_(atan2, T, S)                                                      \
	BIN_(copysign, T, S)                                                   \
	BIN_(fdim, T, S)                                                       \
	BIN_(fmod, T, S)                                                       \
	BIN_(hypot, T, S)                                                      \
	BIN_(nextafter, T, S)                                                  \
	BINX_(pow, T, hp_pow##S(x, y))                                         \
	BIN_(remainder, T, S)                                                  \
	BINX_(atan2pi, T, atan2(x, y) * PI_INV)                                \
	BINX_(fmax, T, __builtin_fmax##S(x, y))                                \
	BINX_(fmin, T, __builtin_fmin##S(x, y))                                \
	HP_V2S(T, T, T, fmax)                                                  \
	HP_V2S(T, T, T, fmin)                                                  \
	BINX_(maxmag, T,                                                       \
	      fabs(x) > fabs(y)	  ? x                                          \
	      : fabs(y) > fabs(x) ? y                                          \
				  : fmax(x, y))                                \
	BINX_(minmag, T,                                                       \
	      fabs(x) < fabs(y)	  ? x                                          \
	      : fabs(y) < fabs(x) ? y                                          \
				  : fmin(x, y))                                \
	BINX_(powr, T, hp_powr_##T(x, y))                                      \
	UNX_(sinpi, T, hp_sinpi_##T(x))                                        \
	UNX_(cospi, T, hp_cospi_##T(x))                                        \
	UNX_(tanpi, T, hp_sinpi_##T(x) / hp_cospi_##T(x))                      \
	T OVC fma(T a, T b, T c)                                               \
	{                                                                      \
		return HP_FMA##S(a, b, c);                                     \
	}                                                                      \
	HP_V3(T, T, fma)                                                       \
	T OVC mad(T a, T b, T c)                                               \
	{                                                                      \
		return HP_FMA##S(a, b, c);                                     \
	}                                                                      \
	HP_V3(T, T, mad)                                                       \
	int OVC ilogb(T x)                                                     \
	{                                                                      \
		/* FP_ILOGB0, FP_ILOGBNAN as opencl-c-base.h defines them */   \
		if (x == 0)                                                    \
			return FP_ILOGB0;                                      \
		if (__builtin_isnan(x))                                        \
			return FP_ILOGBNAN;                                    \
		return __builtin_ilogb##S(x);                                  \
	}                                                                      \
	HP_V1(int, T, ilogb)                                                   \
	T OVC ldexp(T x, int e)                                                \
	{                                                                      \
		return __builtin_ldexp##S(x, e);                               \
	}                                                                      \
	HP_V2M(T, T, int, ldexp)                                               \
	HP_V2S(T, T, int, ldexp)                                               \
	T OVC pown(T x, int n)                                                 \
	{                                                                      \
		return hp_pown_##T(x, n);                                      \
	}                                                                      \
	HP_V2M(T, T, int, pown)                                                \
	T OVC rootn(T x, int n)                                                \
	{                                                                      \
		return hp_rootn_##T(x, n);                                     \
	}                                                                      \
	HP_V2M(T, T, int, rootn)                                               \
	T OVC nan(U c)                                                         \
	{                                                                      \
		return hp_nan_##T(c);                                          \
	}                                                                      \
	HP_V1(T, U, nan)                                                       \
	PTR_(fract, T, T, {                                                    \
		T fl = floor(x);                                               \
		*p = fl;                                                       \
		if (isnan(x))                                                  \
			return x;                                              \
		if (isinf(x))                                                  \
			return copysign((T)0, x);                              \
		return fmin(x - fl, FRACT_MAX);                                \
	})                                                                     \
	PTR_(frexp, T, int, {                                                  \
		int e;                                                         \
		T r = __builtin_frexp##S(x, &e);                               \
		*p = e;                                                        \
		return r;                                                      \
	})                                                                     \
	PTR_(modf, T, T, {                                                     \
		T ip = trunc(x);                                               \
		*p = ip;                                                       \
		return isinf(x) ? copysign((T)0, x) : copysign(x - ip, x);     \
	})                                                                     \
	PTR_(lgamma_r, T, int, {                                               \
		int s;                                                         \
		T r = hp_lgamma_r##S(x, &s);                                   \
		*p = s;                                                        \
		return r;                                                      \
	})                                                                     \
	PTR_(sincos, T, T, {                                                   \
		*p = cos(x);                                                   \
		return sin(x);                                                 \
	})

/* remquo(x, y, *quo): two values in, so its own macros. */
#define REMQUO_V_(n, T, AS)                                                    \
	T##n OVL remquo(T##n x, T##n y, AS int##n *p)                          \
	{                                                                      \
		T##n r;                                                        \
		int##n q;                                                      \
		for (int i = 0; i < n; i++) {                                  \
			int t;                                                 \
			r[i] = remquo(x[i], y[i], &t);                         \
			q[i] = t;                                              \
		}                                                              \
		*p = q;                                                        \
		return r;                                                      \
	}
#define REMQUO_AS_(T, AS)                                                      \
	T OVL remquo(T x, T y, AS int *p)                                      \
	{                                                                      \
		int t;                                                         \
		T r = remquo(x, y, &t);                                        \
		*p = t;                                                        \
		return r;                                                      \
	}                                                                      \
	HP_VEC(REMQUO_V_, T, AS)
/* Not libm's remquo (it errs with a subnormal y): the quotient's low 7 bits
 * from |x| less a multiple of 128 |y| (fmod and remainder are exact; m - r
 * is n |y|, n <= 128, so m / y - r / y rounds to n; m - r itself may
 * overflow). */
#define REMQUO_(T, S)                                                          \
	T OVL remquo(T x, T y, __private int *p)                               \
	{                                                                      \
		if (__builtin_isnan(x) || __builtin_isnan(y) ||                \
		    __builtin_isinf(x) || y == 0) {                            \
			*p = 0;                                                \
			return __builtin_nan##S("");                           \
		}                                                              \
		T ax = __builtin_fabs##S(x), ay = __builtin_fabs##S(y);        \
		T m = __builtin_fmod##S(ax, ay * 128); /* inf: ax */           \
		T r = __builtin_remainder##S(m, ay);                           \
		int n = (int)__builtin_rint##S(m / ay - r / ay) & 127;         \
		*p = !__builtin_signbit(x) != !__builtin_signbit(y) ? -n : n;  \
		return __builtin_signbit(x) ? -r : r;                          \
	}                                                                      \
	HP_VEC(REMQUO_V_, T, __private)                                        \
	REMQUO_AS_(T, __global) REMQUO_AS_(T, __local)

/* half_* and native_* (float only): the full-precision functions. */
#define ALIAS1_(P, F)                                                          \
	float OVC P##F(float x)                                                \
	{                                                                      \
		return F(x);                                                   \
	}                                                                      \
	HP_V1(float, float, P##F)
#define ALIAS2_(P, F, E)                                                       \
	float OVC P##F(float x, float y)                                       \
	{                                                                      \
		return E;                                                      \
	}                                                                      \
	HP_V2(float, float, P##F)
#define RELAXED_(P)                                                            \
	ALIAS1_(P, cos)                                                        \
	ALIAS1_(P, exp)                                                        \
	ALIAS1_(P, exp2)                                                       \
	ALIAS1_(P, exp10)                                                      \
	ALIAS1_(P, log)                                                        \
	ALIAS1_(P, log2)                                                       \
	ALIAS1_(P, log10)                                                      \
	ALIAS1_(P, rsqrt)                                                      \
	ALIAS1_(P, sin)                                                        \
	ALIAS1_(P, sqrt)                                                       \
	ALIAS1_(P, tan)                                                        \
	UNX_(P##recip, float, 1.0f / x)                                        \
	ALIAS2_(P, divide, x / y)                                              \
	ALIAS2_(P, powr, powr(x, y))

/* Helpers per type, before the catalogue uses them. */
#define HELPERS_(T, S, U, QNAN, PI)                                            \
	static int OVC isnan(T x)                                              \
	{                                                                      \
		return __builtin_isnan(x);                                     \
	}                                                                      \
	static int OVC isinf(T x)                                              \
	{                                                                      \
		return __builtin_isinf(x);                                     \
	}                                                                      \
	static T hp_nan_##T(U c)                                               \
	{                                                                      \
		return __builtin_bit_cast(T,                                   \
					  QNAN | (c & ((QNAN & -QNAN) - 1)));  \
	}                                                                      \
	static T hp_lgamma_r_##T(T x)                                          \
	{                                                                      \
		int s;                                                         \
		return hp_lgamma_r##S(x, &s);                                  \
	}                                                                      \
	/* sin(pi x): reduced exactly to [-1/2, 1/2] first. */                 \
	static T hp_sinpi_##T(T x)                                             \
	{                                                                      \
		if (__builtin_isinf(x) || __builtin_isnan(x))                  \
			return x - x;                                          \
		if (__builtin_floor##S(x) == x)                                \
			return __builtin_copysign##S((T)0, x);                 \
		T r = x - 2 * __builtin_round##S(x * ((T)1 / 2));              \
		if (r > ((T)1 / 2))                                            \
			r = 1 - r;                                             \
		else if (r < (-(T)1 / 2))                                      \
			r = -1 - r;                                            \
		return __builtin_sin##S(PI * r);                               \
	}                                                                      \
	static T hp_cospi_##T(T x)                                             \
	{                                                                      \
		if (__builtin_isinf(x) || __builtin_isnan(x))                  \
			return x - x;                                          \
		T r = __builtin_fabs##S(x);                                    \
		r = r - 2 * __builtin_floor##S(r * ((T)1 / 2)); /* [0, 2) */   \
		if (r > 1)                                                     \
			r = 2 - r; /* [0, 1] */                                \
		if (r == ((T)1 / 2))                                           \
			return 0;                                              \
		if (r < ((T)1 / 4))                                            \
			return __builtin_cos##S(PI * r);                       \
		return __builtin_sin##S(PI * (((T)1 / 2) - r));                \
	}                                                                      \
	static T hp_powr_##T(T x, T y)                                         \
	{                                                                      \
		if (x < 0 || __builtin_isnan(x) || __builtin_isnan(y))         \
			return __builtin_nan##S("");                           \
		if (x == 0 && y == 0)                                          \
			return __builtin_nan##S("");                           \
		if (__builtin_isinf(x) && y == 0)                              \
			return __builtin_nan##S("");                           \
		if (x == 1 && __builtin_isinf(y))                              \
			return __builtin_nan##S("");                           \
		/* powr(-0, y) is powr(+0, y): +inf or +0 */                   \
		return hp_pow##S(__builtin_fabs##S(x), y);                     \
	}                                                                      \
	static T hp_pown_##T(T x, int n)                                       \
	{                                                                      \
		return hp_pown##S(x, n);                                       \
	}                                                                      \
	static T hp_rootn_##T(T x, int n)                                      \
	{                                                                      \
		if (n == 0)                                                    \
			return __builtin_nan##S("");                           \
		if (x < 0 && !(n & 1))                                         \
			return __builtin_nan##S("");                           \
		if (x == 0) {                                                  \
			T z = (n & 1) ? x : (T)0;                              \
			return n > 0 ? z : 1 / z;                              \
		}                                                              \
		T r = hp_rootn_abs##S(__builtin_fabs##S(x), n);                \
		return x < 0 ? -r : r;                                         \
	}

HELPERS_(float, f, uint, 0x7fc00000u, M_PI_F)
MATH_(float, f, int, uint, M_PI_F, M_1_PI_F, 0x1.fffffep-1f)
REMQUO_(float, f)
RELAXED_(half_)
RELAXED_(native_)
#if HPCL_FP64
HELPERS_(double, , ulong, 0x7ff8000000000000ul, M_PI)
/* tgamma(double): libm's errs by up to 1,200 ulp (x near 140; limit 16),
 * so it is computed here. For |x| < 10 the recurrence takes x to t + 1,
 * t in [-1/2, 1/2), with every x - 1 or x + 1 on the way exact, and
 * ln tgamma(1 + t) = -gamma t + sum (-1)^k zeta(k) t^k / k (k = 2..56:
 * below 2^-60 at |t| = 1/2); from 10 up Stirling's series, x^(x - 1/2)
 * as two halves so that the product overflows only where tgamma does; down
 * from -10 the reflection through tgamma(-x), divided in the same halves. */
static __constant double hp_lgamma1p_c[] = {
	-0x1.2788cfc6fb619p-1, 0x1.a51a6625307d3p-1,  -0x1.9a4d55beab2d7p-2,
	0x1.151322ac7d848p-2,  -0x1.a8b9c17aa6149p-3, 0x1.5b40cb100c306p-3,
	-0x1.2703a1dcea3aep-3, 0x1.010b36af86397p-3,  -0x1.c806706d57db4p-4,
	0x1.9a01e385d5f8fp-4,  -0x1.748c33114c6d6p-4, 0x1.556ad63243bc4p-4,
	-0x1.3b1d971fc5985p-4, 0x1.2496df8320c5fp-4,  -0x1.11133476e7fe0p-4,
	0x1.00010064cdeb2p-4,  -0x1.e1e2d311e8abdp-5, 0x1.c71ce3a20b419p-5,
	-0x1.af28a1b5688a0p-5, 0x1.9999b3352d5bap-5,  -0x1.86186db77bfbfp-5,
	0x1.745d1d1778df9p-5,  -0x1.642c88591b66dp-5, 0x1.555556aaafdcdp-5,
	-0x1.47ae151eb9fb7p-5, 0x1.3b13b189d925ep-5,  -0x1.2f684c00002bcp-5,
	0x1.24924936db7bcp-5,  -0x1.1a7b961a7b9aap-5, 0x1.111111155556dp-5,
	-0x1.08421086318cep-5, 0x1.0000000100002p-5,  -0x1.f07c1f08ba2eap-6,
	0x1.e1e1e1e25a5a6p-6,  -0x1.d41d41d457c58p-6, 0x1.c71c71c738e39p-6,
	-0x1.bacf914c29837p-6, 0x1.af286bca21af3p-6,  -0x1.a41a41a41d89ep-6,
	0x1.999999999b333p-6,  -0x1.8f9c18f9c2577p-6, 0x1.8618618618c31p-6,
	-0x1.7d05f417d08eep-6, 0x1.745d1745d18bap-6,  -0x1.6c16c16c16ccdp-6,
	0x1.642c8590b21bdp-6,  -0x1.5c9882b931083p-6, 0x1.555555555556bp-6,
	-0x1.4e5e0a72f0544p-6, 0x1.47ae147ae1480p-6,  -0x1.4141414141417p-6,
	0x1.3b13b13b13b15p-6,  -0x1.3521cfb2b78c2p-6, 0x1.2f684bda12f69p-6,
	-0x1.29e4129e4129ep-6, 0x1.2492492492492p-6};
static __constant double hp_stirling_c[] = {
	1.0 / 12,    -1.0 / 360,       1.0 / 1260,
	-1.0 / 1680, 1.0 / 1188,       -691.0 / 360360,
	1.0 / 156,   -3617.0 / 122400, 43867.0 / 244188};
/* tgamma(y), y >= 10, as h * r (h = y^((y - 1/2) / 2): both finite). */
static double hp_stirling(double y, double *h)
{
	double z = 1 / (y * y), s = 0;
	for (int k = 8; k >= 0; k--)
		s = s * z + hp_stirling_c[k];
	*h = __builtin_pow(y, (y - 0.5) * 0.5);
	return *h * __builtin_exp(-y) * 0x1.40d931ff62706p+1 /* sqrt(2 pi) */ *
	       __builtin_exp(s / y);
}
static double hp_tgamma(double x)
{
	double h, r, num = 1, den = 1, t, l = 0;
	if (__builtin_isnan(x) || x == __builtin_inf())
		return x;
	if (x == __builtin_floor(x) && x <= 0) /* poles: +-inf at +-0 */
		return x == 0 ? 1 / x : __builtin_nan("");
	if (x > 180) /* past DBL_MAX from 171.63 */
		return __builtin_inf();
	if (x >= 10) {
		r = hp_stirling(x, &h);
		return h * r;
	}
	if (x <= -10) {
		double s = -M_PI / (x * hp_sinpi_double(x));
		if (x < -190) /* below the least subnormal from -184 */
			return __builtin_copysign(0.0, s);
		r = hp_stirling(-x, &h);
		return s / h / r;
	}
	for (; x >= 1.5; num *= x)
		x -= 1;
	for (; x < -0.5; x += 1)
		den *= x;
	if (x < 0.5) {
		den *= x;
		t = x;
	} else {
		t = x - 1;
	}
	for (int k = 55; k >= 0; k--)
		l = l * t + hp_lgamma1p_c[k];
	return __builtin_exp(l * t) * num / den;
}
MATH_(double, , long, ulong, M_PI, M_1_PI, 0x1.fffffffffffffp-1)
REMQUO_(double, )
#endif
