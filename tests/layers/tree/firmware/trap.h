/* SPDX-License-Identifier: MIT */
void fw_trap(void);
