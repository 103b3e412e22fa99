// SPDX-License-Identifier: MIT
/* The platform and device API: clGetPlatformIDs, clGetPlatformInfo,
 * clGetDeviceIDs, clGetDeviceInfo (the devices themselves:
 * core/device.c). */
#include "icd.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- platform ---- */

/* @p d is a 64-bit device; for the platform (NULL), every device is. */
static bool is64(cl_device_id d)
{
	if (d)
		return d->info.address_bits == 64;
	for (unsigned i = 0; i < icd_num_devices; i++)
		if (icd_devices[i].info.address_bits != 64)
			return false;
	return icd_num_devices > 0;
}

/* The OpenCL C extensions the device's compiler enables (hp_cl_build,
 * hartpool_cl.h); 64-bit devices are the rv64imafdc boards. */
static const char *const exts_base[] = {HP_CL_EXTENSIONS};
static const char *const exts_64[] = {HP_CL_EXTENSIONS_FP64,
				      HP_CL_EXTENSIONS_RV64};

/* The API's extensions every device has (the ICD's own; OpenCL C's
 * cl_khr_expect_assume: clang's __builtin_expect and __builtin_assume). */
static const char *const exts_api[] = {
	"cl_khr_device_uuid",
	"cl_khr_extended_versioning",
	"cl_khr_suggested_local_work_size",
	"cl_khr_expect_assume",
	"cl_khr_il_program",
	"cl_khr_spirv_no_integer_wrap_decoration",
	"cl_khr_spirv_linkonce_odr"};

/* Extensions one list holds at most (the platform's and a device's). */
#define ICD_EXTS_MAX 32
_Static_assert(1 + sizeof(exts_base) / sizeof(exts_base[0]) +
			       sizeof(exts_api) / sizeof(exts_api[0]) +
			       sizeof(exts_64) / sizeof(exts_64[0]) <=
		       ICD_EXTS_MAX,
	       "ICD_EXTS_MAX");

/* The platform's (@p d NULL: what every device has) or @p d's. */
static size_t ext_list(cl_device_id d, cl_name_version *out, char *str,
		       size_t cap)
{
	const char *names[ICD_EXTS_MAX];
	size_t n = 0;
	if (!d)
		names[n++] = "cl_khr_icd";
	for (size_t i = 0; i < sizeof(exts_base) / sizeof(exts_base[0]); i++)
		names[n++] = exts_base[i];
	for (size_t i = 0; i < sizeof(exts_api) / sizeof(exts_api[0]); i++)
		names[n++] = exts_api[i];
	if (is64(d))
		for (size_t i = 0; i < sizeof(exts_64) / sizeof(exts_64[0]);
		     i++)
			names[n++] = exts_64[i];
	if (str) {
		str[0] = 0;
		for (size_t i = 0; i < n; i++) {
			if (i)
				strncat(str, " ", cap - strlen(str) - 1);
			strncat(str, names[i], cap - strlen(str) - 1);
		}
	}
	if (out)
		for (size_t i = 0; i < n; i++) {
			memset(&out[i], 0, sizeof(out[i]));
			out[i].version = CL_MAKE_VERSION(1, 0, 0);
			snprintf(out[i].name, sizeof(out[i].name), "%s",
				 names[i]);
		}
	return n;
}

ICD_EXPORT cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint n,
						     cl_platform_id *p,
						     cl_uint *num)
{
	FAIL_IF((!n && p) || (!p && !num), CL_INVALID_VALUE,
		"num_entries %u, platforms %p, num_platforms %p", n, (void *)p,
		(void *)num);
	if (p)
		p[0] = &icd_platform;
	if (num)
		*num = 1;
	return CL_SUCCESS;
}

ICD_EXPORT cl_int CL_API_CALL clGetPlatformIDs(cl_uint n, cl_platform_id *p,
					       cl_uint *num)
{
	return clIcdGetPlatformIDsKHR(n, p, num);
}

