// SPDX-License-Identifier: MIT
/*
 * Roll-call: every hart in use reports once, with an index below the hart
 * count, the hart id that the table gives for its index (= mhartid), ids in
 * ascending index order, and thread-local storage of its own.
 */
#include "tt.h"
#include <boot/app.h>
#include <boot/trap_frame.h>
#include <hal/csr.h>
#include <hal/hartmask.h>

static hal_hartmask present;
static __thread unsigned long tls_probe[4];

int app_main(void)
{
	unsigned me = hal_hart_idx(), n = hal_hart_num();
#ifdef HAL_SMODE
	/* No mhartid in S-mode: the id SBI passed in a0, which start.S keeps
	 * at the trap area's top. */
	unsigned long id =
		*(unsigned long *)(csr_read(CSR_SCRATCH) + BOOT_TRAP_HARTID);
#else
	unsigned long id = csr_read(mhartid);
#endif

	TT_CHECK(me < n);
	TT_CHECK(hal_hart_id(me) == id);
	TT_CHECK(me == 0 || hal_hart_id(me - 1) < hal_hart_id(me));
	for (unsigned i = 0; i < 4; i++)
		tls_probe[i] = id * 4 + i;
	hal_hartmask_set(&present, me);
	hal_printf("rollcall: hart %u id %lu\n", me, id);
	boot_barrier_all();

	/* Everybody wrote their TLS; ours must still be ours. */
	for (unsigned i = 0; i < 4; i++)
		TT_CHECK(tls_probe[i] == id * 4 + i);
	if (me == 0) {
		unsigned count = 0;
		for (unsigned w = 0; w < HAL_HARTMASK_WORDS; w++)
			count += (unsigned)__builtin_popcountl(present.w[w]);
		TT_CHECK(count == n);
		hal_printf("rollcall: %u/%u harts\n", count, n);
	}
	boot_barrier_all();
	return tt_result();
}
