/* SPDX-License-Identifier: MIT */
/** @file hp_kernel as the device lays it out (hartpool/kernel.h), for
 * libhartpool's reading of kernel objects (clmeta.c) and the kernel
 * compiler that writes them (host/clc/irmap.c, host/clc/package.c). */
#ifndef HOST_LIB_KDESC_H
#define HOST_LIB_KDESC_H

/** Its size and where local_mem_bytes is (RV64: the host's own layout;
 * RV32: 4-byte pointers). */
#define HP_KDESC_SIZE(xlen) ((xlen) == 32 ? 56u : 80u)
#define HP_KDESC_LOCAL_MEM(xlen) ((xlen) == 32 ? 32u : 44u)

#endif
