// SPDX-License-Identifier: MIT
/* empty: does nothing. Round trips through the mailbox and dispatch
 * overheads are measured with it. */
#include <hartpool/kernel.h>

HP_KERNEL(empty, const hp_item *it, const void *args)
{
	(void)it;
	(void)args;
}
HP_REGISTER(empty);
