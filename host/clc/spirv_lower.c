// SPDX-License-Identifier: MIT
/*
 * hp_spirv_lower (hartpool_cl.h): a SPIR-V module rewritten, instruction
 * by instruction, into one the translator (llvm-spirv-15) takes, with the
 * same meaning. It reads SPIR-V up to 1.4 but does not implement every
 * instruction of 1.4, nor OpConstantNull of a scalar:
 *   OpConstantNull %int/%float  -> OpConstant 0    %bool -> OpConstantFalse
 *   OpDecorateString, OpMemberDecorateString (UserSemantic)  -> dropped
 *   OpCopyMemory                 -> OpLoad and OpStore (the translator has
 *                                   none; each with its memory operands)
 *   OpCopyMemorySized with a second memory operand -> the first only
 *   OpPtrEqual / OpPtrNotEqual   -> OpConvertPtrToU twice, OpIEqual/INotEqual
 *   OpPtrDiff                    -> the same, OpISub, OpSDiv by the size
 *   OpVectorShuffle of two vector lengths -> the shorter widened by a
 *                                   shuffle of itself, then the shuffle
 *   OpVariable %p Function %init -> the variable, then OpStore %init after
 *                                   the block's variables (the translator
 *                                   makes a static global of it)
 *   OpCopyLogical                -> OpCompositeExtract of each member (the
 *                                   same, recursively, where types differ),
 *                                   OpCompositeConstruct; OpCopyObject if
 *                                   the types are one
 * New ids come from the header's bound; a pointer-sized integer type and
 * the element sizes OpPtrDiff divides by go before the first function.
 * The input is one hp_spirv_read accepted (lengths checked).
 */
#include "hartpool_cl.h"
#include <stdlib.h>
#include <string.h>

enum {
	OP_TYPE_BOOL = 20,
	OP_TYPE_INT = 21,
	OP_TYPE_FLOAT = 22,
	OP_TYPE_VECTOR = 23,
	OP_TYPE_ARRAY = 28,
	OP_TYPE_STRUCT = 30,
	OP_TYPE_POINTER = 32,
	OP_CONSTANT_FALSE = 42,
	OP_CONSTANT = 43,
	OP_CONSTANT_NULL = 46,
	OP_FUNCTION = 54,
	OP_COPY_MEMORY = 63,
	OP_COPY_MEMORY_SIZED = 64,
	OP_COPY_OBJECT = 83,
	OP_COMPOSITE_CONSTRUCT = 80,
	OP_COMPOSITE_EXTRACT = 81,
	OP_CONVERT_PTR_TO_U = 117,
	OP_ISUB = 130,
	OP_SDIV = 135,
	OP_IEQUAL = 170,
	OP_INOT_EQUAL = 171,
	OP_COPY_LOGICAL = 400,
	OP_PTR_EQUAL = 401,
	OP_PTR_NOT_EQUAL = 402,
	OP_PTR_DIFF = 403,
	OP_DECORATE_STRING = 5632,
	OP_MEMBER_DECORATE_STRING = 5633,
};

typedef struct {
	const uint32_t *in;
	size_t nin;
	uint32_t *def; /* id -> word index of its defining instruction */
	uint32_t bound, bound0; /* the ids: now, and the input's */
	uint32_t *w;		/* the output */
	size_t n, cap;
	int oom;
	/* what goes before the first function */
	uint32_t uptr;	       /* the pointer-sized integer type (id) */
	bool uptr_new;	       /* declared by us */
	uint32_t sizes[16][2]; /* OpPtrDiff: (type, size) -> constant */
	uint32_t size_id[16];
	unsigned nsizes;
	unsigned address_bits;
	/* Function variables with initializers: stored after the block's
	 * variables */
	uint32_t pend[64][2];
	unsigned npend;
} lower;

static void put(lower *l, uint32_t x)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? 2 * l->cap : 1024;
		uint32_t *w = realloc(l->w, cap * 4);
		if (!w) {
			l->oom = 1;
			return;
		}
		l->w = w, l->cap = cap;
	}
	l->w[l->n++] = x;
}

static void inst(lower *l, uint32_t op, unsigned nw, const uint32_t *ws)
{
	put(l, (nw + 1) << 16 | op);
	for (unsigned i = 0; i < nw; i++)
		put(l, ws[i]);
}

