// SPDX-License-Identifier: MIT
/* The OpenCL 3.0 NDRange work-item rules, from the specification:
 *
 * - global id g[d] in F[d] .. F[d] + G[d] - 1; global_linear_id counts from
 *   the offset, dimension 0 fastest;
 * - g = w * E + l + F, with work-group id w in 0 .. ceil(G / E) - 1 and
 *   local id l in 0 .. (actual local size) - 1; a dimension where E does not
 *   divide G ends with one remainder work-group of G - (ngrp - 1) * E;
 * - unused dimensions: size 1, id 0, offset 0;
 * - sub-groups are 1-D over local_linear_id, all of S work-items except the
 *   last one of a work-group, which may be smaller.
 *
 * Everything is uint64_t; nothing here can overflow for a launch whose
 * F + G fits (ceil(a / b) is a / b + (a % b != 0), products saturate).
 */
#include "ndref.h"

#include <hartpool/ids.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define NDREF_NAME_(id, name) [HP_IDS_##id] = name,
static const char *const col_name[HP_IDS_NCOLS] = {HP_IDS_COLUMNS(NDREF_NAME_)};
#undef NDREF_NAME_

/* The launch over all three dimensions: unused ones have G 1, F 0, E 1. */
typedef struct {
	unsigned w;
	uint64_t g[3], f[3], e[3];
	uint64_t ew; /* E0 * E1 * E2, saturated */
	uint64_t s;  /* sub-group size */
} geom;

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
	return a / b + (a % b != 0);
}

static uint64_t mul_sat(uint64_t a, uint64_t b)
{
	if (a != 0 && b > UINT64_MAX / a)
		return UINT64_MAX;
	return a * b;
}

static bool dim_ok(const ndref_launch *l)
{
	return l->work_dim >= 1 && l->work_dim <= 3;
}

/* The product of the used global sizes; *ovf set if it does not fit. */
static uint64_t items_of(const ndref_launch *l, bool *ovf)
{
	uint64_t n = 1;

	*ovf = false;
	if (!dim_ok(l))
		return 0;
	for (unsigned d = 0; d < l->work_dim; d++)
		if (l->global[d] == 0)
			return 0;
	for (unsigned d = 0; d < l->work_dim; d++) {
		if (n > UINT64_MAX / l->global[d]) {
			*ovf = true;
			return UINT64_MAX;
		}
		n *= l->global[d];
	}
	return n;
}

uint64_t ndref_items(const ndref_launch *l)
{
	bool ovf;

	return items_of(l, &ovf);
}

static void geom_init(geom *q, const ndref_launch *l, const uint64_t e[3])
{
	q->w = l->work_dim;
	for (unsigned d = 0; d < 3; d++) {
		bool used = d < l->work_dim;
		q->g[d] = used ? l->global[d] : 1;
		q->f[d] = used ? l->offset[d] : 0;
		q->e[d] = used && e[d] ? e[d] : 1;
	}
	q->ew = mul_sat(mul_sat(q->e[0], q->e[1]), q->e[2]);
	q->s = l->sub_group_size ? l->sub_group_size : 1;
}

/* The record of work-item i (0 <= i < G0 * G1 * G2), hart column 0. */
static void geom_row(const geom *q, uint64_t i, uint64_t row[HP_IDS_NCOLS])
{
	uint64_t x[3], lid[3], lsz[3];

	/* Position from the offset, from global_linear_id alone. */
	x[0] = i % q->g[0];
	x[1] = i / q->g[0] % q->g[1];
	x[2] = i / (q->g[0] * q->g[1]);
	for (unsigned d = 0; d < 3; d++) {
		uint64_t wid = x[d] / q->e[d];

		lid[d] = x[d] % q->e[d];
		/* wid * E <= x < G: no overflow; the remainder group is
		 * what is left of G after the full ones. */
		lsz[d] = min_u64(q->e[d], q->g[d] - wid * q->e[d]);
		row[HP_IDS_GID0 + d] = q->f[d] + x[d];
		row[HP_IDS_LID0 + d] = lid[d];
		row[HP_IDS_WID0 + d] = wid;
		row[HP_IDS_GSZ0 + d] = q->g[d];
		row[HP_IDS_LSZ0 + d] = lsz[d];
		row[HP_IDS_ELSZ0 + d] = q->e[d];
		row[HP_IDS_NGRP0 + d] = ceil_div(q->g[d], q->e[d]);
		row[HP_IDS_GOFF0 + d] = q->f[d];
	}

	/* lsz[d] <= G[d], so these stay below G0 * G1 * G2. */
	uint64_t wg = lsz[0] * lsz[1] * lsz[2];
	uint64_t llin = lid[0] + lid[1] * lsz[0] + lid[2] * lsz[0] * lsz[1];
	uint64_t sgid = llin / q->s;

	row[HP_IDS_GLIN] = i;
	row[HP_IDS_LLIN] = llin;
	row[HP_IDS_DIM] = q->w;
	row[HP_IDS_SGID] = sgid;
	row[HP_IDS_SGLID] = llin % q->s;
	row[HP_IDS_SGSZ] = min_u64(q->s, wg - sgid * q->s);
	row[HP_IDS_SGMAX] = min_u64(q->s, q->ew);
	row[HP_IDS_NSG] = ceil_div(wg, q->s);
	row[HP_IDS_ENSG] = ceil_div(q->ew, q->s);
	row[HP_IDS_HART] = 0;
}