ICD_EXPORT cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id p,
						cl_platform_info param,
						size_t size, void *value,
						size_t *ret)
{
	FAIL_IF(p && p != &icd_platform, CL_INVALID_PLATFORM,
		"%p is not hartpool's platform", (void *)p);
	char buf[1024];
	cl_name_version nv[ICD_EXTS_MAX];
	size_t n;
	switch (param) {
	case CL_PLATFORM_PROFILE:
		ICD_INFO_STR("FULL_PROFILE");
	case CL_PLATFORM_VERSION:
		ICD_INFO_STR("OpenCL 3.0 hartpool");
	case CL_PLATFORM_NAME:
	case CL_PLATFORM_VENDOR:
	case CL_PLATFORM_ICD_SUFFIX_KHR:
		ICD_INFO_STR("hartpool");
	case CL_PLATFORM_EXTENSIONS:
		icd_lock();
		icd_device_open();
		ext_list(NULL, NULL, buf, sizeof(buf));
		icd_unlock();
		ICD_INFO_STR(buf);
	case CL_PLATFORM_EXTENSIONS_WITH_VERSION:
		icd_lock();
		icd_device_open();
		n = ext_list(NULL, nv, NULL, 0);
		icd_unlock();
		return icd_info(nv, n * sizeof(nv[0]), size, value, ret);
	case CL_PLATFORM_HOST_TIMER_RESOLUTION:
		ICD_INFO_T(cl_ulong, 0);
	case CL_PLATFORM_NUMERIC_VERSION:
		ICD_INFO_T(cl_version, CL_MAKE_VERSION(3, 0, 0));
	default:
		FAIL(CL_INVALID_VALUE, "no platform info 0x%x",
		     (unsigned)param);
	}
}

ICD_EXPORT cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id p,
					     cl_device_type type, cl_uint n,
					     cl_device_id *out, cl_uint *num)
{
	FAIL_IF(p && p != &icd_platform, CL_INVALID_PLATFORM,
		"%p is not hartpool's platform", (void *)p);
	FAIL_IF((!n && out) || (!out && !num), CL_INVALID_VALUE,
		"num_entries %u, devices %p, num_devices %p", n, (void *)out,
		(void *)num);
	const cl_device_type known = CL_DEVICE_TYPE_DEFAULT |
				     CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
				     CL_DEVICE_TYPE_ACCELERATOR |
				     CL_DEVICE_TYPE_CUSTOM;
	FAIL_IF(type != CL_DEVICE_TYPE_ALL && (!type || (type & ~known)),
		CL_INVALID_DEVICE_TYPE, "device type 0x%llx",
		(unsigned long long)type);
	FAIL_IF(!(type & (CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_ACCELERATOR)),
		CL_DEVICE_NOT_FOUND,
		"device type 0x%llx: hartpool's is an accelerator",
		(unsigned long long)type);
	icd_lock();
	cl_int rc = icd_device_open();
	/* the default device is the first; an accelerator, every one */
	cl_uint all = type == CL_DEVICE_TYPE_DEFAULT ? 1 : icd_num_devices;
	for (cl_uint i = 0; !rc && out && i < all && i < n; i++)
		out[i] = &icd_devices[i];
	icd_unlock();
	FAIL_IF(rc, CL_DEVICE_NOT_FOUND, "no device opened (%d)", rc);
	if (num)
		*num = all;
	return CL_SUCCESS;
}

ICD_EXPORT cl_int CL_API_CALL clRetainDevice(cl_device_id d)
{
	return icd_valid_device(d) ? CL_SUCCESS : CL_INVALID_DEVICE;
}

ICD_EXPORT cl_int CL_API_CALL clReleaseDevice(cl_device_id d)
{
	return icd_valid_device(d) ? CL_SUCCESS : CL_INVALID_DEVICE;
}

ICD_EXPORT cl_int CL_API_CALL
clCreateSubDevices(cl_device_id d, const cl_device_partition_property *props,
		   cl_uint n, cl_device_id *out, cl_uint *num)
{
	(void)props, (void)n, (void)out, (void)num;
	if (!icd_valid_device(d))
		return CL_INVALID_DEVICE;
	return CL_INVALID_VALUE; /* not partitionable */
}

/* cl_khr_device_uuid: 16 bytes of two FNV-1a hashes of @p what (the
 * device's position, configuration and board: the same device of the same
 * configuration keeps its UUID across runs; the driver's, its name and
 * version). */
static void uuid_of(const char *what, cl_uchar out[CL_UUID_SIZE_KHR])
{
	uint64_t h[2] = {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull};
	for (int k = 0; k < 2; k++)
		for (const char *c = what; *c; c++)
			h[k] = (h[k] ^ (uint8_t)*c) * 0x100000001b3ull;
	memcpy(out, h, CL_UUID_SIZE_KHR);
}

