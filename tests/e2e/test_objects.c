// SPDX-License-Identifier: MIT
/*
 * End-to-end tests of kernel objects (docs/kernel-objects.md): objects
 * built at test time by `hartpool build` (tests/e2e/e2e.sh passes their
 * folder) are uploaded through the mailbox and run with exact results;
 * two objects at once; unload (also while a command still runs) and
 * reload; corrupted and truncated objects rejected with HP_INVALID_BINARY
 * and a reason, the device serving on; hp_printf from a loaded kernel;
 * writable globals, one copy per loaded object.
 *
 *   test_objects --objects DIR [--board B] [--harts N]
 *
 * DIR holds hello.hpk, saxpy.hpk, group_sum.hpk and globals.hpk
 * (examples/) built for
 * the board. Ends with "e2e: N checks, M failed".
 */
#define _GNU_SOURCE
#include "e2e_check.h"
#include <hartpool.h>
#include <hartpool/frame.h>
#include <hartpool/mbox.h>
#include <hartpool/object.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static hp_device *D;
static hp_queue *Q;

typedef struct {
	uint8_t *b;
	size_t n;
} blob;

static blob slurp(const char *dir, const char *name)
{
	char path[1024];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "rb");
	if (!f)
		e2e_fatal("cannot open %s", path);
	blob o = {malloc(1 << 20), 0};
	o.n = fread(o.b, 1, 1 << 20, f);
	fclose(f);
	return o;
}

/* A buffer holding init, or zeros (e2e_check.h). */
#define buf(size, init) e2e_buffer(D, size, init)

/* ---- group_sum and saxpy (examples/) with exact checks ---- */

struct group_sum_args {
	uint64_t in, out;
};
struct saxpy_args {
	uint64_t x, y;
	float a;
	uint32_t n;
};

/* Enqueue kernel `k` of group_sum's kind over n items, local l. */
static hp_event enqueue_sum(uint32_t k, hp_buffer in, hp_buffer out, uint64_t n,
			    uint64_t l)
{
	struct group_sum_args a = {in, out};
	hp_ndrange r = {.work_dim = 1,
			.global = {n},
			.local = {l},
			.local_given = true};
	hp_event ev;
	MUST(hp_enqueue_kernel(Q, k, &r, &a, sizeof(a), NULL, 0, &ev));
	return ev;
}

/* Run group sum kernel k (by name in obj) and check every group. */
static void check_sum(hp_object obj, const char *name, uint64_t n, uint64_t l,
		      uint32_t seed)
{
	uint32_t k;
	MUST(hp_object_kernel(D, obj, name, &k));
	uint32_t *in = malloc(n * 4);
	for (uint64_t i = 0; i < n; i++)
		in[i] = (uint32_t)(i * 2654435761u ^ seed);
	uint64_t groups = (n + l - 1) / l;
	hp_buffer bi = buf(n * 4, in), bo = buf(groups * 4, NULL);
	hp_event_info info;
	MUST(hp_event_wait(D, enqueue_sum(k, bi, bo, n, l), &info));
	CHECK(info.status == 0, "%s: %s %s", name, hp_error_name(info.status),
	      info.detail);
	uint32_t *out = malloc(groups * 4);
	MUST(hp_buffer_read(D, bo, 0, out, groups * 4));
	unsigned bad = 0;
	for (uint64_t g = 0; g < groups; g++) {
		uint32_t want = 0;
		for (uint64_t i = g * l; i < n && i < (g + 1) * l; i++)
			want += in[i];
		bad += out[g] != want;
	}
	CHECK(bad == 0, "%s: %u of %llu group sums wrong", name, bad,
	      (unsigned long long)groups);
	MUST(hp_buffer_free(D, bi));
	MUST(hp_buffer_free(D, bo));
	free(in);
	free(out);
}

