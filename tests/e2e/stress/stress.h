/* SPDX-License-Identifier: MIT */
/*
 * The parts of test_stress (tests/e2e/test_stress.c says what the test
 * does and holds main): the state they share and what each part offers,
 * in the order of a run.
 *
 *   buffers.c   set-up: the checked buffers, their guards, host mirrors
 *   good.c      valid work with exact, checkable results
 *   packets.c   raw packets for the malformed families
 *   exact.c     malformed: one broken property, a known error
 *   noop.c      malformed: valid-looking packets that must not write
 *   random.c    malformed: mutations of packets aimed at scratch memory
 *   records.c   one record per packet; harvesting and judging completions
 *   check.c     the end: every result, the guards, a final kernel
 */
#ifndef TESTS_E2E_STRESS_H
#define TESTS_E2E_STRESS_H

#include <hartpool.h>
#include <hartpool/kernels/diag.h>
#include <hartpool/kernels/lib.h>
#include <stdbool.h>
#include <stdint.h>
#include <tests/e2e/e2e_check.h>

#define NQ 3
#define RING HP_MBOX_RING_SIZE
#define GUARD_BYTES 4096u
#define SEG_V 256u	 /* floats per vadd segment */
#define SEG_B 256u	 /* bytes per fill / copy segment */
#define SCR_BYTES 65536u /* each scratch buffer */
#define CAP_US 250000u	 /* time limit of every random dispatch */
#define GUARD_BYTE 0xe7u
#define FILL_INIT 0x5au
#define CDST_INIT 0xc3u
#define VC_SENTINEL 0x7fbadbadu /* a NaN no sum produces */

/* ---- the device and the options of the run (test_stress.c) ---- */

extern hp_device *D;
extern const hp_device_info *INFO;
extern uint64_t size_max, heap_hi;
extern uint32_t k_tally, k_vadd, nkern;
extern unsigned workers;
extern bool trace; /* --trace: every packet on stderr */
extern int only;   /* --only KIND: valid packets and one family */

/* ---- the generator: splitmix64, seeded with the seed ---- */

extern uint64_t rng;
static inline uint64_t rnd(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}
static inline uint64_t below(uint64_t n)
{
	return n ? rnd() % n : 0;
}
static inline bool chance(unsigned pct)
{
	return below(100) < pct;
}
/* A random value in [lo, hi] (hi >= lo). */
static inline uint64_t between(uint64_t lo, uint64_t hi)
{
	uint64_t span = hi - lo + 1;
	return span ? lo + below(span) : rnd();
}

/* ---- buffers (buffers.c) ---- */

struct stress_buffers {
	hp_buffer cnt, va, vb, vc, fil, csrc, cdst, scr, scr2, hole;
	uint64_t ncnt, nv, nfill, ncsrc, ncdst; /* elements / bytes */
};
extern struct stress_buffers B;
/* Every buffer this test made, in address order (guards included). */
struct stress_buffer {
	hp_buffer addr;
	uint64_t size;
	const char *name;
};
extern struct stress_buffer bufs[32];
extern unsigned nbufs;
extern uint64_t prot_lo, prot_hi; /* all of them */
extern bool hole_ok;		  /* B.hole: a freed gap between guards */

/* Allocates and fills every buffer, the mirrors as they start. */
void setup_buffers(uint64_t iters);
bool in_scratch(uint64_t a);
bool is_buffer_start(uint64_t a);
bool inside_own_buffer(uint64_t a);

/* ---- host mirrors of the checked buffers ---- */

extern uint8_t *cnt_want;   /* per counter: 0 or 1 */
extern uint32_t *cnt_owner; /* record that set it to 1 */
extern uint64_t cnt_next;   /* next unused counter */
extern float *va_host, *vb_host;
extern uint32_t *vseg_n; /* per vadd segment: n written (0: none) */
extern uint64_t vseg_next, nvseg;
extern uint8_t *fil_want, *csrc_host, *cdst_want;
extern uint64_t fseg_next, nfseg, cseg_next, ncseg;

