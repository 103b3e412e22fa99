// SPDX-License-Identifier: MIT
/* The NDRange reference checker (ref/ndref.c), tested three ways:
 * - records it generates for a set of launches pass it, and obey the spec's
 *   identities, checked here without its formulas (g = w * E + l + F, group
 *   tallies, remainder regions, sub-group partition);
 * - hand-worked records of a few work-items match;
 * - every single-field corruption (each column, counts 0 and 2, a chosen
 *   local size breaking each enqueue constraint) fails it with a message. */
#include "check.h"
#include <hartpool/ids.h>
#include <ref/ndref.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NC HP_IDS_NCOLS
#define P63 (UINT64_C(1) << 63)
#define P32 (UINT64_C(1) << 32)
/* The QEMU boards' device limits. */
#define DEV .dev_max_wg = 256, .dev_max_item = {256, 256, 64}

#define NAME_(id, name) [HP_IDS_##id] = name,
static const char *const names[NC] = {HP_IDS_COLUMNS(NAME_)};
#undef NAME_

typedef struct {
	const char *name;
	ndref_launch l;
	uint64_t e[3];	  /* the local size the implementation used */
	unsigned regions; /* distinct actual work-group shapes */
} tcase;

static const tcase cases[] = {
	{"1d given 64 of 1000",
	 {.work_dim = 1,
	  .global = {1000},
	  .local_given = true,
	  .local = {64},
	  .sub_group_size = 8,
	  .harts = 4,
	  DEV},
	 {64, 1, 1},
	 2},
	{"1d chosen 100 of 777 at 2^63-5, S 16",
	 {.work_dim = 1,
	  .global = {777},
	  .offset = {P63 - 5},
	  .sub_group_size = 16,
	  .harts = 3,
	  DEV},
	 {100, 1, 1},
	 2},
	{"1d chosen 100 of 1000 ending at 2^64-1",
	 {.work_dim = 1,
	  .global = {1000},
	  .offset = {UINT64_MAX - 999},
	  .sub_group_size = 32,
	  .harts = 2,
	  DEV},
	 {100, 1, 1},
	 1},
	{"1d unused dimensions hold garbage",
	 {.work_dim = 1,
	  .global = {50, 7, 9},
	  .offset = {3, 100, 200},
	  .local_given = true,
	  .local = {16, 0, 5},
	  .sub_group_size = 4,
	  .harts = 5,
	  DEV},
	 {16, 1, 1},
	 2},
	{"2d given 8x4 of 37x29 at 2^32-10, 2^32-3, S 5",
	 {.work_dim = 2,
	  .global = {37, 29},
	  .offset = {P32 - 10, P32 - 3},
	  .local_given = true,
	  .local = {8, 4},
	  .sub_group_size = 5,
	  .harts = 4,
	  DEV},
	 {8, 4, 1},
	 4},
	{"2d chosen 5x3 of 37x29, remainders",
	 {.work_dim = 2,
	  .global = {37, 29},
	  .offset = {1, 2},
	  .sub_group_size = 4,
	  .harts = 1,
	  DEV},
	 {5, 3, 1},
	 4},
	{"2d reqd 8x8 uniform",
	 {.work_dim = 2,
	  .global = {64, 24},
	  .reqd = {8, 8, 1},
	  .uniform = true,
	  .sub_group_size = 16,
	  .harts = 4,
	  DEV},
	 {8, 8, 1},
	 1},
	{"2d chosen at kernel_max_wg 64",
	 {.work_dim = 2,
	  .global = {40, 20},
	  .kernel_max_wg = 64,
	  .sub_group_size = 8,
	  .harts = 4,
	  DEV},
	 {16, 4, 1},
	 2},
	{"3d given 4x3x2 of 13x11x7, S 7, offsets 2^63+1, 2^32-1, 5",
	 {.work_dim = 3,
	  .global = {13, 11, 7},
	  .offset = {P63 + 1, P32 - 1, 5},
	  .local_given = true,
	  .local = {4, 3, 2},
	  .sub_group_size = 7,
	  .harts = 4,
	  DEV},
	 {4, 3, 2},
	 8},
	{"3d chosen 4x2x2 uniform",
	 {.work_dim = 3,
	  .global = {16, 10, 6},
	  .uniform = true,
	  .sub_group_size = 8,
	  .harts = 8,
	  DEV},
	 {4, 2, 2},
	 1},
	{"3d reqd 4x4x2 non-uniform, S 64 above the group",
	 {.work_dim = 3,
	  .global = {10, 9, 5},
	  .offset = {7, 0, P63},
	  .reqd = {4, 4, 2},
	  .sub_group_size = 64,
	  .harts = 2,
	  DEV},
	 {4, 4, 2},
	 8},
	{"3d chosen 5x3x3 at 2^32-1, S 1",
	 {.work_dim = 3,
	  .global = {12, 7, 8},
	  .offset = {UINT32_MAX, 0, 0},
	  .sub_group_size = 1,
	  .harts = 3,
	  DEV},
	 {5, 3, 3},
	 8},
	{"3d whole range as one group, item max 64 in dim 2",
	 {.work_dim = 3,
	  .global = {2, 2, 64},
	  .sub_group_size = 6,
	  .harts = 7,
	  DEV},
	 {2, 2, 64},
	 1},
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

typedef struct {
	uint64_t n;
	uint64_t *rec;
	uint32_t *cnt;
} recs;

static recs make(const ndref_launch *l, const uint64_t e[3])
{
	recs r;

	r.n = ndref_items(l);
	r.rec = calloc(r.n ? r.n : 1, NC * sizeof(uint64_t));
	r.cnt = calloc(r.n ? r.n : 1, sizeof(uint32_t));
	if (!r.rec || !r.cnt) {
		fprintf(stderr, "out of memory\n");
		exit(2);
	}
	ndref_expected(l, e, r.rec, r.cnt);
	return r;
}

static void drop(recs *r)
{
	free(r->rec);
	free(r->cnt);
}

static void expect_ok(const char *what, const ndref_launch *l, const recs *r)
{
	char msg[200] = "";
	int rc = ndref_check(l, r->rec, r->cnt, r->n, msg, sizeof(msg));

	CHECK_EQ(rc, 0);
	if (rc != 0)
		fprintf(stderr, "  %s: %s\n", what, msg);
}

/* Fails, with a message that starts with want (when not NULL). */
static void expect_fail(const char *what, const ndref_launch *l, const recs *r,
			const char *want)
{
	char msg[200];
	int rc;

	memset(msg, 0, sizeof(msg));
	rc = ndref_check(l, r->rec, r->cnt, r->n, msg, sizeof(msg));
	CHECK_EQ(rc, -1);
	CHECK(msg[0] != '\0');
	CHECK(strlen(msg) < sizeof(msg));
	if (want)
		CHECK(strncmp(msg, want, strlen(want)) == 0);
	if (rc != -1 || !msg[0] || (want && strncmp(msg, want, strlen(want))))
		fprintf(stderr, "  %s: got \"%s\", want \"%s...\"\n", what, msg,
			want ? want : "");
}

static uint64_t at(const recs *r, uint64_t i, unsigned c)
{
	return r->rec[i * NC + c];
}

/* The spec's identities over a correct set of records, checked without the
 * checker's formulas. */
static void properties(const tcase *t, const recs *r)
{
	const ndref_launch *l = &t->l;
	uint64_t s = l->sub_group_size, g[3] = {1, 1, 1}, f[3] = {0};
	uint64_t ngrp = 1, shapes[8][3];
	unsigned nshapes = 0;
	uint64_t *tally, *llsum, *wgsz;
	int bad = 0;

	for (unsigned d = 0; d < l->work_dim; d++) {
		g[d] = l->global[d];
		f[d] = l->offset[d];
	}
	for (unsigned d = 0; d < 3; d++)
		ngrp *= (g[d] + t->e[d] - 1) / t->e[d];
	tally = calloc(ngrp, sizeof(uint64_t));
	llsum = calloc(ngrp, sizeof(uint64_t));
	wgsz = calloc(ngrp, sizeof(uint64_t));
	if (!tally || !llsum || !wgsz)
		exit(2);

	for (uint64_t i = 0; i < r->n; i++) {
		uint64_t lin = 0, stride = 1, wg = 1, grp = 0, gstride = 1;
		uint64_t llin = 0, lstride = 1;
		unsigned k;

		for (unsigned d = 0; d < 3; d++) {
			uint64_t gid = at(r, i, HP_IDS_GID0 + d);
			uint64_t lid = at(r, i, HP_IDS_LID0 + d);
			uint64_t wid = at(r, i, HP_IDS_WID0 + d);
			uint64_t lsz = at(r, i, HP_IDS_LSZ0 + d);
			uint64_t el = at(r, i, HP_IDS_ELSZ0 + d);
			uint64_t ng = at(r, i, HP_IDS_NGRP0 + d);

			bad |= gid != wid * el + lid + f[d];
			bad |= gid - f[d] >= g[d];
			bad |= el != t->e[d] && d < l->work_dim;
			bad |= el != 1 && d >= l->work_dim;
			bad |= lid >= lsz || lsz > el || wid >= ng;
			bad |= wid + 1 != ng && lsz != el;
			bad |= wid * el + lsz > g[d];
			bad |= wid + 1 == ng && wid * el + lsz != g[d];
			bad |= at(r, i, HP_IDS_GSZ0 + d) != g[d];
			bad |= at(r, i, HP_IDS_GOFF0 + d) != f[d];
			lin += (gid - f[d]) * stride;
			stride *= g[d];
			llin += lid * lstride;
			lstride *= lsz;
			wg *= lsz;
			grp += wid * gstride;
			gstride *= ng;
		}
		bad |= at(r, i, HP_IDS_GLIN) != i || lin != i;
		bad |= at(r, i, HP_IDS_LLIN) != llin || llin >= wg;
		bad |= at(r, i, HP_IDS_DIM) != l->work_dim;
		bad |= grp >= ngrp;
		if (bad) {
			fprintf(stderr, "  %s: item %llu breaks an identity\n",
				t->name, (unsigned long long)i);
			break;
		}
		tally[grp]++;
		llsum[grp] += llin;
		wgsz[grp] = wg;

		uint64_t sgid = at(r, i, HP_IDS_SGID),
			 sgl = at(r, i, HP_IDS_SGLID);
		uint64_t sgsz = at(r, i, HP_IDS_SGSZ),
			 nsg = at(r, i, HP_IDS_NSG);
		uint64_t ew = t->e[0] * t->e[1] * t->e[2];

		bad |= sgid * s + sgl != llin || sgl >= sgsz || sgid >= nsg;
		bad |= sgid + 1 != nsg && sgsz != s;
		bad |= sgid + 1 == nsg && sgid * s + sgsz != wg;
		bad |= at(r, i, HP_IDS_SGMAX) != (s < ew ? s : ew);
		bad |= at(r, i, HP_IDS_ENSG) * s < ew;
		bad |= (at(r, i, HP_IDS_ENSG) - 1) * s >= ew;
		bad |= at(r, i, HP_IDS_HART) >= l->harts;
		bad |= r->cnt[i] != 1;
		if (bad) {
			fprintf(stderr,
				"  %s: item %llu breaks a sub-group "
				"identity\n",
				t->name, (unsigned long long)i);
			break;
		}

		for (k = 0; k < nshapes; k++)
			if (!memcmp(shapes[k], &r->rec[i * NC + HP_IDS_LSZ0],
				    sizeof(shapes[k])))
				break;
		if (k == nshapes && nshapes < 8)
			memcpy(shapes[nshapes++], &r->rec[i * NC + HP_IDS_LSZ0],
			       sizeof(shapes[k]));
	}
	CHECK(!bad);
	/* Every group holds exactly its work-items, llin 0 .. wg - 1 once. */
	for (uint64_t w = 0; w < ngrp && !bad; w++) {
		CHECK_EQ(tally[w], wgsz[w]);
		CHECK_EQ(llsum[w], wgsz[w] * (wgsz[w] - 1) / 2);
	}
	CHECK_EQ(nshapes, t->regions);
	if (nshapes != t->regions)
		fprintf(stderr, "  %s: %u group shapes\n", t->name, nshapes);
	free(tally);
	free(llsum);
	free(wgsz);
}

/* Every column at a few items: +1, -1 (wrapping), +2^32. */
static void mutate_columns(const tcase *t, recs *r)
{
	const ndref_launch *l = &t->l;
	uint64_t items[] = {0, r->n / 2, r->n - 1, r->n / 3};
	uint64_t deltas[] = {1, UINT64_MAX, P32, 1};
	char what[160], want[64];

	for (unsigned c = 0; c < NC; c++) {
		for (unsigned k = 0; k < 4; k++) {
			uint64_t i = items[k], *v = &r->rec[i * NC + c];
			uint64_t old = *v;
			bool e_src = !l->local_given && i == 0 &&
				     c >= HP_IDS_ELSZ0 &&
				     c < HP_IDS_ELSZ0 + l->work_dim;

			*v = old + deltas[k];
			if (c == HP_IDS_HART)
				*v = l->harts + (k == 2 ? P32 : k);
			snprintf(what, sizeof(what), "%s: %s of item %llu",
				 t->name, names[c], (unsigned long long)i);
			if (c == HP_IDS_HART)
				snprintf(want, sizeof(want),
					 "item %llu: hart is ",
					 (unsigned long long)i);
			else
				snprintf(want, sizeof(want),
					 "item %llu: %s is %llu, expected %llu",
					 (unsigned long long)i, names[c],
					 (unsigned long long)*v,
					 (unsigned long long)old);
			/* Record 0's elsz is the chosen local size: the
			 * problem shows as a constraint or at item 1. */
			expect_fail(what, l, r, e_src ? NULL : want);
			*v = old;
		}
	}
	/* Any hart below the count is right. */
	if (l->harts > 1) {
		for (uint64_t i = 0; i < r->n; i++)
			r->rec[i * NC + HP_IDS_HART] =
				l->harts - 1 - i % l->harts;
		expect_ok(t->name, l, r);
		for (uint64_t i = 0; i < r->n; i++)
			r->rec[i * NC + HP_IDS_HART] = i % l->harts;
	}
}

static void mutate_counts(const tcase *t, recs *r)
{
	uint64_t items[] = {0, r->n - 1, r->n / 2};
	char what[160], want[64];

	for (unsigned k = 0; k < 3; k++) {
		for (uint32_t c = 0; c <= 2; c += 2) {
			uint64_t i = items[k];

			r->cnt[i] = c;
			snprintf(what, sizeof(what),
				 "%s: count %u of item %llu", t->name, c,
				 (unsigned long long)i);
			snprintf(want, sizeof(want), "item %llu: ran %u times",
				 (unsigned long long)i, c);
			expect_fail(what, &t->l, r, want);
			r->cnt[i] = 1;
		}
	}
}

/* The same elsz everywhere but in one record: a different, valid value. */
static void mutate_elsz(const tcase *t, recs *r)
{
	char what[160];

	for (unsigned d = 0; d < t->l.work_dim; d++) {
		uint64_t alt = t->e[d] > 1 ? t->e[d] - 1 : t->e[d] + 1;
		uint64_t items[] = {r->n - 1, 0};

		for (unsigned k = 0; k < 2; k++) {
			uint64_t *v = &r->rec[items[k] * NC + HP_IDS_ELSZ0 + d];

			*v = alt;
			snprintf(what, sizeof(what), "%s: elsz%u of item %llu",
				 t->name, d, (unsigned long long)items[k]);
			expect_fail(what, &t->l, r, NULL);
			*v = t->e[d];
		}
	}
}

static void test_cases(void)
{
	for (unsigned c = 0; c < NCASES; c++) {
		const tcase *t = &cases[c];
		recs r = make(&t->l, t->e);

		CHECK(r.n > 0);
		expect_ok(t->name, &t->l, &r);
		properties(t, &r);
		mutate_columns(t, &r);
		mutate_counts(t, &r);
		mutate_elsz(t, &r);
		expect_ok(t->name, &t->l, &r); /* all restored */
		/* n short by one, and with a record to spare */
		r.n--;
		expect_fail(t->name, &t->l, &r, "launch: n is ");
		r.n += 2;
		expect_fail(t->name, &t->l, &r, "launch: n is ");
		r.n--;
		drop(&r);
	}
}

/* Records worked out by hand from the spec, column by column. */
typedef struct {
	uint64_t item;
	uint64_t v[NC];
} hand;

static void check_hand(const char *what, const ndref_launch *l,
		       const uint64_t e[3], const hand *h, unsigned nh)
{
	recs r = make(l, e);

	for (unsigned k = 0; k < nh; k++) {
		for (unsigned c = 0; c < NC; c++) {
			uint64_t got = at(&r, h[k].item, c);

			if (c == HP_IDS_HART)
				continue;
			CHECK(got == h[k].v[c]);
			if (got != h[k].v[c])
				fprintf(stderr,
					"  %s: item %llu %s is %llu, "
					"by hand %llu\n",
					what, (unsigned long long)h[k].item,
					names[c], (unsigned long long)got,
					(unsigned long long)h[k].v[c]);
		}
	}
	expect_ok(what, l, &r);
	drop(&r);
}

/* gid lid wid gsz lsz elsz ngrp goff (x3), glin llin dim sgid sglid sgsz
 * sgmax nsg ensg hart */
static void test_by_hand(void)
{
	const ndref_launch l3 = cases[8].l; /* 13x11x7 by 4x3x2, S 7 */
	const hand h3[] = {
		/* x = (12, 10, 6): the corner group, 1x2x1 */
		{1000,
		 {P63 + 13, P32 + 9, 11, 0, 1, 0, 3, 3, 3, 13,	    11,	     7,
		  1,	    2,	     1,	 4, 3, 2, 4, 4, 4, P63 + 1, P32 - 1, 5,
		  1000,	    1,	     3,	 0, 1, 2, 7, 1, 4, 0}},
		/* x = (3, 2, 1): last of a full group, its 4th sub-group
		 * has 24 - 21 = 3 */
		{172,
		 {P63 + 4, P32 + 1, 6, 3, 2, 1, 0, 0, 0, 13,	  11,	   7,
		  4,	   3,	    2, 4, 3, 2, 4, 4, 4, P63 + 1, P32 - 1, 5,
		  172,	   23,	    3, 3, 2, 3, 7, 4, 4, 0}},
		/* x = (12, 2, 4): remainder in dimension 0 only, 1x3x2 */
		{610,
		 {P63 + 13, P32 + 1, 9, 0, 2, 0, 3, 0, 2, 13,	   11,	    7,
		  1,	    3,	     2, 4, 3, 2, 4, 4, 4, P63 + 1, P32 - 1, 5,
		  610,	    2,	     3, 0, 2, 6, 7, 1, 4, 0}},
	};
	const ndref_launch l1 = cases[1].l; /* 777 by 100 at 2^63-5, S 16 */
	const uint64_t e1[3] = {100, 1, 1};
	const hand h1[] = {
		/* the remainder group of 77: sub-groups 16 x4 + 13 */
		{776, {P63 + 771, 0,  0, 76,  0,  0,  7,  0, 0, 777,	 1, 1,
		       77,	  1,  1, 100, 1,  1,  8,  1, 1, P63 - 5, 0, 0,
		       776,	  76, 1, 4,   12, 13, 16, 5, 7, 0}},
		{5, {P63, 0, 0, 5,   0, 0,  0,	0, 0, 777,     1, 1,
		     100, 1, 1, 100, 1, 1,  8,	1, 1, P63 - 5, 0, 0,
		     5,	  5, 1, 0,   5, 16, 16, 7, 7, 0}},
	};
	const ndref_launch l2 = cases[2].l; /* 1000 by 100, ends at 2^64-1 */
	const hand h2[] = {
		{999, {UINT64_MAX, 0,
		       0,	   99,
		       0,	   0,
		       9,	   0,
		       0,	   1000,
		       1,	   1,
		       100,	   1,
		       1,	   100,
		       1,	   1,
		       10,	   1,
		       1,	   UINT64_MAX - 999,
		       0,	   0,
		       999,	   99,
		       1,	   3,
		       3,	   4,
		       32,	   4,
		       4,	   0}},
	};

	check_hand(cases[8].name, &l3, cases[8].e, h3, 3);
	check_hand(cases[1].name, &l1, e1, h1, 2);
	check_hand(cases[2].name, &l2, cases[2].e, h2, 1);

	/* The exact message form. */
	recs r = make(&l3, cases[8].e);
	char msg[64];

	r.rec[17 * NC + HP_IDS_LID1]++;
	CHECK_EQ(ndref_check(&l3, r.rec, r.cnt, r.n, msg, sizeof(msg)), -1);
	CHECK(strcmp(msg, "item 17: lid1 is 2, expected 1") == 0);
	/* Truncated, still terminated; no room at all is fine too. */
	CHECK_EQ(ndref_check(&l3, r.rec, r.cnt, r.n, msg, 8), -1);
	CHECK(strcmp(msg, "item 17") == 0);
	CHECK_EQ(ndref_check(&l3, r.rec, r.cnt, r.n, NULL, 0), -1);
	drop(&r);
}

/* A launch whose chosen local size e breaks exactly one rule: records
 * consistent with e fail with a message naming the rule; good, which only
 * differs from e in that rule, passes. */
static void chosen(const char *what, const ndref_launch *l, const uint64_t e[3],
		   const uint64_t good[3], const char *want)
{
	recs r = make(l, e);

	expect_fail(what, l, &r, want);
	drop(&r);
	r = make(l, good);
	expect_ok(what, l, &r);
	drop(&r);
}

static void test_chosen(void)
{
	const ndref_launch b = {.work_dim = 2,
				.global = {20, 12},
				.sub_group_size = 4,
				.harts = 2,
				DEV};
	ndref_launch l;

	chosen("E > G", &b, (uint64_t[]){21, 1, 1}, (uint64_t[]){20, 1, 1},
	       "chosen local size: elsz0 is 21, expected <= 20 (gsz0)");
	chosen("E > G dim 1", &b, (uint64_t[]){1, 13, 1},
	       (uint64_t[]){1, 12, 1},
	       "chosen local size: elsz1 is 13, expected <= 12 (gsz1)");

	l = b;
	l.work_dim = 3;
	l.global[0] = l.global[1] = 1;
	l.global[2] = 100;
	chosen("E > dev_max_item", &l, (uint64_t[]){1, 1, 65},
	       (uint64_t[]){1, 1, 64},
	       "chosen local size: elsz2 is 65, expected <= 64 "
	       "(dev_max_item2)");
	l.dev_max_item[0] = 8;
	l.global[0] = 10;
	l.global[2] = 1;
	chosen("E > dev_max_item dim 0", &l, (uint64_t[]){9, 1, 1},
	       (uint64_t[]){8, 1, 1},
	       "chosen local size: elsz0 is 9, expected <= 8 "
	       "(dev_max_item0)");

	l = b;
	l.global[0] = l.global[1] = 20;
	chosen("product > dev_max_wg", &l, (uint64_t[]){20, 13, 1},
	       (uint64_t[]){16, 16, 1},
	       "chosen local size: elsz0*elsz1*elsz2 is 260, expected <= 256 "
	       "(dev_max_wg)");

	l = b;
	l.kernel_max_wg = 64;
	chosen("product > kernel_max_wg", &l, (uint64_t[]){10, 7, 1},
	       (uint64_t[]){16, 4, 1},
	       "chosen local size: elsz0*elsz1*elsz2 is 70, expected <= 64 "
	       "(kernel_max_wg)");

	l = b;
	l.reqd[0] = l.reqd[1] = 4;
	l.reqd[2] = 1;
	chosen("E != reqd", &l, (uint64_t[]){4, 2, 1}, (uint64_t[]){4, 4, 1},
	       "chosen local size: elsz1 is 2, expected 4 "
	       "(reqd_work_group_size)");
	/* reqd is a 3-tuple: a 1-D launch cannot meet (8, 2, 1). */
	l = b;
	l.work_dim = 1;
	l.global[0] = 16;
	l.reqd[0] = 8;
	l.reqd[1] = 1;
	l.reqd[2] = 1;
	recs r = make(&l, (uint64_t[]){8, 7, 7});
	expect_ok("reqd 8,1,1 in 1-D", &l, &r);
	l.reqd[1] = 2;
	expect_fail("reqd 8,2,1 in 1-D", &l, &r,
		    "chosen local size: elsz1 is 1, expected 2 "
		    "(reqd_work_group_size)");
	drop(&r);

	l = b;
	l.uniform = true;
	chosen("uniform, E does not divide G", &l, (uint64_t[]){6, 4, 1},
	       (uint64_t[]){5, 4, 1},
	       "chosen local size: elsz0 is 6, expected a divisor of gsz0 20 "
	       "(uniform)");
	chosen("uniform, dim 1", &l, (uint64_t[]){5, 5, 1},
	       (uint64_t[]){5, 6, 1},
	       "chosen local size: elsz1 is 5, expected a divisor of gsz1 12 "
	       "(uniform)");
	l.uniform = false;
	r = make(&l, (uint64_t[]){6, 5, 1});
	expect_ok("non-uniform, E does not divide G", &l, &r);
	drop(&r);

	/* An elsz of 0 everywhere (records otherwise as for 1). */
	r = make(&b, (uint64_t[]){1, 3, 1});
	for (uint64_t i = 0; i < r.n; i++)
		r.rec[i * NC + HP_IDS_ELSZ0] = 0;
	expect_fail("E 0", &b, &r,
		    "chosen local size: elsz0 is 0, expected >= 1");
	drop(&r);

	/* A given local size is not the implementation's choice: records
	 * made for another one fail at the first elsz. */
	l = b;
	l.local_given = true;
	l.local[0] = 5;
	l.local[1] = 4;
	r = make(&l, (uint64_t[]){4, 4, 1});
	expect_fail("given 5x4, ran 4x4", &l, &r,
		    "item 0: lsz0 is 4, expected 5");
	drop(&r);
}

static void test_launch(void)
{
	ndref_launch l = {.work_dim = 3,
			  .global = {3, 5, 7},
			  .sub_group_size = 4,
			  .harts = 2,
			  DEV};
	char msg[100];

	CHECK_EQ(ndref_items(&l), 105);
	l.work_dim = 2;
	CHECK_EQ(ndref_items(&l), 15);
	l.work_dim = 1;
	CHECK_EQ(ndref_items(&l), 3);
	l.global[1] = 0; /* unused */
	CHECK_EQ(ndref_items(&l), 3);
	l.work_dim = 0;
	CHECK_EQ(ndref_items(&l), 0);
	l.work_dim = 4;
	CHECK_EQ(ndref_items(&l), 0);
	l.work_dim = 3;
	l.global[0] = l.global[1] = l.global[2] = P32;
	CHECK(ndref_items(&l) == UINT64_MAX);
	l.global[2] = 0;
	CHECK_EQ(ndref_items(&l), 0);

	/* Zero-size: n 0 passes with no records; n 1 does not. */
	CHECK_EQ(ndref_check(&l, NULL, NULL, 0, msg, sizeof(msg)), 0);
	CHECK_EQ(ndref_check(&l, NULL, NULL, 1, msg, sizeof(msg)), -1);
	CHECK(strcmp(msg, "launch: n is 1, expected 0 (product of global "
			  "sizes)") == 0);
	l.global[0] = 0;
	l.global[1] = 4;
	l.global[2] = 4;
	l.work_dim = 1;
	CHECK_EQ(ndref_check(&l, NULL, NULL, 0, msg, sizeof(msg)), 0);
	CHECK_EQ(ndref_items(&l), 0);

	/* Launches that cannot be right. */
	l.global[0] = l.global[1] = l.global[2] = P32;
	l.work_dim = 3;
	CHECK_EQ(ndref_check(&l, NULL, NULL, 0, msg, sizeof(msg)), -1);
	CHECK(strstr(msg, "overflows") != NULL);
	l.global[0] = 4;
	l.work_dim = 0;
	CHECK_EQ(ndref_check(&l, NULL, NULL, 0, msg, sizeof(msg)), -1);
	CHECK(strcmp(msg, "launch: work_dim is 0, expected 1..3") == 0);
	l.work_dim = 4;
	CHECK_EQ(ndref_check(&l, NULL, NULL, 0, msg, sizeof(msg)), -1);
	l.work_dim = 1;
	l.sub_group_size = 0;
	CHECK_EQ(ndref_check(&l, NULL, NULL, 0, msg, sizeof(msg)), -1);
	CHECK(strstr(msg, "sub_group_size") != NULL);
	l.sub_group_size = 2;
	l.local_given = true;
	l.local[0] = 0;
	CHECK_EQ(ndref_check(&l, NULL, NULL, 0, msg, sizeof(msg)), -1);
	CHECK(strcmp(msg, "launch: local0 is 0, expected >= 1") == 0);
}

int main(void)
{
	test_launch();
	test_by_hand();
	test_chosen();
	test_cases();
	return check_report("test_ndref");
}