/* check-sizes: a table of cases (one per clGetDeviceInfo query) */
static cl_int device_info(cl_device_id d, cl_device_info param, size_t size,
			  void *value, size_t *ret)
{
	const hp_device_info *i = &d->info;
	/* rv32 boards (rv32imac) compute floats in software */
	const cl_device_fp_config fp =
		CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO |
		CL_FP_ROUND_TO_INF | CL_FP_INF_NAN | CL_FP_DENORM | CL_FP_FMA |
		(is64(d) ? 0 : CL_FP_SOFT_FLOAT);
	unsigned min_sg = i->sub_group_sizes
				  ? 1u << __builtin_ctz(i->sub_group_sizes)
				  : 1u;
	char buf[2048];
	cl_name_version nv[64];
	size_t n;
	switch (param) {
	case CL_DEVICE_TYPE:
		/* one type (CL_DEVICE_TYPE_DEFAULT is a query, not a type:
		 * clGetDeviceIDs gives this device for it) */
		ICD_INFO_T(cl_device_type, CL_DEVICE_TYPE_ACCELERATOR);
	case CL_DEVICE_VENDOR_ID:
		ICD_INFO_T(cl_uint, 0);
	case CL_DEVICE_MAX_COMPUTE_UNITS:
		ICD_INFO_T(cl_uint, i->harts);
	case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS:
		ICD_INFO_T(cl_uint, i->max_work_dim);
	case CL_DEVICE_MAX_WORK_GROUP_SIZE:
		ICD_INFO_T(size_t, i->max_work_group_size);
	case CL_DEVICE_MAX_WORK_ITEM_SIZES: {
		size_t s[3] = {i->max_work_item_sizes[0],
			       i->max_work_item_sizes[1],
			       i->max_work_item_sizes[2]};
		return icd_info(s, i->max_work_dim * sizeof(size_t), size,
				value, ret);
	}
	case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
	case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
	case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
	case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
	case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
	case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
	case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
	case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
	case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
	case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT:
		ICD_INFO_T(cl_uint, 1);
	case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
	case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE:
		ICD_INFO_T(cl_uint, is64(d) ? 1 : 0);
	case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
	case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF:
		ICD_INFO_T(cl_uint, 0);
	case CL_DEVICE_MAX_CLOCK_FREQUENCY: /* not known to the device */
		ICD_INFO_T(cl_uint, 0);
	case CL_DEVICE_ADDRESS_BITS:
		ICD_INFO_T(cl_uint, i->address_bits);
	case CL_DEVICE_MAX_MEM_ALLOC_SIZE:
	case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE:
		ICD_INFO_T(cl_ulong, icd_max_alloc(d));
	case CL_DEVICE_GLOBAL_MEM_SIZE:
		ICD_INFO_T(cl_ulong, i->global_mem_size);
	case CL_DEVICE_IMAGE_SUPPORT:
	case CL_DEVICE_ERROR_CORRECTION_SUPPORT:
	case CL_DEVICE_HOST_UNIFIED_MEMORY:
	case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS:
	case CL_DEVICE_PIPE_SUPPORT:
		ICD_INFO_T(cl_bool, CL_FALSE);
	case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT:
	case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT: /* generic.cl */
	case CL_DEVICE_ENDIAN_LITTLE:
	case CL_DEVICE_AVAILABLE:
	case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC:
	case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT:
		ICD_INFO_T(cl_bool, CL_TRUE);
	case CL_DEVICE_COMPILER_AVAILABLE:
	case CL_DEVICE_LINKER_AVAILABLE:
		ICD_INFO_T(cl_bool, hp_cl_compiler() ? CL_TRUE : CL_FALSE);
	case CL_DEVICE_MAX_READ_IMAGE_ARGS:
	case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
	case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS:
	case CL_DEVICE_MAX_SAMPLERS:
	case CL_DEVICE_IMAGE_PITCH_ALIGNMENT:
	case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT:
	case CL_DEVICE_PARTITION_MAX_SUB_DEVICES:
	case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
	case CL_DEVICE_MAX_ON_DEVICE_EVENTS:
	case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
	case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
	case CL_DEVICE_MAX_PIPE_ARGS:
	case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
	case CL_DEVICE_PIPE_MAX_PACKET_SIZE:
	case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
	case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
	case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT:
		ICD_INFO_T(cl_uint, 0);
	case CL_DEVICE_IMAGE2D_MAX_WIDTH:
	case CL_DEVICE_IMAGE2D_MAX_HEIGHT:
	case CL_DEVICE_IMAGE3D_MAX_WIDTH:
	case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
	case CL_DEVICE_IMAGE3D_MAX_DEPTH:
	case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE:
	case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE:
		ICD_INFO_T(size_t, 0);
	/* program-scope variables (host/clc/globals.c) */
	case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE:
	case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE:
		ICD_INFO_T(size_t, HP_CL_GLOBALS_MAX);
	case CL_DEVICE_MAX_PARAMETER_SIZE:
		/* what OpenCL counts (mbox.h); the block holds more */
		ICD_INFO_T(size_t, i->max_args_size < HP_MBOX_PARAMETER_SIZE
					   ? i->max_args_size
					   : HP_MBOX_PARAMETER_SIZE);
	case CL_DEVICE_MEM_BASE_ADDR_ALIGN:
		ICD_INFO_T(cl_uint, HP_MBOX_BUFFER_ALIGN * 8);
	case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE:
		ICD_INFO_T(cl_uint, 128);
	case CL_DEVICE_SINGLE_FP_CONFIG:
		ICD_INFO_T(cl_device_fp_config, fp);
	case CL_DEVICE_DOUBLE_FP_CONFIG:
		ICD_INFO_T(cl_device_fp_config, is64(d) ? fp : 0);
	case CL_DEVICE_HALF_FP_CONFIG:
		ICD_INFO_T(cl_device_fp_config, 0);
	case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE:
		ICD_INFO_T(cl_device_mem_cache_type, CL_NONE);
	case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE:
		ICD_INFO_T(cl_uint, 0);
	case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE:
		ICD_INFO_T(cl_ulong, 0);
	case CL_DEVICE_MAX_CONSTANT_ARGS:
		ICD_INFO_T(cl_uint, HP_CL_BUFFER_ARGS_MAX);
	case CL_DEVICE_LOCAL_MEM_TYPE:
		ICD_INFO_T(cl_device_local_mem_type, CL_GLOBAL);
	case CL_DEVICE_LOCAL_MEM_SIZE:
		ICD_INFO_T(cl_ulong, i->local_mem_size);
	case CL_DEVICE_PROFILING_TIMER_RESOLUTION: {
		size_t r =
			i->timer_hz ? (size_t)(1000000000ull / i->timer_hz) : 1;
		ICD_INFO_T(size_t, r ? r : 1);
	}
	case CL_DEVICE_EXECUTION_CAPABILITIES:
		ICD_INFO_T(cl_device_exec_capabilities, CL_EXEC_KERNEL);
	case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES:
		ICD_INFO_T(cl_command_queue_properties,
			   CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE |
				   CL_QUEUE_PROFILING_ENABLE);
	case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES:
		ICD_INFO_T(cl_command_queue_properties, 0);
	case CL_DEVICE_NAME:
		snprintf(buf, sizeof(buf), "hartpool %s", i->board);
		ICD_INFO_STR(buf);
	case CL_DEVICE_VENDOR:
		ICD_INFO_STR("hartpool");
	case CL_DRIVER_VERSION:
		snprintf(buf, sizeof(buf), "1.0 (%s)", i->firmware);
		ICD_INFO_STR(buf);
	case CL_DEVICE_PROFILE:
		ICD_INFO_STR("FULL_PROFILE");
	case CL_DEVICE_VERSION:
		ICD_INFO_STR("OpenCL 3.0 hartpool");
	case CL_DEVICE_OPENCL_C_VERSION:
		ICD_INFO_STR("OpenCL C 1.2 hartpool");
	case CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR: /* extended_versioning */
		ICD_INFO_T(cl_version, CL_MAKE_VERSION(1, 2, 0));
	case CL_DEVICE_EXTENSIONS:
		ext_list(d, NULL, buf, sizeof(buf));
		ICD_INFO_STR(buf);
	case CL_DEVICE_EXTENSIONS_WITH_VERSION:
		n = ext_list(d, nv, NULL, 0);
		return icd_info(nv, n * sizeof(nv[0]), size, value, ret);
	case CL_DEVICE_PLATFORM:
		ICD_INFO_T(cl_platform_id, &icd_platform);
	case CL_DEVICE_BUILT_IN_KERNELS:
		ICD_INFO_STR(d->builtins);
	case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION: {
		n = 0;
		const char *s = d->builtins;
		while (*s && n < 64) {
			size_t l = strcspn(s, ";");
			memset(&nv[n], 0, sizeof(nv[n]));
			nv[n].version = CL_MAKE_VERSION(1, 0, 0);
			memcpy(nv[n].name, s,
			       l < CL_NAME_VERSION_MAX_NAME_SIZE
				       ? l
				       : CL_NAME_VERSION_MAX_NAME_SIZE - 1);
			n++;
			s += l + (s[l] == ';');
		}
		return icd_info(nv, n * sizeof(nv[0]), size, value, ret);
	}
	case CL_DEVICE_PARENT_DEVICE:
		ICD_INFO_T(cl_device_id, NULL);
	case CL_DEVICE_PARTITION_PROPERTIES:
		ICD_INFO_T(cl_device_partition_property, 0);
	case CL_DEVICE_PARTITION_AFFINITY_DOMAIN:
		ICD_INFO_T(cl_device_affinity_domain, 0);
	case CL_DEVICE_PARTITION_TYPE:
		return icd_info(NULL, 0, size, value, ret);
	case CL_DEVICE_REFERENCE_COUNT:
		ICD_INFO_T(cl_uint, 1);
	case CL_DEVICE_PRINTF_BUFFER_SIZE:
		ICD_INFO_T(size_t, ICD_PRINTF_SIZE);
	case CL_DEVICE_SVM_CAPABILITIES:
		ICD_INFO_T(cl_device_svm_capabilities, icd_svm_caps(d));
	case CL_DEVICE_IL_VERSION: /* SPIR-V 1.0 to HP_SPIRV_MINOR_MAX */
		buf[0] = 0;
		for (unsigned m = 0; m <= HP_SPIRV_MINOR_MAX; m++)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf),
				 "%sSPIR-V_1.%u", m ? " " : "", m);
		ICD_INFO_STR(buf);
	case CL_DEVICE_ILS_WITH_VERSION:
		for (n = 0; n <= HP_SPIRV_MINOR_MAX; n++) {
			memset(&nv[n], 0, sizeof(nv[n]));
			nv[n].version = CL_MAKE_VERSION(1, n, 0);
			snprintf(nv[n].name, sizeof(nv[n].name), "SPIR-V");
		}
		return icd_info(nv, n * sizeof(nv[0]), size, value, ret);
	case CL_DEVICE_MAX_NUM_SUB_GROUPS:
		ICD_INFO_T(cl_uint, i->sub_group_sizes
					    ? i->max_work_group_size / min_sg
					    : 0);
	case CL_DEVICE_NUMERIC_VERSION:
		ICD_INFO_T(cl_version, CL_MAKE_VERSION(3, 0, 0));
	/* every atomic and fence is sequentially consistent (AMOs with
	 * aq/rl, full fences: kernels/opencl/atomic.cl) on one coherent
	 * memory all harts share, and that the host shares where it maps
	 * it (fine-grain SVM; all devices' scope) */
	case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
	case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES:
		ICD_INFO_T(cl_device_atomic_capabilities,
			   CL_DEVICE_ATOMIC_ORDER_RELAXED |
				   CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
				   CL_DEVICE_ATOMIC_ORDER_SEQ_CST |
				   CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM |
				   CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP |
				   CL_DEVICE_ATOMIC_SCOPE_DEVICE |
				   CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES);
	case CL_DEVICE_OPENCL_C_ALL_VERSIONS: {
		static const char *const v[] = {"OpenCL C", "OpenCL C",
						"OpenCL C", "OpenCL C"};
		static const cl_version nums[] = {
			CL_MAKE_VERSION(1, 0, 0), CL_MAKE_VERSION(1, 1, 0),
			CL_MAKE_VERSION(1, 2, 0), CL_MAKE_VERSION(3, 0, 0)};
		for (n = 0; n < 4; n++) {
			memset(&nv[n], 0, sizeof(nv[n]));
			nv[n].version = nums[n];
			snprintf(nv[n].name, sizeof(nv[n].name), "%s", v[n]);
		}
		return icd_info(nv, n * sizeof(nv[0]), size, value, ret);
	}
	case CL_DEVICE_OPENCL_C_FEATURES: {
		const char *f[12];
		n = 0;
		f[n++] = "__opencl_c_int64";
		f[n++] = "__opencl_c_generic_address_space";
		f[n++] = "__opencl_c_program_scope_global_variables";
		f[n++] = "__opencl_c_atomic_order_acq_rel";
		f[n++] = "__opencl_c_atomic_order_seq_cst";
		f[n++] = "__opencl_c_atomic_scope_device";
		f[n++] = "__opencl_c_atomic_scope_all_devices";
		/* OpenCL C 3.0 kernels (hp_cl_build, kernels/opencl/wg.c) */
		f[n++] = "__opencl_c_work_group_collective_functions";
		if (i->sub_group_sizes)
			f[n++] = "__opencl_c_subgroups";
		if (is64(d))
			f[n++] = "__opencl_c_fp64";
		for (size_t k = 0; k < n; k++) {
			memset(&nv[k], 0, sizeof(nv[k]));
			nv[k].version = CL_MAKE_VERSION(3, 0, 0);
			snprintf(nv[k].name, sizeof(nv[k].name), "%s", f[k]);
		}
		return icd_info(nv, n * sizeof(nv[0]), size, value, ret);
	}
	case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
		ICD_INFO_T(size_t, i->default_sub_group_size
					   ? i->default_sub_group_size
					   : 1);
	case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES:
		ICD_INFO_T(cl_device_device_enqueue_capabilities, 0);
	case CL_DEVICE_UUID_KHR: {
		cl_uchar u[CL_UUID_SIZE_KHR];
		snprintf(buf, sizeof(buf), "device %u %s %s", d->index, d->spec,
			 d->board);
		uuid_of(buf, u);
		return icd_info(u, sizeof(u), size, value, ret);
	}
	case CL_DRIVER_UUID_KHR: {
		cl_uchar u[CL_UUID_SIZE_KHR];
		uuid_of("hartpool ICD, OpenCL 3.0", u);
		return icd_info(u, sizeof(u), size, value, ret);
	}
	case CL_DEVICE_LUID_VALID_KHR: /* no Windows LUID */
		ICD_INFO_T(cl_bool, CL_FALSE);
	case CL_DEVICE_LUID_KHR: {
		cl_uchar l[CL_LUID_SIZE_KHR] = {0};
		return icd_info(l, sizeof(l), size, value, ret);
	}
	case CL_DEVICE_NODE_MASK_KHR:
		ICD_INFO_T(cl_uint, 0);
	case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED:
		ICD_INFO_STR("v0000-01-01-00"); /* not conformance tested */
	default:
		FAIL(CL_INVALID_VALUE, "no device info 0x%x", (unsigned)param);
	}
}