static void check_saxpy(hp_object obj, uint32_t n)
{
	uint32_t k;
	MUST(hp_object_kernel(D, obj, "saxpy", &k));
	float *x = malloc(n * 4), *y = malloc(n * 4), *got = malloc(n * 4);
	for (uint32_t i = 0; i < n; i++)
		x[i] = (float)(i % 1000), y[i] = (float)(i % 7);
	hp_buffer bx = buf(n * 4, x), by = buf(n * 4, y);
	struct saxpy_args a = {bx, by, 2.5f, n};
	hp_ndrange r = {.work_dim = 1, .global = {n}};
	hp_event ev;
	hp_event_info info;
	MUST(hp_enqueue_kernel(Q, k, &r, &a, sizeof(a), NULL, 0, &ev));
	MUST(hp_event_wait(D, ev, &info));
	CHECK(info.status == 0, "saxpy: %s %s", hp_error_name(info.status),
	      info.detail);
	MUST(hp_buffer_read(D, by, 0, got, n * 4));
	unsigned bad = 0;
	for (uint32_t i = 0; i < n; i++)
		bad += got[i] != 2.5f * x[i] + y[i]; /* exact: small values */
	CHECK(bad == 0, "saxpy: %u of %u values wrong", bad, n);
	MUST(hp_buffer_free(D, bx));
	MUST(hp_buffer_free(D, by));
	free(x), free(y), free(got);
}

/* ---- writable globals (examples/globals.c) ---- */

/* Kernel @p name of @p obj over @p n items with out as its argument;
 * out[0..m) read back into @p got. */
static void run_out(hp_object obj, const char *name, uint64_t n, uint32_t *got,
		    unsigned m)
{
	uint32_t k;
	MUST(hp_object_kernel(D, obj, name, &k));
	hp_buffer out = buf(n * 4, NULL);
	uint64_t a = out;
	hp_ndrange r = {.work_dim = 1, .global = {n}};
	hp_event ev;
	hp_event_info info;
	MUST(hp_enqueue_kernel(Q, k, &r, &a, sizeof(a), NULL, 0, &ev));
	MUST(hp_event_wait(D, ev, &info));
	CHECK(info.status == 0, "%s: %s %s", name, hp_error_name(info.status),
	      info.detail);
	if (m)
		MUST(hp_buffer_read(D, out, 0, got, m * 4));
	MUST(hp_buffer_free(D, out));
}

static uint32_t count_of(hp_object obj)
{
	uint32_t c = 0;
	run_out(obj, "count", 1, &c, 1);
	return c;
}

/* tally's values with every weight raised by @p plus. */
static unsigned tally_bad(hp_object obj, uint32_t plus)
{
	static const uint32_t w[4] = {3, 5, 7, 11};
	uint32_t got[12];
	run_out(obj, "tally", 12, got, 12);
	unsigned bad = 0;
	for (unsigned i = 0; i < 12; i++)
		bad += got[i] != w[i % 4] + plus + 11 + plus + 'w';
	return bad;
}

/* Two loaded copies of one object: each has its own globals, initialised,
 * kept from launch to launch; a reload starts from the initial values. */
static void check_globals(const blob *g)
{
	hp_object a, b;
	MUST(hp_object_load(D, g->b, g->n, &a, NULL));
	MUST(hp_object_load(D, g->b, g->n, &b, NULL));
	CHECK(tally_bad(a, 0) == 0, "globals: first tally of copy a");
	CHECK(tally_bad(a, 0) == 0, "globals: second tally of copy a");
	CHECK(tally_bad(b, 0) == 0, "globals: tally of copy b");
	CHECK(count_of(a) == 24 && count_of(b) == 12,
	      "globals: counters %u and %u, not 24 and 12", count_of(a),
	      count_of(b));
	run_out(a, "bump", 4, NULL, 0);
	run_out(a, "bump", 4, NULL, 0);
	CHECK(tally_bad(a, 2) == 0, "globals: copy a's weights after bumps");
	CHECK(tally_bad(b, 0) == 0, "globals: copy b changed with a's");
	MUST(hp_object_unload(D, a));
	MUST(hp_object_load(D, g->b, g->n, &a, NULL));
	CHECK(count_of(a) == 0 && tally_bad(a, 0) == 0,
	      "globals: a reload does not start from the initial values");
	MUST(hp_object_unload(D, a));
	MUST(hp_object_unload(D, b));
	printf("ok: two copies of an object with globals: initialised, their "
	       "own, kept across launches, reset by a reload\n");
}

