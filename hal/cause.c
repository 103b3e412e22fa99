// SPDX-License-Identifier: MIT
/* Names of trap causes: the one table boot's trap report and the executor's
 * fault sentences share. Portable (no CSR access): the executor core that
 * reports faults is also built for the host. */
#include <hal/csr.h>

const char *hal_cause_name(unsigned long cause)
{
	/* These texts reach the user (fault sentences, boot's report) and
	 * tests match them. */
	static const char *const names[] = {
		[CAUSE_MISALIGNED_FETCH] = "instruction address misaligned",
		[CAUSE_FETCH_ACCESS] = "instruction access fault",
		[CAUSE_ILLEGAL_INSTRUCTION] = "illegal instruction",
		[CAUSE_BREAKPOINT] = "breakpoint (ebreak)",
		[CAUSE_MISALIGNED_LOAD] = "load address misaligned",
		[CAUSE_LOAD_ACCESS] = "load access fault",
		[CAUSE_MISALIGNED_STORE] = "store/AMO address misaligned",
		[CAUSE_STORE_ACCESS] = "store/AMO access fault",
		[CAUSE_USER_ECALL] = "environment call (ecall) from U-mode",
		[CAUSE_SUPERVISOR_ECALL] =
			"environment call (ecall) from S-mode",
		[10] = "exception 10", /* reserved */
		[CAUSE_MACHINE_ECALL] = "environment call (ecall) from M-mode",
		[CAUSE_FETCH_PAGE_FAULT] = "instruction page fault",
		[CAUSE_LOAD_PAGE_FAULT] = "load page fault",
		[CAUSE_STORE_PAGE_FAULT] = "store/AMO page fault",
	};
	if (cause & CAUSE_INTERRUPT)
		return "interrupt";
	if (cause < sizeof(names) / sizeof(names[0]) && names[cause])
		return names[cause];
	return "exception";
}