static const uint32_t *def_of(const lower *l, uint32_t id)
{
	return id < l->bound0 && l->def[id] ? l->in + l->def[id] : NULL;
}

/* The opcode of @p d if it has the words its kind needs (so the fields
 * the rewrites read are there), else 0. */
static uint32_t op_of(const uint32_t *d)
{
	if (!d)
		return 0;
	uint32_t op = d[0] & 0xffff, wc = d[0] >> 16;
	unsigned need = op == OP_TYPE_INT || op == OP_TYPE_VECTOR ||
					op == OP_TYPE_ARRAY ||
					op == OP_TYPE_POINTER ||
					op == OP_CONSTANT
				? 4
			: op == OP_TYPE_FLOAT ? 3
					      : 2;
	return wc >= need ? op : 0;
}

/* The type of value @p id (word 1 of a value's instruction). */
static uint32_t type_of(const lower *l, uint32_t id)
{
	const uint32_t *d = def_of(l, id);
	return d && d[0] >> 16 >= 3 ? d[1] : 0;
}

/* Bytes of a value of type @p t (scalars, vectors with 3 as 4, arrays,
 * packed-as-C structs); 0 if not known. */
static uint64_t size_of(const lower *l, uint32_t t, unsigned depth)
{
	const uint32_t *d = def_of(l, t);
	uint32_t wc = d ? d[0] >> 16 : 0;
	if (!d || depth > 8)
		return 0;
	switch (op_of(d)) {
	case OP_TYPE_INT:
	case OP_TYPE_FLOAT:
		return wc >= 3 ? d[2] / 8 : 0;
	case OP_TYPE_BOOL:
		return 1;
	case OP_TYPE_POINTER:
		return l->address_bits / 8;
	case OP_TYPE_VECTOR: {
		uint32_t c = wc >= 4 ? d[3] : 0;
		return size_of(l, d[2], depth + 1) * (c == 3 ? 4 : c);
	}
	case OP_TYPE_ARRAY: {
		const uint32_t *len = wc >= 4 ? def_of(l, d[3]) : NULL;
		if (op_of(len) != OP_CONSTANT || len[0] >> 16 < 4)
			return 0;
		return size_of(l, d[2], depth + 1) * len[3];
	}
	case OP_TYPE_STRUCT: {
		uint64_t s = 0, al = 1;
		for (uint32_t i = 2; i < wc; i++) {
			uint64_t m = size_of(l, d[i], depth + 1), a = 1;
			if (!m)
				return 0;
			while (a < m && a < 128 && !(m % (a * 2)))
				a *= 2;
			s = (s + a - 1) / a * a + m;
			al = a > al ? a : al;
		}
		return (s + al - 1) / al * al;
	}
	default:
		return 0;
	}
}

/* The id instruction @p x defines (0: none): types and a few others name
 * it first, values second, after their type. */
static uint32_t result_of(uint32_t op, uint32_t wc, const uint32_t *x)
{
	bool first = (op >= 19 && op <= 39) || op == 322 || op == 327 ||
		     op == 7 || op == 11 || op == 73 || op == 248;
	if (first)
		return wc >= 2 ? x[1] : 0;
	switch (op) {
	case 0:	      /* nop */
	case 2 ... 6: /* sources, names */
	case 8:
	case 10:
	case 14 ... 17: /* memory model, entry points, modes, capabilities */
	case 62 ... 64: /* store, copies */
	case 71 ... 75: /* decorations */
	case 224:
	case 225:
	case 228:	  /* barriers, atomic store */
	case 246 ... 257: /* merges, branches, returns, lifetimes */
	case 317:
	case 330:
	case 5632:
	case 5633:
		return 0;
	default:
		return wc >= 3 ? x[2] : 0;
	}
}

/* Pass A: the definitions, and what the functions will need declared. */
static int scan(lower *l)
{
	l->def = calloc(l->bound ? l->bound : 1, sizeof(uint32_t));
	if (!l->def)
		return -1;
	for (size_t i = 5; i < l->nin; i += l->in[i] >> 16) {
		const uint32_t *x = l->in + i;
		uint32_t op = x[0] & 0xffff, wc = x[0] >> 16;
		uint32_t id = result_of(op, wc, x);
		if (op == OP_TYPE_INT && wc >= 3 && x[2] == l->address_bits &&
		    !l->uptr)
			l->uptr = x[1];
		if (id && id < l->bound && !l->def[id])
			l->def[id] = (uint32_t)i;
	}
	return 0;
}