/* ---- hp_printf from a loaded kernel ---- */

static unsigned lines_ok, lines;

static void on_line(void *ctx, const uint64_t gid[3], const char *text,
		    size_t n)
{
	(void)ctx;
	char want[128];
	uint64_t i = gid[0];
	snprintf(want, sizeof(want),
		 "work-item %llu of group %llu: %llu squared is %llu\n",
		 (unsigned long long)i, (unsigned long long)(i / 4),
		 (unsigned long long)i, (unsigned long long)(i * i));
	lines++;
	lines_ok += n == strlen(want) && !memcmp(text, want, n);
}

static void check_hello(hp_object obj)
{
	uint32_t k;
	MUST(hp_object_kernel(D, obj, "hello", &k));
	hp_buffer out = buf(40 * 4, NULL), pb = buf(8192, NULL);
	uint64_t a = out;
	hp_ndrange r = {.work_dim = 1,
			.global = {40},
			.local = {4},
			.local_given = true,
			.printf_buf = pb,
			.printf_size = 8192};
	hp_event ev;
	hp_event_info info;
	MUST(hp_enqueue_kernel(Q, k, &r, &a, sizeof(a), NULL, 0, &ev));
	MUST(hp_event_wait(D, ev, &info));
	CHECK(info.status == 0, "hello: %s", info.detail);
	uint32_t dropped = 99;
	lines = lines_ok = 0;
	MUST(hp_printf_read(D, pb, 8192, on_line, NULL, &dropped));
	CHECK(lines == 40 && lines_ok == 40 && dropped == 0,
	      "hello printf: %u lines, %u right, %u dropped", lines, lines_ok,
	      dropped);
	uint32_t sq[40];
	MUST(hp_buffer_read(D, out, 0, sq, sizeof(sq)));
	unsigned bad = 0;
	for (uint32_t i = 0; i < 40; i++)
		bad += sq[i] != i * i;
	CHECK(bad == 0, "hello: %u squares wrong", bad);
	MUST(hp_buffer_free(D, out));
	MUST(hp_buffer_free(D, pb));
}

/* ---- bad objects ---- */

static void fix_crc(uint8_t *b, size_t n)
{
	hpk_header h;
	memcpy(&h, b, sizeof(h));
	h.crc32 = hp_crc32(b + 24, n - 24);
	memcpy(b, &h, sizeof(h));
}

/* Load `n` bytes of `b`: must fail with `code` and a detail containing
 * `want`. */
static void expect_reject(const char *what, const uint8_t *b, size_t n,
			  int code, const char *want)
{
	hp_object o;
	int rc = hp_object_load(D, b, n, &o, NULL);
	CHECK(rc == code && strstr(hp_last_error(), want),
	      "%s: got %s '%s', want %s '%s'", what, hp_error_name(rc),
	      rc ? hp_last_error() : "", hp_error_name(code), want);
	if (!rc)
		hp_object_unload(D, o);
}

typedef void (*mutate_fn)(hpk_header *h, uint8_t *file);

