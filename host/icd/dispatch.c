// SPDX-License-Identifier: MIT
/* The dispatch table every object starts with: the loader calls through
 * it. Entry points of GL, D3D and EGL sharing stay NULL (none of those
 * extensions is reported). The top of the ICD: it names every entry point,
 * and hands the table to the core when the library is loaded. */
#include "icd.h"
#include <string.h>

struct _cl_icd_dispatch icd_dispatch = {
	.clGetPlatformIDs = clGetPlatformIDs,
	.clGetPlatformInfo = clGetPlatformInfo,
	.clGetDeviceIDs = clGetDeviceIDs,
	.clGetDeviceInfo = clGetDeviceInfo,
	.clCreateContext = clCreateContext,
	.clCreateContextFromType = clCreateContextFromType,
	.clRetainContext = clRetainContext,
	.clReleaseContext = clReleaseContext,
	.clGetContextInfo = clGetContextInfo,
	.clRetainCommandQueue = clRetainCommandQueue,
	.clReleaseCommandQueue = clReleaseCommandQueue,
	.clGetCommandQueueInfo = clGetCommandQueueInfo,
	.clCreateBuffer = clCreateBuffer,
	.clCreateImage2D = clCreateImage2D,
	.clCreateImage3D = clCreateImage3D,
	.clRetainMemObject = clRetainMemObject,
	.clReleaseMemObject = clReleaseMemObject,
	.clGetSupportedImageFormats = clGetSupportedImageFormats,
	.clGetMemObjectInfo = clGetMemObjectInfo,
	.clGetImageInfo = clGetImageInfo,
	.clCreateSampler = clCreateSampler,
	.clRetainSampler = clRetainSampler,
	.clReleaseSampler = clReleaseSampler,
	.clGetSamplerInfo = clGetSamplerInfo,
	.clCreateProgramWithSource = clCreateProgramWithSource,
	.clCreateProgramWithBinary = clCreateProgramWithBinary,
	.clRetainProgram = clRetainProgram,
	.clReleaseProgram = clReleaseProgram,
	.clBuildProgram = clBuildProgram,
	.clUnloadCompiler = clUnloadCompiler,
	.clGetProgramInfo = clGetProgramInfo,
	.clGetProgramBuildInfo = clGetProgramBuildInfo,
	.clCreateKernel = clCreateKernel,
	.clCreateKernelsInProgram = clCreateKernelsInProgram,
	.clRetainKernel = clRetainKernel,
	.clReleaseKernel = clReleaseKernel,
	.clSetKernelArg = clSetKernelArg,
	.clGetKernelInfo = clGetKernelInfo,
	.clGetKernelWorkGroupInfo = clGetKernelWorkGroupInfo,
	.clWaitForEvents = clWaitForEvents,
	.clGetEventInfo = clGetEventInfo,
	.clRetainEvent = clRetainEvent,
	.clReleaseEvent = clReleaseEvent,
	.clGetEventProfilingInfo = clGetEventProfilingInfo,
	.clFlush = clFlush,
	.clFinish = clFinish,
	.clEnqueueReadBuffer = clEnqueueReadBuffer,
	.clEnqueueWriteBuffer = clEnqueueWriteBuffer,
	.clEnqueueCopyBuffer = clEnqueueCopyBuffer,
	.clEnqueueReadImage = clEnqueueReadImage,
	.clEnqueueWriteImage = clEnqueueWriteImage,
	.clEnqueueCopyImage = clEnqueueCopyImage,
	.clEnqueueCopyImageToBuffer = clEnqueueCopyImageToBuffer,
	.clEnqueueCopyBufferToImage = clEnqueueCopyBufferToImage,
	.clEnqueueMapBuffer = clEnqueueMapBuffer,
	.clEnqueueMapImage = clEnqueueMapImage,
	.clEnqueueUnmapMemObject = clEnqueueUnmapMemObject,
	.clEnqueueNDRangeKernel = clEnqueueNDRangeKernel,
	.clEnqueueTask = clEnqueueTask,
	.clEnqueueNativeKernel = clEnqueueNativeKernel,
	.clEnqueueMarker = clEnqueueMarker,
	.clEnqueueWaitForEvents = clEnqueueWaitForEvents,
	.clEnqueueBarrier = clEnqueueBarrier,
	.clGetExtensionFunctionAddress = clGetExtensionFunctionAddress,
	.clCreateSubBuffer = clCreateSubBuffer,
	.clSetMemObjectDestructorCallback = clSetMemObjectDestructorCallback,
	.clCreateUserEvent = clCreateUserEvent,
	.clSetUserEventStatus = clSetUserEventStatus,
	.clEnqueueReadBufferRect = clEnqueueReadBufferRect,
	.clEnqueueWriteBufferRect = clEnqueueWriteBufferRect,
	.clEnqueueCopyBufferRect = clEnqueueCopyBufferRect,
	.clRetainDevice = clRetainDevice,
	.clReleaseDevice = clReleaseDevice,
	.clCreateImage = clCreateImage,
	.clCreateProgramWithBuiltInKernels = clCreateProgramWithBuiltInKernels,
	.clCompileProgram = clCompileProgram,
	.clLinkProgram = clLinkProgram,
	.clUnloadPlatformCompiler = clUnloadPlatformCompiler,
	.clGetKernelArgInfo = clGetKernelArgInfo,
	.clEnqueueFillBuffer = clEnqueueFillBuffer,
	.clEnqueueFillImage = clEnqueueFillImage,
	.clEnqueueMigrateMemObjects = clEnqueueMigrateMemObjects,
	.clEnqueueMarkerWithWaitList = clEnqueueMarkerWithWaitList,
	.clEnqueueBarrierWithWaitList = clEnqueueBarrierWithWaitList,
	.clGetExtensionFunctionAddressForPlatform =
		clGetExtensionFunctionAddressForPlatform,
	.clCreatePipe = clCreatePipe,
	.clGetPipeInfo = clGetPipeInfo,
	.clSVMAlloc = clSVMAlloc,
	.clSVMFree = clSVMFree,
	.clEnqueueSVMFree = clEnqueueSVMFree,
	.clEnqueueSVMMemcpy = clEnqueueSVMMemcpy,
	.clEnqueueSVMMemFill = clEnqueueSVMMemFill,
	.clEnqueueSVMMap = clEnqueueSVMMap,
	.clEnqueueSVMUnmap = clEnqueueSVMUnmap,
	.clCreateSamplerWithProperties = clCreateSamplerWithProperties,
	.clSetKernelArgSVMPointer = clSetKernelArgSVMPointer,
	.clSetKernelExecInfo = clSetKernelExecInfo,
	.clCloneKernel = clCloneKernel,
	.clCreateProgramWithIL = clCreateProgramWithIL,
	.clEnqueueSVMMigrateMem = clEnqueueSVMMigrateMem,
	.clGetDeviceAndHostTimer = clGetDeviceAndHostTimer,
	.clGetHostTimer = clGetHostTimer,
	.clGetKernelSubGroupInfo = clGetKernelSubGroupInfo,
	.clSetDefaultDeviceCommandQueue = clSetDefaultDeviceCommandQueue,
	.clSetProgramReleaseCallback = clSetProgramReleaseCallback,
	.clSetProgramSpecializationConstant =
		clSetProgramSpecializationConstant,
	.clCreateBufferWithProperties = clCreateBufferWithProperties,
	.clCreateImageWithProperties = clCreateImageWithProperties,
	.clSetContextDestructorCallback = clSetContextDestructorCallback,
	.clCreateCommandQueue = clCreateCommandQueue,
	.clSetCommandQueueProperty = clSetCommandQueueProperty,
	.clSetEventCallback = clSetEventCallback,
	.clCreateSubDevices = clCreateSubDevices,
	.clCreateCommandQueueWithProperties =
		clCreateCommandQueueWithProperties,
	.clGetKernelSubGroupInfoKHR = clGetKernelSubGroupInfo,
};

__attribute__((constructor)) static void dispatch_init(void)
{
	icd_core_init(&icd_dispatch);
}

ICD_EXPORT void *CL_API_CALL clGetExtensionFunctionAddress(const char *name)
{
	if (name && !strcmp(name, "clIcdGetPlatformIDsKHR"))
		return (void *)clIcdGetPlatformIDsKHR;
	if (name && !strcmp(name, "clGetKernelSubGroupInfoKHR"))
		return (void *)clGetKernelSubGroupInfo;
	if (name && !strcmp(name, "clCreateProgramWithILKHR"))
		return (void *)clCreateProgramWithILKHR;
	if (name && !strcmp(name, "clGetKernelSuggestedLocalWorkSizeKHR"))
		return (void *)clGetKernelSuggestedLocalWorkSizeKHR;
	return NULL;
}

ICD_EXPORT void *CL_API_CALL
clGetExtensionFunctionAddressForPlatform(cl_platform_id p, const char *name)
{
	if (p != &icd_platform)
		return NULL;
	return clGetExtensionFunctionAddress(name);
}