/* ---- records: one per packet, by queue and index (records.c) ---- */

enum kind { GOOD, EXACT, NOOP, RANDOM };
extern const char *const kind_name[];

typedef struct {
	hp_event ev;
	const char *what;
	int want; /* exact family: the status expected */
	int status;
	uint8_t kind, type;
	bool done;
	uint8_t ndeps;			     /* valid packets: dependencies */
	hp_event deps[HP_MBOX_BARRIER_DEPS]; /* (diagnostics) */
} rec;

extern rec *R;
extern unsigned nrec, maxrec;
extern hp_queue *Q[NQ];
extern unsigned qid[NQ];
extern uint32_t *qrec[NQ];	      /* record of packet qbase + i */
extern uint64_t qbase[NQ];	      /* the queue's first index here */
extern uint64_t qnext[NQ], qharv[NQ]; /* submitted, harvested */
/* Per queue: index of the latest packet rejected by validation (exact
 * family), for dependencies that must end HP_ABORTED. */
extern int64_t last_reject[NQ];

/* The dependencies of the valid packet being sent (diagnostics). */
extern hp_event last_deps[HP_MBOX_BARRIER_DEPS];
extern unsigned nlast_deps;

/* Recent valid events (dependencies of valid packets). */
extern hp_event recent_good[32];
extern unsigned nrecent;

/* Results of ALLOC packets that happened to be valid (freed at the end). */
extern hp_buffer *allocs;
extern unsigned nallocs;

/* Statistics. */
extern unsigned by_kind[4], valid_random, runtime_err;
extern uint64_t rejected; /* statuses the device counts as bad packets */
struct stress_error_count {
	int code;
	unsigned n;
};
extern struct stress_error_count errs[32];
extern unsigned nerrs;

/* Read the completion record of queue q's oldest unharvested packet;
 * false if !block and it is not complete yet. */
bool harvest_one(unsigned q, bool block);
/* A completion record is reused a ring later: read it before that. */
void make_room(unsigned q);
void harvest_ready(void);
/* The record of the packet just sent as event ev on queue q. */
unsigned record(unsigned q, hp_event ev, uint8_t kind, uint8_t type, int want,
		const char *what);
/* What the first valid packets that failed waited for, and how that
 * ended: a failure of its own, or one it inherited (HP_ABORTED). */
void report_failed_deps(void);

/* ---- valid work (good.c) ---- */

void good(unsigned q);

/* ---- raw packets (packets.c) ---- */

typedef struct {
	hp_packet p;
	hp_kernarg ka;
} pkt;

void pk_dispatch(pkt *k, uint32_t kernel, uint64_t n, const void *args,
		 uint32_t asz);
void pk_tally(pkt *k, hp_buffer counts, uint64_t base, uint64_t n);
void pk_mem(pkt *k, unsigned type, uint64_t dst, uint64_t src, uint64_t size,
	    uint64_t pattern, unsigned ps);
/* Sends packet k on queue q as the whole slot, and records it. */
unsigned send_packet(unsigned q, pkt *k, uint8_t kind, int want,
		     const char *what);
/* Counters no valid launch touches: an exact-family tally aims there. */
uint64_t victim_counters(uint64_t n);
/* A pointer outside every buffer (4-byte aligned). */
uint64_t outside_ptr(hp_buffer near);
/* An event that cannot be waited for, from queue q's packet. */
uint64_t bogus_event(unsigned q);

/* ---- the malformed families (exact.c, noop.c, random.c) ---- */

void exact(unsigned q);
void noop(unsigned q);
void random_packet(unsigned q);

/* ---- the end of the run (check.c) ---- */

/* Every checked buffer against its mirror; the guards unchanged. */
void check_results(void);
/* The device still runs a checked kernel. */
void final_kernel(void);

#endif