static void m_version(hpk_header *h, uint8_t *f)
{
	(void)f;
	h->version = 99;
}
static void m_xlen(hpk_header *h, uint8_t *f)
{
	(void)f;
	h->xlen = h->xlen == 64 ? 32 : 64;
}
static void m_image_size(hpk_header *h, uint8_t *f)
{
	(void)f;
	h->image_size = 0x7fffffff;
}
static void m_image_off(hpk_header *h, uint8_t *f)
{
	(void)f;
	h->image_offset = h->file_size - 4;
}
static void m_kernels(hpk_header *h, uint8_t *f)
{
	(void)f;
	h->kernels_offset = h->image_size;
}
static void m_api(hpk_header *h, uint8_t *f)
{
	(void)f;
	h->api_count = 100000;
}
static void m_relocs(hpk_header *h, uint8_t *f)
{
	(void)f;
	h->reloc_count = 1000;
}
static hpk_reloc *reloc0(hpk_header *h, uint8_t *f)
{
	return (hpk_reloc *)(f + h->reloc_offset);
}
static void m_reloc_type(hpk_header *h, uint8_t *f)
{
	reloc0(h, f)->type = 5; /* R_RISCV_JUMP_SLOT */
}
static void m_reloc_off(hpk_header *h, uint8_t *f)
{
	reloc0(h, f)->offset = h->image_size + 64;
}
static void m_reloc_code(hpk_header *h, uint8_t *f)
{
	reloc0(h, f)->offset = 8;
}
static void m_reloc_target(hpk_header *h, uint8_t *f)
{
	reloc0(h, f)->addend = (uint64_t)h->image_size + 4096;
}
/* Every relocation pointing into the code now points at the end of the
 * image: the kernel's function pointers leave the code. */
static void m_fn(hpk_header *h, uint8_t *f)
{
	hpk_reloc *r = reloc0(h, f);
	for (uint32_t i = 0; i < h->reloc_count; i++)
		if (r[i].addend < h->text_size)
			r[i].addend = h->image_size - 2;
}
/* Writable data said to start in the code. */
static void m_data(hpk_header *h, uint8_t *f)
{
	(void)f;
	h->data_offset = 0;
	h->data_size = 8;
}

static void bad_objects(const blob *good)
{
	uint8_t *b = malloc(good->n + 64);
	/* Truncated, and the wrong thing altogether. */
	expect_reject("truncated by one byte", good->b, good->n - 1,
		      HP_INVALID_BINARY, "truncated");
	expect_reject("truncated header", good->b, 40, HP_INVALID_BINARY,
		      "truncated");
	memcpy(b, good->b, good->n);
	memset(b + good->n, 0, 64);
	expect_reject("trailing bytes", b, good->n + 64, HP_INVALID_BINARY,
		      "trailing bytes");
	memcpy(b, good->b, good->n);
	b[1] = 'X';
	expect_reject("bad magic", b, good->n, HP_INVALID_BINARY, "magic");
	/* A flipped bit in the code: the checksum. */
	memcpy(b, good->b, good->n);
	b[sizeof(hpk_header) + 10] ^= 4;
	expect_reject("corrupted code", b, good->n, HP_INVALID_BINARY,
		      "checksum");
	/* With the checksum fixed: the structural checks. */
	static const struct {
		const char *what;
		mutate_fn fn;
		const char *want;
	} cases[] = {
		{"format version", m_version, "version 99"},
		{"other XLEN", m_xlen, "object built for RV"},
		{"huge image", m_image_size, "image size"},
		{"image past the file", m_image_off, "image bytes outside"},
		{"descriptors past the image", m_kernels,
		 "descriptors outside"},
		{"newer API", m_api, "kernel API entries"},
		{"relocations past the file", m_relocs, "relocations outside"},
		{"unsupported relocation", m_reloc_type, "unsupported type 5"},
		{"relocation past the image", m_reloc_off, "outside the image"},
		{"relocation inside code", m_reloc_code, "inside the code"},
		{"relocation target outside", m_reloc_target, "target 0x"},
		{"code pointer into data", m_fn, "code pointer outside"},
		{"writable data in the code", m_data, "writable data"},
	};
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memcpy(b, good->b, good->n);
		hpk_header h;
		memcpy(&h, b, sizeof(h));
		cases[i].fn(&h, b);
		memcpy(b, &h, sizeof(h));
		fix_crc(b, good->n);
		expect_reject(cases[i].what, b, good->n, HP_INVALID_BINARY,
			      cases[i].want);
	}
	/* Random corruption with a valid checksum: rejected, or loaded
	 * (a byte of code or padding) and unloaded; never a dead device. */
	unsigned rejected = 0, loaded = 0, other = 0;
	uint64_t rng = 12345;
	for (unsigned i = 0; i < 300; i++) {
		memcpy(b, good->b, good->n);
		unsigned flips = 1 + i % 3;
		for (unsigned k = 0; k < flips; k++) {
			rng = rng * 6364136223846793005ull + 1;
			size_t at = 24 + (rng >> 33) % (good->n - 24);
			b[at] ^= (uint8_t)(1u << (rng >> 29 & 7));
		}
		fix_crc(b, good->n);
		hp_object o;
		int rc = hp_object_load(D, b, good->n, &o, NULL);
		if (rc == 0) {
			loaded++;
			MUST(hp_object_unload(D, o));
		} else if (rc == HP_INVALID_BINARY) {
			rejected++;
		} else {
			other++;
			printf("random corruption %u: %s\n", i,
			       hp_last_error());
		}
	}
	CHECK(other == 0, "random corruption: %u unexpected errors", other);
	printf("ok: 300 randomly corrupted objects: %u rejected, %u loaded "
	       "and unloaded\n",
	       rejected, loaded);
	free(b);
}

