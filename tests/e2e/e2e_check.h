/* SPDX-License-Identifier: MIT */
/*
 * The harness every e2e program shares (test_mbox, test_objects,
 * test_edges, test_stress; e2e_check.c is linked into each):
 *
 *   CHECK(cond, fmt, ...)  one check: a false condition is a failure,
 *                          reported with its file and line; the run goes on.
 *   e2e_fail(fmt, ...)     a failure found some other way (test_stress
 *                          compares whole buffers): counted, the first 40
 *                          reported; the run goes on.
 *   MUST(call)             a library call that has to work: its failure
 *                          ends the run through e2e_fatal().
 *   e2e_fatal(fmt, ...)    ends the run: "FATAL: <what>", then exit 1.
 *   e2e_report()           the closing line "e2e: N checks, M failed" and
 *                          the exit status (test_stress closes with a
 *                          summary of its own).
 *   e2e_kernel(), e2e_buffer()  a kernel's id, a buffer with its contents.
 */
#ifndef TESTS_E2E_CHECK_H
#define TESTS_E2E_CHECK_H

#include <hartpool.h>
#include <stdint.h>
#include <stdio.h>

/* The QEMU boards' memory map (board/qemu-virt/board.h, also used by
 * qemu-virt32; e2e programs do not include board code): firmware RAM from
 * DRAM's start, the mailbox, then the buffer heap to DRAM's end. */
#define E2E_DRAM_BASE UINT64_C(0x80000000)
#define E2E_MBOX_BASE UINT64_C(0x90000000)
#define E2E_MBOX_SIZE UINT64_C(0x00400000)
#define E2E_HEAP_BASE UINT64_C(0x90800000)

/* Checks made and failures found so far. */
extern unsigned e2e_checks, e2e_failures;

/* What a program adds to a fatal error: a note at the end of the FATAL
 * line ("(<note>)"; test_stress: the seed to rerun with), and a hook run
 * once before the exit (test_stress: the device's last console lines). */
extern const char *e2e_fatal_note;
extern void (*e2e_at_fatal)(void);

#define CHECK(cond, ...)                                                       \
	do {                                                                   \
		e2e_checks++;                                                  \
		if (!(cond)) {                                                 \
			e2e_failures++;                                        \
			printf("FAIL %s:%d: ", __FILE__, __LINE__);            \
			printf(__VA_ARGS__);                                   \
			printf("\n");                                          \
		}                                                              \
	} while (0)

/* Library calls that must work; a failure ends the run. */
#define MUST(call)                                                             \
	do {                                                                   \
		int rc_ = (call);                                              \
		if (rc_)                                                       \
			e2e_fatal("%s:%d: %s: %s: %s", __FILE__, __LINE__,     \
				  #call, hp_error_name(rc_), hp_last_error()); \
	} while (0)

void e2e_fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void e2e_fatal(const char *fmt, ...)
	__attribute__((format(printf, 1, 2), noreturn));
int e2e_report(void);

/* The id of kernel @p name on @p d (it must be there). */
uint32_t e2e_kernel(hp_device *d, const char *name);
/* A buffer of @p size bytes on @p d holding @p init, or zeros when @p init
 * is NULL (device buffers are not zeroed: they may hold what an earlier
 * buffer left). */
hp_buffer e2e_buffer(hp_device *d, uint64_t size, const void *init);

#endif
