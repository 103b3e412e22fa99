// SPDX-License-Identifier: MIT
/*
 * A host program of libhartpool's own: boots a device (qemu-virt, 2 harts),
 * adds two vectors with the library kernel vadd and checks every value.
 *
 *   cc vadd.c $(pkg-config --cflags --libs hartpool) -o vadd && ./vadd
 *
 * (PKG_CONFIG_PATH=PREFIX/lib/pkgconfig after `make install PREFIX=...`,
 * or PKG_CONFIG_PATH=build/host in the source tree; docs/install.md.)
 */
#include <hartpool.h>
#include <hartpool/kernels/lib.h>
#include <stdio.h>

#define N 4096

static int fail(const char *what, int rc)
{
	fprintf(stderr, "vadd: %s: %s (%s)\n", what, hp_error_name(rc),
		hp_last_error());
	return 1;
}

int main(void)
{
	static float a[N], b[N], c[N];
	for (int i = 0; i < N; i++) {
		a[i] = (float)i;
		b[i] = (float)(2 * i + 1);
	}
	hp_open_options o = {.harts = 2};
	hp_device *d;
	hp_queue *q;
	hp_buffer ba, bb, bc;
	uint32_t k;
	int rc;
	if ((rc = hp_open(&o, &d)))
		return fail("open", rc);
	if ((rc = hp_queue_create(d, HP_QUEUE_IN_ORDER, &q)) ||
	    (rc = hp_buffer_alloc(d, sizeof(a), &ba)) ||
	    (rc = hp_buffer_alloc(d, sizeof(b), &bb)) ||
	    (rc = hp_buffer_alloc(d, sizeof(c), &bc)) ||
	    (rc = hp_buffer_write(d, ba, 0, a, sizeof(a))) ||
	    (rc = hp_buffer_write(d, bb, 0, b, sizeof(b))) ||
	    (rc = hp_kernel_find(d, "vadd", &k)))
		return fail("set up", rc);
	hp_vadd_args va = {.a = ba, .b = bb, .c = bc, .n = N};
	hp_ndrange r = {.work_dim = 1, .global = {N}};
	hp_event ev;
	hp_event_info info;
	if ((rc = hp_enqueue_kernel(q, k, &r, &va, sizeof(va), NULL, 0, &ev)) ||
	    (rc = hp_event_wait(d, ev, &info)) || (rc = info.status) ||
	    (rc = hp_buffer_read(d, bc, 0, c, sizeof(c))))
		return fail("vadd", rc);
	int wrong = 0;
	for (int i = 0; i < N; i++)
		wrong += c[i] != a[i] + b[i];
	hp_close(d);
	printf("vadd of %d floats: %s\n", N, wrong ? "WRONG" : "OK");
	return wrong != 0;
}