void ndref_expected(const ndref_launch *l, const uint64_t elsz[3],
		    uint64_t *records, uint32_t *counts)
{
	uint64_t n = ndref_items(l);
	unsigned harts = l->harts ? l->harts : 1;
	geom q;

	if (n == 0)
		return;
	geom_init(&q, l, elsz);
	for (uint64_t i = 0; i < n; i++) {
		uint64_t *row = records + i * HP_IDS_NCOLS;

		geom_row(&q, i, row);
		row[HP_IDS_HART] = i % harts;
		counts[i] = 1;
	}
}

/* ---- messages, without printf (bare metal may have a reduced one) ---- */

typedef struct {
	char *buf;
	size_t len, pos;
} out;

static void put_str(out *o, const char *s)
{
	for (; *s; s++)
		if (o->pos + 1 < o->len)
			o->buf[o->pos++] = *s;
	if (o->len)
		o->buf[o->pos] = '\0';
}

static void put_u64(out *o, uint64_t v)
{
	char tmp[21];
	size_t k = sizeof(tmp) - 1;

	tmp[k] = '\0';
	do {
		tmp[--k] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	put_str(o, tmp + k);
}

/* "<a><v><b>" */
static void put_sus(out *o, const char *a, uint64_t v, const char *b)
{
	put_str(o, a);
	put_u64(o, v);
	put_str(o, b);
}

/* "<name><d>" for the per-dimension columns: "elsz1" */
static void put_dim(out *o, const char *name, unsigned d)
{
	put_str(o, name);
	put_u64(o, d);
}

/* "item <i>: <col> is <found>, expected <want><note>", and -1. */
static int bad_col(out *o, uint64_t i, unsigned c, uint64_t found,
		   uint64_t want, const char *note)
{
	put_sus(o, "item ", i, ": ");
	put_str(o, col_name[c]);
	put_sus(o, " is ", found, ", expected ");
	put_sus(o, "", want, note);
	return -1;
}

/* "chosen local size: elsz<d> is <e>, expected <rel> <v><note>", and -1. */
static int bad_elsz(out *o, unsigned d, uint64_t e, const char *rel, uint64_t v,
		    const char *note)
{
	put_str(o, "chosen local size: ");
	put_dim(o, "elsz", d);
	put_sus(o, " is ", e, ", expected ");
	put_str(o, rel);
	put_sus(o, "", v, note);
	return -1;
}

/* The constraints clEnqueueNDRangeKernel puts on a local size, applied to
 * the one the implementation chose when the host passed none. g and e are
 * over all three dimensions (1 for dimensions >= work_dim). */
static int check_chosen(const ndref_launch *l, const uint64_t g[3],
			const uint64_t e[3], out *o)
{
	for (unsigned d = 0; d < l->work_dim; d++) {
		if (e[d] == 0)
			return bad_elsz(o, d, e[d], ">= ", 1, "");
		if (e[d] > g[d]) {
			bad_elsz(o, d, e[d], "<= ", g[d], " (gsz");
			put_sus(o, "", d, ")");
			return -1;
		}
		if (e[d] > l->dev_max_item[d]) {
			bad_elsz(o, d, e[d], "<= ", l->dev_max_item[d],
				 " (dev_max_item");
			put_sus(o, "", d, ")");
			return -1;
		}
		if (l->uniform && g[d] % e[d] != 0) {
			put_str(o, "chosen local size: ");
			put_dim(o, "elsz", d);
			put_sus(o, " is ", e[d], ", expected a divisor of ");
			put_dim(o, "gsz", d);
			put_sus(o, " ", g[d], " (uniform)");
			return -1;
		}
	}

	uint64_t ew = mul_sat(mul_sat(e[0], e[1]), e[2]);

	if (ew > l->dev_max_wg) {
		put_sus(o, "chosen local size: elsz0*elsz1*elsz2 is ", ew,
			", expected <= ");
		put_sus(o, "", l->dev_max_wg, " (dev_max_wg)");
		return -1;
	}
	if (l->kernel_max_wg && ew > l->kernel_max_wg) {
		put_sus(o, "chosen local size: elsz0*elsz1*elsz2 is ", ew,
			", expected <= ");
		put_sus(o, "", l->kernel_max_wg, " (kernel_max_wg)");
		return -1;
	}
	if (l->reqd[0] || l->reqd[1] || l->reqd[2]) {
		/* A 3-tuple: dimensions >= work_dim count as 1. */
		for (unsigned d = 0; d < 3; d++)
			if (e[d] != l->reqd[d])
				return bad_elsz(o, d, e[d], "", l->reqd[d],
						" (reqd_work_group_size)");
	}
	return 0;
}

int ndref_check(const ndref_launch *l, const uint64_t *records,
		const uint32_t *counts, uint64_t n, char *msg, size_t msglen)
{
	out o = {msg, msglen, 0};
	uint64_t e[3] = {1, 1, 1};
	uint64_t row[HP_IDS_NCOLS];
	geom q;

	put_str(&o, "");
	if (!dim_ok(l)) {
		put_sus(&o, "launch: work_dim is ", l->work_dim,
			", expected 1..3");
		return -1;
	}
	if (l->sub_group_size == 0) {
		put_str(&o, "launch: sub_group_size is 0, expected >= 1");
		return -1;
	}
	if (l->local_given) {
		for (unsigned d = 0; d < l->work_dim; d++) {
			if (l->local[d] == 0) {
				put_dim(&o, "launch: local", d);
				put_str(&o, " is 0, expected >= 1");
				return -1;
			}
		}
	}

	bool ovf;
	uint64_t items = items_of(l, &ovf);

	if (ovf) {
		put_str(&o, "launch: global size product overflows uint64");
		return -1;
	}
	if (n != items) {
		put_sus(&o, "launch: n is ", n, ", expected ");
		put_sus(&o, "", items, " (product of global sizes)");
		return -1;
	}
	if (n == 0)
		return 0;

	for (uint64_t i = 0; i < n; i++) {
		if (counts[i] != 1) {
			put_sus(&o, "item ", i, ": ran ");
			put_sus(&o, "", counts[i], " times, expected 1");
			return -1;
		}
	}

	/* The enqueued local size: the host's, or the one the implementation
	 * chose, which every record must then carry (as record 0 does). */
	for (unsigned d = 0; d < l->work_dim; d++)
		e[d] = l->local_given ? l->local[d] : records[HP_IDS_ELSZ0 + d];
	if (!l->local_given) {
		uint64_t g[3] = {1, 1, 1};

		for (unsigned d = 0; d < l->work_dim; d++)
			g[d] = l->global[d];
		if (check_chosen(l, g, e, &o))
			return -1;
	}
	geom_init(&q, l, e);

	for (uint64_t i = 0; i < n; i++) {
		const uint64_t *rec = records + i * HP_IDS_NCOLS;

		geom_row(&q, i, row);
		for (unsigned c = 0; c < HP_IDS_NCOLS; c++) {
			const char *note = "";

			if (c == HP_IDS_HART || rec[c] == row[c])
				continue;
			if (!l->local_given && c >= HP_IDS_ELSZ0 &&
			    c < HP_IDS_ELSZ0 + l->work_dim)
				note = " (as item 0)";
			return bad_col(&o, i, c, rec[c], row[c], note);
		}
		if (rec[HP_IDS_HART] >= l->harts) {
			put_sus(&o, "item ", i, ": hart is ");
			put_sus(&o, "", rec[HP_IDS_HART], ", expected < ");
			put_u64(&o, l->harts);
			return -1;
		}
	}
	return 0;
}