static uint32_t fresh(lower *l)
{
	return l->bound++;
}

/* The id of a constant of type l->uptr with value @p size (declared
 * before the first function). */
static uint32_t size_const(lower *l, uint64_t size)
{
	for (unsigned i = 0; i < l->nsizes; i++)
		if (l->sizes[i][1] == size)
			return l->size_id[i];
	if (l->nsizes == 16)
		return 0;
	l->sizes[l->nsizes][0] = l->uptr;
	l->sizes[l->nsizes][1] = (uint32_t)size;
	return l->size_id[l->nsizes++] = fresh(l);
}

/* Pass A's second half: the types and constants the rewrites need. */
static void plan(lower *l)
{
	for (size_t i = 5; i < l->nin; i += l->in[i] >> 16) {
		const uint32_t *x = l->in + i;
		uint32_t op = x[0] & 0xffff;
		if (op < OP_PTR_EQUAL || op > OP_PTR_DIFF)
			continue;
		if (!l->uptr) {
			l->uptr = fresh(l);
			l->uptr_new = true;
		}
		if (op == OP_PTR_DIFF && (x[0] >> 16) >= 5) {
			const uint32_t *pt = def_of(l, type_of(l, x[3]));
			uint64_t s = op_of(pt) == OP_TYPE_POINTER
					     ? size_of(l, pt[3], 0)
					     : 0;
			if (s)
				size_const(l, s);
		}
	}
}

static void globals(lower *l)
{
	if (l->uptr_new)
		inst(l, OP_TYPE_INT, 3,
		     (uint32_t[]){l->uptr, l->address_bits, 0});
	for (unsigned i = 0; i < l->nsizes; i++) {
		uint32_t w[4] = {l->sizes[i][0], l->size_id[i], l->sizes[i][1],
				 0};
		inst(l, OP_CONSTANT, l->address_bits == 64 ? 4 : 3, w);
	}
}

/* The words of one memory-operand set starting at @p x[k]. */
static unsigned mem_operand_words(const uint32_t *x, unsigned k, unsigned wc)
{
	if (k >= wc)
		return 0;
	uint32_t m = x[k];
	unsigned n = 1 + !!(m & 2) + !!(m & 8) + !!(m & 16);
	return k + n <= wc ? n : wc - k;
}

/* %res = OpCopyLogical %to %v (of type @p from): members extracted,
 * copied, constructed. */
static void copy_logical(lower *l, uint32_t to, uint32_t res, uint32_t v,
			 uint32_t from, unsigned depth)
{
	const uint32_t *dt = def_of(l, to), *df = def_of(l, from);
	uint32_t n = 0;
	if (to != from && depth < 8 && op_of(dt) == op_of(df)) {
		if (op_of(dt) == OP_TYPE_STRUCT && dt[0] >> 16 == df[0] >> 16)
			n = (dt[0] >> 16) - 2;
		else if (op_of(dt) == OP_TYPE_ARRAY) {
			const uint32_t *lt = def_of(l, dt[3]),
				       *lf = def_of(l, df[3]);
			n = op_of(lt) == OP_CONSTANT &&
					    op_of(lf) == OP_CONSTANT &&
					    lt[3] == lf[3]
				    ? lt[3]
				    : 0;
		}
	}
	if (!n || n > 64) {
		inst(l, OP_COPY_OBJECT, 3, (uint32_t[]){to, res, v});
		return;
	}
	uint32_t parts[64 + 2] = {to, res};
	for (uint32_t i = 0; i < n; i++) {
		bool st = op_of(dt) == OP_TYPE_STRUCT;
		uint32_t mt = st ? dt[2 + i] : dt[2];
		uint32_t mf = st ? df[2 + i] : df[2];
		uint32_t e = fresh(l);
		inst(l, OP_COMPOSITE_EXTRACT, 4, (uint32_t[]){mf, e, v, i});
		if (mt != mf) {
			uint32_t c = fresh(l);
			copy_logical(l, mt, c, e, mf, depth + 1);
			e = c;
		}
		parts[2 + i] = e;
	}
	inst(l, OP_COMPOSITE_CONSTRUCT, 2 + n, parts);
}