int main(int argc, char **argv)
{
	const char *dir = NULL, *board = NULL;
	unsigned harts = 8;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--objects") && i + 1 < argc)
			dir = argv[++i];
		else if (!strcmp(argv[i], "--board") && i + 1 < argc)
			board = argv[++i];
		else if (!strcmp(argv[i], "--harts") && i + 1 < argc)
			harts = (unsigned)atoi(argv[++i]);
	}
	if (!dir) {
		fprintf(stderr, "usage: test_objects --objects DIR [--board "
				"B] [--harts N]\n");
		return 2;
	}
	hp_open_options o = {.board = board, .harts = harts};
	MUST(hp_open(&o, &D));
	MUST(hp_queue_create(D, 0, &Q));
	blob hello = slurp(dir, "hello.hpk"), sum = slurp(dir, "group_sum.hpk"),
	     sax = slurp(dir, "saxpy.hpk"), glob = slurp(dir, "globals.hpk");
	check_globals(&glob);

	/* Two objects at once, three kernels between them. */
	hp_object a, b;
	uint64_t aa, ab;
	MUST(hp_object_load(D, sum.b, sum.n, &a, &aa));
	MUST(hp_object_load(D, sax.b, sax.n, &b, &ab));
	CHECK(a != b && aa != ab, "two objects, one handle or address");
	check_sum(a, "group_sum", 1000, 64, 1);
	check_sum(a, "group_sum_sg", 999, 40, 2);
	check_saxpy(b, 10007);
	printf("ok: two objects loaded at 0x%llx and 0x%llx, three kernels "
	       "exact\n",
	       (unsigned long long)aa, (unsigned long long)ab);

	/* Unload: the kernel id dies with it, the other object lives. */
	uint32_t ka;
	MUST(hp_object_kernel(D, a, "group_sum", &ka));
	MUST(hp_object_unload(D, a));
	hp_event_info info;
	MUST(hp_event_wait(D, enqueue_sum(ka, 0, 0, 64, 64), &info));
	CHECK(info.status == HP_INVALID_KERNEL,
	      "kernel of an unloaded object: %s", hp_error_name(info.status));
	CHECK(hp_object_unload(D, a) == HP_INVALID_PROGRAM,
	      "second unload must be HP_INVALID_PROGRAM");
	uint32_t gone;
	CHECK(hp_object_kernel(D, a, "group_sum", &gone) == HP_INVALID_KERNEL,
	      "unloaded object still lists its kernel");
	check_saxpy(b, 333);

	/* Reload; then unload while a long command still runs: it finishes
	 * with exact results, and new loads do not take its memory. */
	MUST(hp_object_load(D, sum.b, sum.n, &a, &aa));
	check_sum(a, "group_sum", 4096, 128, 3);
	MUST(hp_object_kernel(D, a, "group_sum", &ka));
	uint64_t n = 1 << 18;
	uint32_t *in = malloc(n * 4);
	for (uint64_t i = 0; i < n; i++)
		in[i] = (uint32_t)i;
	hp_buffer bi = buf(n * 4, in), bo = buf(n / 64 * 4, NULL);
	hp_buffer si = buf(64 * 4, NULL), so = buf(4, NULL);
	hp_event ev = enqueue_sum(ka, bi, bo, n, 64);
	/* A small command behind it on the same queue: once that one is
	 * complete, the dispatcher has read (accepted) the big one, which
	 * is most likely still running. */
	MUST(hp_event_wait(D, enqueue_sum(ka, si, so, 64, 64), &info));
	int64_t running = hp_event_query(D, ev, &info);
	MUST(hp_object_unload(D, a));
	hp_object c;
	MUST(hp_object_load(D, hello.b, hello.n, &c, NULL));
	MUST(hp_event_wait(D, ev, &info));
	CHECK(info.status == 0, "command of an object unloaded meanwhile: %s",
	      info.detail);
	uint32_t *out = malloc(n / 64 * 4);
	MUST(hp_buffer_read(D, bo, 0, out, n / 64 * 4));
	unsigned bad = 0;
	for (uint64_t g = 0; g < n / 64; g++)
		bad += out[g] != (uint32_t)(64 * 64 * g + 64 * 63 / 2);
	CHECK(bad == 0, "sums after unload-while-running: %u wrong", bad);
	printf("ok: unload %s its last command ended: that command exact\n",
	       running == 1 ? "before" : "(just) after");
	MUST(hp_buffer_free(D, si));
	MUST(hp_buffer_free(D, so));
	free(in), free(out);
	MUST(hp_buffer_free(D, bi));
	MUST(hp_buffer_free(D, bo));
	check_hello(c);
	printf("ok: unload, unloaded kernel rejected, reload, unload while "
	       "running, hp_printf from a loaded kernel\n");

	/* Load and unload many times: memory and table rows come back. */
	for (unsigned i = 0; i < 40; i++) {
		MUST(hp_object_load(D, sum.b, sum.n, &a, NULL));
		MUST(hp_object_unload(D, a));
	}
	/* Fill every object slot: the 17th is refused, not lost. */
	hp_object many[HP_MBOX_OBJECTS_MAX];
	unsigned nmany = 0;
	int rc = 0;
	while (nmany < HP_MBOX_OBJECTS_MAX &&
	       !(rc = hp_object_load(D, sax.b, sax.n, &many[nmany], NULL)))
		nmany++;
	CHECK(nmany == HP_MBOX_OBJECTS_MAX - 2 && rc == HP_OUT_OF_RESOURCES,
	      "filling object slots: %u loaded, then %s", nmany,
	      hp_error_name(rc));
	printf("ok: 40 load/unload cycles; slots full after %u more: %s\n",
	       nmany, hp_error_name(rc));
	for (unsigned i = 0; i < nmany; i++)
		MUST(hp_object_unload(D, many[i]));

	bad_objects(&hello);
	check_hello(c);
	check_saxpy(b, 1000);
	MUST(hp_object_unload(D, b));
	MUST(hp_object_unload(D, c));
	printf("ok: the device serves on after every bad object\n");

	hp_queue_release(Q);
	hp_close(D);
	return e2e_report();
}
