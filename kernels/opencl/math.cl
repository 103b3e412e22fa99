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
	UN_(cbrt, T, S)                                                        \
	UN_(ceil, T, S)                                                        \
	UN_(cos, T, S)                                                         \
	UN_(cosh, T, S)                                                        \
	UN_(erf, T, S)                                                         \
	UN_(erfc, T, S)                                                        \
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
	UN_(tgamma, T, S)                                                      \
	UN_(trunc, T, S)                                                       \
	UNX_(acospi, T, acos(x) * PI_INV)                                      \
	UNX_(asinpi, T, asin(x) * PI_INV)                                      \
	UNX_(atanpi, T, atan(x) * PI_INV)                                      \
	UNX_(rsqrt, T, (T)1 / sqrt(x))                                         \
	UNX_(lgamma, T, hp_lgamma_r_##T(x))                                    \
	BIN_(atan2, T, S)                                                      \
	BIN_(copysign, T, S)                                                   \
	BIN_(fdim, T, S)                                                       \
	BIN_(fmod, T, S)                                                       \
	BIN_(hypot, T, S)                                                      \
	BIN_(nextafter, T, S)                                                  \
	BIN_(pow, T, S)                                                        \
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
#define REMQUO_(T, S)                                                          \
	T OVL remquo(T x, T y, __private int *p)                               \
	{                                                                      \
		int q;                                                         \
		T r = __builtin_remquo##S(x, y, &q);                           \
		*p = q;                                                        \
		return r;                                                      \
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
		return __builtin_pow##S(x, y);                                 \
	}                                                                      \
	static T hp_pown_##T(T x, int n)                                       \
	{                                                                      \
		return __builtin_pow##S(x, (T)n);                              \
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
		T r = __builtin_pow##S(__builtin_fabs##S(x), (T)1 / (T)n);     \
		return x < 0 ? -r : r;                                         \
	}

HELPERS_(float, f, uint, 0x7fc00000u, M_PI_F)
MATH_(float, f, int, uint, M_PI_F, M_1_PI_F, 0x1.fffffep-1f)
REMQUO_(float, f)
RELAXED_(half_)
RELAXED_(native_)
#if HPCL_FP64
HELPERS_(double, , ulong, 0x7ff8000000000000ul, M_PI)
MATH_(double, , long, ulong, M_PI, M_1_PI, 0x1.fffffffffffffp-1)
REMQUO_(double, )
#endif