/* OpCopyMemory: the translator has none; a load of the source's object
 * (with the source's memory operands: the second set, or the one) and a
 * store (with the first). False: left as it is. */
static bool copy_memory(lower *l, const uint32_t *x)
{
	uint32_t wc = x[0] >> 16;
	const uint32_t *pt = wc >= 3 ? def_of(l, type_of(l, x[2])) : NULL;
	if (op_of(pt) != OP_TYPE_POINTER)
		return false;
	unsigned a = mem_operand_words(x, 3, wc),
		 b = mem_operand_words(x, 3 + a, wc);
	uint32_t v = fresh(l), w[8] = {pt[3], v, x[2]};
	const uint32_t *src = b ? x + 3 + a : x + 3;
	unsigned ns = b ? b : a;
	for (unsigned i = 0; i < ns && i < 5; i++)
		w[3 + i] = src[i];
	inst(l, 61 /* OpLoad */, 3 + (ns < 5 ? ns : 5), w);
	uint32_t st[8] = {x[1], v};
	for (unsigned i = 0; i < a && i < 5; i++)
		st[2 + i] = x[3 + i];
	inst(l, 62 /* OpStore */, 2 + (a < 5 ? a : 5), st);
	return true;
}

/* OpPtrEqual, OpPtrNotEqual, OpPtrDiff on the pointers' integers. */
static bool ptr_op(lower *l, const uint32_t *x)
{
	uint32_t op = x[0] & 0xffff, wc = x[0] >> 16;
	if (wc < 5 || !l->uptr)
		return false;
	uint32_t sc = 0;
	if (op == OP_PTR_DIFF) {
		const uint32_t *pt = def_of(l, type_of(l, x[3]));
		uint64_t s =
			op_of(pt) == OP_TYPE_POINTER ? size_of(l, pt[3], 0) : 0;
		if (!s || !(sc = size_const(l, s)))
			return false; /* planned in pass A: not reached */
	}
	uint32_t a = fresh(l), b = fresh(l);
	inst(l, OP_CONVERT_PTR_TO_U, 3, (uint32_t[]){l->uptr, a, x[3]});
	inst(l, OP_CONVERT_PTR_TO_U, 3, (uint32_t[]){l->uptr, b, x[4]});
	if (op != OP_PTR_DIFF) {
		inst(l, op == OP_PTR_EQUAL ? OP_IEQUAL : OP_INOT_EQUAL, 4,
		     (uint32_t[]){x[1], x[2], a, b});
		return true;
	}
	uint32_t d = fresh(l);
	inst(l, OP_ISUB, 4, (uint32_t[]){l->uptr, d, a, b});
	inst(l, OP_SDIV, 4, (uint32_t[]){x[1], x[2], d, sc});
	return true;
}

/* OpVectorShuffle of vectors of two lengths (the translator takes one):
 * the shorter widened to the longer's type by a shuffle of itself, then
 * the shuffle, its indices into the second moved. */
static bool shuffle(lower *l, const uint32_t *x)
{
	uint32_t wc = x[0] >> 16;
	const uint32_t *t1 = wc >= 5 ? def_of(l, type_of(l, x[3])) : NULL,
		       *t2 = wc >= 5 ? def_of(l, type_of(l, x[4])) : NULL;
	if (op_of(t1) != OP_TYPE_VECTOR || op_of(t2) != OP_TYPE_VECTOR ||
	    t1[3] == t2[3] || wc - 5 > 16 || t1[3] > 16 || t2[3] > 16)
		return false;
	bool first_short = t1[3] < t2[3];
	const uint32_t *lt = first_short ? t2 : t1;
	uint32_t sh = first_short ? x[3] : x[4],
		 ns = first_short ? t1[3] : t2[3], n1 = t1[3];
	uint32_t wide = fresh(l), w[4 + 16] = {lt[1], wide, sh, sh};
	for (uint32_t i = 0; i < lt[3]; i++)
		w[4 + i] = i < ns ? i : 0;
	inst(l, 79, 4 + lt[3], w);
	uint32_t r[4 + 16] = {x[1], x[2], first_short ? wide : x[3],
			      first_short ? x[4] : wide};
	for (uint32_t i = 5; i < wc; i++) {
		uint32_t c = x[i];
		/* the second vector starts at the first's length */
		if (c != 0xffffffffu && c >= n1)
			c = c - n1 + lt[3];
		r[4 + i - 5] = c;
	}
	inst(l, 79, 4 + (wc - 5), r);
	return true;
}

