/* SPDX-License-Identifier: MIT */
/**
 * @file hartpool error codes: HP_ + the OpenCL name without CL_, negative,
 * 0 = success. One table for firmware, host library and tools.
 */
#ifndef HARTPOOL_ERROR_H
#define HARTPOOL_ERROR_H

#define HP_ERRORS(X)                                                           \
	X(HP_SUCCESS, 0, "success")                                            \
	X(HP_DEVICE_NOT_FOUND, -1, "no hartpool device there")                 \
	X(HP_DEVICE_NOT_AVAILABLE, -2, "the device stopped or is gone")        \
	X(HP_COMPILER_NOT_AVAILABLE, -3,                                       \
	  "no OpenCL C compiler (clang-19) on this host")                      \
	X(HP_BUILD_PROGRAM_FAILURE, -11, "the OpenCL C program did not build") \
	X(HP_INVALID_VALUE, -30, "an argument has an invalid value")           \
	X(HP_INVALID_BINARY, -42, "not a valid kernel object")                 \
	X(HP_INVALID_BUILD_OPTIONS, -43, "invalid build options")              \
	X(HP_INVALID_PROGRAM, -44, "not a loaded kernel object")               \
	X(HP_INVALID_KERNEL, -48, "not a valid kernel")                        \
	X(HP_INVALID_KERNEL_ARGS, -52, "kernel arguments missing or invalid")  \
	X(HP_INVALID_WORK_DIMENSION, -53, "work_dim is not 1, 2 or 3")         \
	X(HP_INVALID_WORK_GROUP_SIZE, -54,                                     \
	  "invalid work-group size for this kernel and NDRange")               \
	X(HP_INVALID_WORK_ITEM_SIZE, -55,                                      \
	  "a local size exceeds the device's max work-item size")              \
	X(HP_INVALID_GLOBAL_OFFSET, -56,                                       \
	  "global offset + global size exceeds the device's size_t")           \
	X(HP_INVALID_EVENT_WAIT_LIST, -57, "invalid event wait list")          \
	X(HP_INVALID_GLOBAL_WORK_SIZE, -63,                                    \
	  "a global size exceeds the device's size_t")                         \
	X(HP_INVALID_SPEC_ID, -71,                                             \
	  "no specialization constant of that id in the module")               \
	X(HP_OUT_OF_RESOURCES, -5, "the device is out of resources")           \
	X(HP_KERNEL_FAULT, -1000, "the kernel faulted")                        \
	X(HP_TIMEOUT, -1001, "the command timed out")                          \
	X(HP_ABORTED, -1002, "the command was aborted")                        \
	X(HP_KERNEL_NOT_SUPPORTED, -1003,                                      \
	  "no hart in use can run this kernel (it needs an FPU)")

enum hp_error {
#define HP_ERROR_ENUM_(name, value, text) name = value,
	HP_ERRORS(HP_ERROR_ENUM_)
#undef HP_ERROR_ENUM_
};

/** "HP_INVALID_VALUE" for HP_INVALID_VALUE; "HP_UNKNOWN_ERROR" if none. */
const char *hp_error_name(int code);
/** A readable sentence for the code. */
const char *hp_error_text(int code);

#endif
