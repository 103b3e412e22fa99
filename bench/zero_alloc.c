// SPDX-License-Identifier: MIT
/*
 * What "nothing left over" (docs/sessions.md) costs an allocation: the
 * wall time of hp_buffer_alloc for SIZE MiB on memory never used (clean),
 * right after the same bytes were written and freed (dirty: the
 * allocation clears them), after the idle harts had WAIT ms to clear
 * them in the background, and on clean memory after the same wait (the
 * dispatcher's wake-up alone). One line per size: medians of REPS, each
 * rep in a new session.
 *
 *   zero_alloc --connect CONN [--reps N] [--wait MS] SIZE_MIB...
 */
#include <hartpool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_us(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void must(int rc, const char *what)
{
	if (rc) {
		fprintf(stderr, "zero_alloc: %s: %s\n", what,
			hp_error_name(rc));
		exit(1);
	}
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp);
	return v[n / 2];
}

static double timed_alloc(hp_device *d, uint64_t size, hp_buffer *b)
{
	double t0 = now_us();
	must(hp_buffer_alloc(d, size, b), "alloc");
	return now_us() - t0;
}

/* Write the whole buffer (so its memory is used), then free it. */
static void dirty_free(hp_device *d, hp_buffer b, void *junk, uint64_t size)
{
	must(hp_buffer_write(d, b, 0, junk, size), "write");
	must(hp_buffer_free(d, b), "free");
}

int main(int argc, char **argv)
{
	const char *conn = NULL;
	int reps = 5, wait_ms = 2000;
	uint64_t sizes[8];
	int nsizes = 0;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--connect") && i + 1 < argc)
			conn = argv[++i];
		else if (!strcmp(argv[i], "--reps") && i + 1 < argc)
			reps = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--wait") && i + 1 < argc)
			wait_ms = atoi(argv[++i]);
		else if (argv[i][0] != '-' && nsizes < 8)
			sizes[nsizes++] = strtoull(argv[i], NULL, 0);
		else {
			fprintf(stderr, "usage: zero_alloc --connect CONN "
					"[--reps N] [--wait MS] SIZE_MIB...\n");
			return 2;
		}
	}
	if (!conn || !nsizes || reps < 1 || reps > 64) {
		fprintf(stderr, "zero_alloc: --connect and a size needed, "
				"reps 1..64\n");
		return 2;
	}
	struct timespec ts = {wait_ms / 1000, (wait_ms % 1000) * 1000000L};
	for (int s = 0; s < nsizes; s++) {
		uint64_t size = sizes[s] << 20;
		void *junk = malloc(size);
		memset(junk, 0x5a, size);
		double clean[64], dirty[64], after[64], control[64];
		int same = 0;
		/* Each rep in a session of its own: its region holds only its
		 * buffers, so the dirty allocation lands where the freed one
		 * was (counted in `same`). */
		for (int r = 0; r < reps; r++) {
			hp_open_options o = {.connect = conn};
			hp_device *d;
			must(hp_open(&o, &d), "open");
			hp_buffer a, b, c, x;
			clean[r] = timed_alloc(d, size, &a);
			/* Dirty: the bytes just written and freed. */
			dirty_free(d, a, junk, size);
			dirty[r] = timed_alloc(d, size, &b);
			same += b == a;
			/* After the idle harts had their time. */
			dirty_free(d, b, junk, size);
			nanosleep(&ts, NULL);
			after[r] = timed_alloc(d, size, &c);
			/* The same wait before a clean allocation: what the
			 * dispatcher's wake-up costs alone. */
			nanosleep(&ts, NULL);
			control[r] = timed_alloc(d, size, &x);
			hp_close(d);
			/* What the session leaves is cleared before the next.
			 */
			nanosleep(&ts, NULL);
		}
		double c = median(clean, reps), y = median(dirty, reps),
		       a = median(after, reps), k = median(control, reps);
		printf("zero_alloc size_mib=%llu clean_us=%.0f dirty_us=%.0f "
		       "after_idle_us=%.0f clean_after_wait_us=%.0f "
		       "same_place=%d/%d dirty_per_mib_us=%.1f\n",
		       (unsigned long long)sizes[s], c, y, a, k, same, reps,
		       (y - c) / (double)sizes[s]);
		free(junk);
	}
	return 0;
}