ICD_EXPORT cl_int CL_API_CALL clGetDeviceInfo(cl_device_id d,
					      cl_device_info param, size_t size,
					      void *value, size_t *ret)
{
	icd_lock();
	cl_int rc = icd_device_open();
	if (!rc && !icd_valid_device(d))
		rc = icd_fail(CL_INVALID_DEVICE, "CL_INVALID_DEVICE", __func__,
			      "%p is not a hartpool device", (void *)d);
	if (!rc)
		rc = device_info(d, param, size, value, ret);
	icd_unlock();
	return rc;
}

ICD_EXPORT cl_int CL_API_CALL clGetDeviceAndHostTimer(cl_device_id d,
						      cl_ulong *dev,
						      cl_ulong *host)
{
	(void)dev;
	(void)host;
	if (!icd_valid_device(d))
		return CL_INVALID_DEVICE;
	/* no shared timer (CL_PLATFORM_HOST_TIMER_RESOLUTION 0): that is the
	 * answer whatever the pointers are */
	return CL_INVALID_OPERATION;
}

ICD_EXPORT cl_int CL_API_CALL clGetHostTimer(cl_device_id d, cl_ulong *host)
{
	if (!icd_valid_device(d))
		return CL_INVALID_DEVICE;
	if (!host)
		return CL_INVALID_VALUE;
	return CL_INVALID_OPERATION;
}

ICD_EXPORT cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id p)
{
	return p == &icd_platform ? CL_SUCCESS : CL_INVALID_PLATFORM;
}

ICD_EXPORT cl_int CL_API_CALL clUnloadCompiler(void)
{
	return CL_SUCCESS;
}