/* An initialized Function variable (the translator makes it a static
 * global): the variable alone, its initial value stored after the
 * block's variables. False: left as it is. */
static bool var_init(lower *l, const uint32_t *x)
{
	uint32_t wc = x[0] >> 16;
	if (wc != 5 || x[3] != 7 /* Function */ || l->npend == 64)
		return false;
	inst(l, 59, 3, x + 1);
	l->pend[l->npend][0] = x[2];
	l->pend[l->npend++][1] = x[4];
	return true;
}

/* The stores var_init() left for the end of the variables. */
static void var_flush(lower *l, uint32_t op)
{
	if (!l->npend || op == 59 || op == 8 /* OpLine */ || op == 317)
		return;
	for (unsigned i = 0; i < l->npend; i++)
		inst(l, 62, 2, l->pend[i]);
	l->npend = 0;
}

/* One instruction of the input, rewritten or copied. */
static void rewrite(lower *l, const uint32_t *x)
{
	uint32_t op = x[0] & 0xffff, wc = x[0] >> 16;
	var_flush(l, op);
	switch (op) {
	case 59: /* OpVariable */
		if (var_init(l, x))
			return;
		break;
	case OP_CONSTANT_NULL: {
		const uint32_t *t = wc >= 3 ? def_of(l, x[1]) : NULL;
		uint32_t tk = op_of(t);
		if (tk == OP_TYPE_BOOL) {
			inst(l, OP_CONSTANT_FALSE, 2, x + 1);
			return;
		}
		if (tk == OP_TYPE_INT || tk == OP_TYPE_FLOAT) {
			uint32_t w[4] = {x[1], x[2], 0, 0};
			inst(l, OP_CONSTANT, t[2] > 32 ? 4 : 3, w);
			return;
		}
		break;
	}
	case OP_DECORATE_STRING:
	case OP_MEMBER_DECORATE_STRING:
		return;
	case OP_COPY_MEMORY:
		if (copy_memory(l, x))
			return;
		break;
	case OP_COPY_MEMORY_SIZED: {
		unsigned k = 4;
		unsigned first = mem_operand_words(x, k, wc);
		if (k + first < wc) { /* a second set: dropped */
			inst(l, op, k - 1 + first, x + 1);
			return;
		}
		break;
	}
	case OP_PTR_EQUAL:
	case OP_PTR_NOT_EQUAL:
	case OP_PTR_DIFF:
		if (ptr_op(l, x))
			return;
		break;
	case 79: /* OpVectorShuffle */
		if (shuffle(l, x))
			return;
		break;
	case OP_COPY_LOGICAL:
		if (wc >= 4) {
			copy_logical(l, x[1], x[2], x[3], type_of(l, x[3]), 0);
			return;
		}
		break;
	default:
		break;
	}
	for (uint32_t i = 0; i < wc; i++)
		put(l, x[i]);
}

int hp_spirv_lower(const void *il, size_t size, unsigned address_bits,
		   void **out, size_t *out_size)
{
	lower l = {.nin = size / 4, .address_bits = address_bits};
	uint32_t *in = malloc(size ? size : 1);
	*out = NULL;
	*out_size = 0;
	if (!in || size < 20)
		return free(in), HP_OUT_OF_RESOURCES;
	memcpy(in, il, size);
	l.in = in;
	l.bound = l.bound0 = in[3];
	if (l.bound > (1u << 24) || scan(&l)) {
		free(in);
		free(l.def);
		return HP_INVALID_VALUE;
	}
	plan(&l);
	for (unsigned i = 0; i < 5; i++)
		put(&l, in[i]);
	bool placed = false;
	for (size_t i = 5; i < l.nin; i += in[i] >> 16) {
		if (!placed && (in[i] & 0xffff) == OP_FUNCTION) {
			globals(&l);
			placed = true;
		}
		rewrite(&l, in + i);
	}
	if (!placed)
		globals(&l);
	if (!l.oom)
		l.w[3] = l.bound; /* the new ids */
	free(in);
	free(l.def);
	if (l.oom) {
		free(l.w);
		return HP_OUT_OF_RESOURCES;
	}
	*out = l.w;
	*out_size = l.n * 4;
	return 0;
}
