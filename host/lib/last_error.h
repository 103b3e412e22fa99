/* SPDX-License-Identifier: MIT */
/** @file Setting hp_last_error() (hartpool.h), for libhartpool
 * (internal.h) and the layers above it that answer through it (the kernel
 * compiler's hp_cl_build, host/clc/clc.c). device.c has it. */
#ifndef HOST_LIB_LAST_ERROR_H
#define HOST_LIB_LAST_ERROR_H

/** Set the calling thread's hp_last_error(); returns @p code. */
int hp_fail(int code, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
