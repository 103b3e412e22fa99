/* SPDX-License-Identifier: MIT */
/**
 * @file Kernel isolation with the PMP (docs/faults.md). Kernels run in
 * M-mode, but between hal_isolation_enter() and hal_isolation_leave() the
 * hart's loads and stores are checked as if it ran in U-mode
 * (mstatus.MPRV = 1, MPP = U) against its PMP, which hal_isolation_setup()
 * programs: no access to the given ranges (the mailbox rings, guards), no
 * access to the other harts' stacks, firmware code and read-only data
 * readable but not writable, everything else readable and writable. A
 * denied access traps like any access fault. Instruction fetch is not
 * checked (that needs real U-mode; see docs/faults.md).
 *
 * Host build: no-ops (false from setup).
 */
#ifndef HAL_ISOLATION_H
#define HAL_ISOLATION_H

#include <stdbool.h>
#include <stdint.h>

/** [base, base + size): size a power of two >= 8, base aligned to it. */
typedef struct hal_range {
	uintptr_t base, size;
} hal_range;

/** Program the calling hart's PMP with @p n (at most 4) no-access ranges.
 * False if the hart has too few PMP entries (isolation then stays off). */
bool hal_isolation_setup(const hal_range *deny, unsigned n);
/** The calling hart's stack: [lo, hi) (its trap area included). */
void hal_isolation_own_stack(uintptr_t *lo, uintptr_t *hi);
void hal_isolation_enter(void);
void hal_isolation_leave(void);

#endif
