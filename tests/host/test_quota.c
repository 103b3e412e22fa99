// SPDX-License-Identifier: MIT
/*
 * The per-session quota rule (mailbox/quota.c): over a session's most, the
 * floors kept for the other open sessions and for a newcomer, floors that
 * shrink to an equal share, the defaults of a shared device and none on a
 * private one, and the refusal's words. Then the promise the rule makes:
 * however greedy the open sessions are, in any order, a newcomer finds its
 * floor free.
 */
#include "check.h"
#include <mailbox/quota.h>
#include <stdlib.h>
#include <string.h>

static mbox_quota q1024(void)
{
	return (mbox_quota){.cap = 1024, .max = 512, .min = 128};
}

static void test_max(void)
{
	mbox_quota q = q1024();
	mbox_quota_state st = {.open = 1u, .slot_free = true};
	CHECK_EQ(mbox_quota_check(&q, &st, 0, 512, NULL), MBOX_QUOTA_OK);
	CHECK_EQ(mbox_quota_check(&q, &st, 0, 513, NULL), MBOX_QUOTA_OVER_MAX);
	st.use[0] = 512;
	CHECK_EQ(mbox_quota_check(&q, &st, 0, 1, NULL), MBOX_QUOTA_OVER_MAX);
	CHECK_EQ(mbox_quota_check(&q, &st, 0, 0, NULL), MBOX_QUOTA_OK);
	/* n near 2^64 does not wrap past the check */
	st.use[0] = 1;
	CHECK_EQ(mbox_quota_check(&q, &st, 0, UINT64_MAX, NULL),
		 MBOX_QUOTA_OVER_MAX);
}

static void test_floors(void)
{
	mbox_quota q = q1024();
	/* s0 holds its most; s1 (open, 256 in use) may take what leaves the
	 * newcomer's 128: 1024 - 512 - 256 - 128 = 128. */
	mbox_quota_state st = {.open = 3u, .slot_free = true};
	st.use[0] = 512;
	st.use[1] = 256;
	uint64_t kept = 0;
	CHECK_EQ(mbox_quota_check(&q, &st, 1, 128, &kept), MBOX_QUOTA_OK);
	CHECK_EQ(kept, 128);
	CHECK_EQ(mbox_quota_check(&q, &st, 1, 129, &kept), MBOX_QUOTA_FLOORS);
	/* No free slot: no newcomer to keep room for. */
	st.slot_free = false;
	CHECK_EQ(mbox_quota_check(&q, &st, 1, 256, &kept), MBOX_QUOTA_OK);
	CHECK_EQ(kept, 0);
	/* An open session below its floor keeps the rest of it: 1024 - 796
	 * free, 100 of them s2's. */
	st.open = 7u;
	st.use[2] = 28;
	CHECK_EQ(mbox_quota_check(&q, &st, 1, 128, &kept), MBOX_QUOTA_OK);
	CHECK_EQ(kept, 100);
	CHECK_EQ(mbox_quota_check(&q, &st, 1, 129, NULL), MBOX_QUOTA_FLOORS);
	/* ... and takes it itself, even the last free units. */
	st.use[1] = 256 + 128;
	CHECK_EQ(mbox_quota_check(&q, &st, 2, 100, NULL), MBOX_QUOTA_OK);
	CHECK_EQ(mbox_quota_check(&q, &st, 2, 101, NULL), MBOX_QUOTA_FLOORS);
	/* With a free slot, a take within its floor need not leave the
	 * newcomer's (that was kept for s2 when it came), beyond it must. */
	st.slot_free = true;
	CHECK_EQ(mbox_quota_check(&q, &st, 2, 100, NULL), MBOX_QUOTA_OK);
	CHECK_EQ(mbox_quota_check(&q, &st, 2, 101, &kept), MBOX_QUOTA_FLOORS);
	CHECK_EQ(kept, 128);
	/* A session that is not open keeps nothing. */
	st.slot_free = false;
	st.use[1] = 256 + 128;
	st.open = 3u;
	CHECK_EQ(mbox_quota_check(&q, &st, 1, 100, NULL), MBOX_QUOTA_OK);
}

static void test_share(void)
{
	mbox_quota q = {.cap = 64, .max = 32, .min = 8};
	CHECK_EQ(mbox_quota_floor(&q, 1), 8);
	CHECK_EQ(mbox_quota_floor(&q, 7), 8);
	CHECK_EQ(mbox_quota_floor(&q, 8), 7); /* 64 / 9 */
	CHECK_EQ(mbox_quota_floor(&q, 16), 3);
	CHECK_EQ(mbox_quota_floor(&(mbox_quota){.cap = 64, .max = 2, .min = 8},
				  1),
		 2); /* never above the max */
	/* 16 idle sessions: floors of 8 would keep 120 of 64 and nobody
	 * could take anything; shares of 3 keep 45. */
	mbox_quota_state st = {.open = 0xffffu, .slot_free = false};
	uint64_t kept;
	CHECK_EQ(mbox_quota_check(&q, &st, 0, 19, &kept), MBOX_QUOTA_OK);
	CHECK_EQ(kept, 45);
	CHECK_EQ(mbox_quota_check(&q, &st, 0, 20, NULL), MBOX_QUOTA_FLOORS);
}

static void test_limits(void)
{
	uint64_t cap[MBOX_QUOTAS] = {1u << 30, 65536, 64, 480, 16, 4096};
	mbox_quota q[MBOX_QUOTAS];
	mbox_quota_limits(q, cap, false, NULL, NULL);
	for (unsigned r = 0; r < MBOX_QUOTAS; r++) {
		CHECK_EQ(q[r].max, cap[r]);
		CHECK_EQ(q[r].min, 0);
	}
	/* private: one session takes the whole capacity */
	mbox_quota_state st = {.open = 1u, .slot_free = true};
	CHECK_EQ(mbox_quota_check(&q[0], &st, 0, 1u << 30, NULL),
		 MBOX_QUOTA_OK);
	mbox_quota_limits(q, cap, true, NULL, NULL);
	CHECK_EQ(q[MBOX_QUOTA_HEAP].max, 1u << 29);
	CHECK_EQ(q[MBOX_QUOTA_HEAP].min, 1u << 27);
	CHECK_EQ(q[MBOX_QUOTA_OBJECTS].max, 32);
	CHECK_EQ(q[MBOX_QUOTA_OBJECTS].min, 8);
	CHECK_EQ(q[MBOX_QUOTA_ROWS].max, 240);
	CHECK_EQ(q[MBOX_QUOTA_QUEUES].max, 8);
	CHECK_EQ(q[MBOX_QUOTA_QUEUES].min, 1);
	CHECK_EQ(q[MBOX_QUOTA_COMMANDS].max, 1024);
	CHECK_EQ(q[MBOX_QUOTA_COMMANDS].min, 256);
	uint64_t max[MBOX_QUOTAS], min[MBOX_QUOTAS];
	for (unsigned r = 0; r < MBOX_QUOTAS; r++)
		max[r] = min[r] = MBOX_QUOTA_DEFAULT;
	max[MBOX_QUOTA_HEAP] = 1u << 20;
	min[MBOX_QUOTA_HEAP] = 1u << 21; /* above the max: the max */
	max[MBOX_QUOTA_OBJECTS] = 1000;	 /* above the capacity */
	max[MBOX_QUOTA_QUEUES] = 0;	 /* a session needs one */
	mbox_quota_limits(q, cap, true, max, min);
	CHECK_EQ(q[MBOX_QUOTA_HEAP].max, 1u << 20);
	CHECK_EQ(q[MBOX_QUOTA_HEAP].min, 1u << 20);
	CHECK_EQ(q[MBOX_QUOTA_OBJECTS].max, 64);
	CHECK_EQ(q[MBOX_QUOTA_QUEUES].max, 1);
	CHECK_EQ(q[MBOX_QUOTA_BUFFERS].max, 32768);
}

static void test_why(void)
{
	mbox_quota q = {.cap = 1u << 31, .max = 1u << 30, .min = 1u << 28};
	char why[256];
	mbox_quota_why(MBOX_QUOTA_HEAP, MBOX_QUOTA_OVER_MAX, &q, 1u << 30,
		       1u << 26, 0, why, sizeof(why));
	CHECK_MSG(strstr(why, "over the session's heap quota: 1073741824 of "
			      "1073741824 bytes in use, 67108864 asked "
			      "(hartpool up --quota heap=...)"),
		  "%s", why);
	mbox_quota_why(MBOX_QUOTA_OBJECTS, MBOX_QUOTA_FLOORS, &q, 3, 1, 9, why,
		       sizeof(why));
	CHECK_MSG(strstr(why, "last 9 kernel objects are kept for other "
			      "sessions' floors"),
		  "%s", why);
}

/* 1..15 open sessions take, in random steps and order, all they are
 * allowed; then a newcomer opens and takes its floor, whatever they did. */
static void test_newcomer(void)
{
	srand(4711);
	for (unsigned round = 0; round < 500; round++) {
		mbox_quota q = {.cap = 1000 + (unsigned)rand() % 9000};
		q.max = q.cap / (1 + (unsigned)rand() % 4);
		q.min = q.cap / (2 + (unsigned)rand() % 20);
		unsigned open = 1 + (unsigned)rand() % 15;
		mbox_quota_state st = {.open = (1u << open) - 1,
				       .slot_free = true};
		for (unsigned k = 0; k < 400; k++) {
			unsigned who = (unsigned)rand() % open;
			uint64_t n = 1 + (unsigned)rand() % 97;
			if (mbox_quota_check(&q, &st, who, n, NULL) ==
			    MBOX_QUOTA_OK)
				st.use[who] += n;
		}
		unsigned last = open;
		st.open |= 1u << last;
		st.slot_free = open + 1 < HP_MBOX_SESSIONS;
		uint64_t floor = mbox_quota_floor(&q, open + 1);
		CHECK_MSG(mbox_quota_check(&q, &st, last, floor, NULL) ==
				  MBOX_QUOTA_OK,
			  "round %u: cap %llu max %llu min %llu, %u open: "
			  "the newcomer cannot take its floor %llu",
			  round, (unsigned long long)q.cap,
			  (unsigned long long)q.max, (unsigned long long)q.min,
			  open, (unsigned long long)floor);
	}
}

int main(void)
{
	test_max();
	test_floors();
	test_share();
	test_limits();
	test_why();
	test_newcomer();
	return check_report("test_quota");
}
