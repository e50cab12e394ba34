/*
 * icd.c - the exported ICD surface: the cl_icd_dispatch table (one designated
 * initialiser per slot the OpenCL 3.0 headers define, none missing), the
 * clIcdGetPlatformIDsKHR entry point and extension function lookup.
 * It must not hold any API behaviour: every entry lives in runtime/.
 */
#include <string.h>

#include "icd/icd.h"
#include "runtime/interop.h"
#include "runtime/rt.h"

/* Slots whose type is void * on this platform (Windows-only sharing APIs). */
#define ICD_OPAQUE(fn) ((void *)(uintptr_t)(fn))

const cl_icd_dispatch icd_dispatch = {
    .clGetPlatformIDs = clGetPlatformIDs,
    .clGetPlatformInfo = clGetPlatformInfo,
    .clGetDeviceIDs = clGetDeviceIDs,
    .clGetDeviceInfo = clGetDeviceInfo,
    .clCreateContext = clCreateContext,
    .clCreateContextFromType = clCreateContextFromType,
    .clRetainContext = clRetainContext,
    .clReleaseContext = clReleaseContext,
    .clGetContextInfo = clGetContextInfo,
    .clCreateCommandQueue = clCreateCommandQueue,
    .clRetainCommandQueue = clRetainCommandQueue,
    .clReleaseCommandQueue = clReleaseCommandQueue,
    .clGetCommandQueueInfo = clGetCommandQueueInfo,
    .clSetCommandQueueProperty = clSetCommandQueueProperty,
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
    .clCreateFromGLBuffer = clCreateFromGLBuffer,
    .clCreateFromGLTexture2D = clCreateFromGLTexture2D,
    .clCreateFromGLTexture3D = clCreateFromGLTexture3D,
    .clCreateFromGLRenderbuffer = clCreateFromGLRenderbuffer,
    .clGetGLObjectInfo = clGetGLObjectInfo,
    .clGetGLTextureInfo = clGetGLTextureInfo,
    .clEnqueueAcquireGLObjects = clEnqueueAcquireGLObjects,
    .clEnqueueReleaseGLObjects = clEnqueueReleaseGLObjects,
    .clGetGLContextInfoKHR = clGetGLContextInfoKHR,
    .clGetDeviceIDsFromD3D10KHR = ICD_OPAQUE(clGetDeviceIDsFromD3D10KHR),
    .clCreateFromD3D10BufferKHR = ICD_OPAQUE(clCreateFromD3D10BufferKHR),
    .clCreateFromD3D10Texture2DKHR = ICD_OPAQUE(clCreateFromD3D10Texture2DKHR),
    .clCreateFromD3D10Texture3DKHR = ICD_OPAQUE(clCreateFromD3D10Texture3DKHR),
    .clEnqueueAcquireD3D10ObjectsKHR = ICD_OPAQUE(clEnqueueAcquireD3D10ObjectsKHR),
    .clEnqueueReleaseD3D10ObjectsKHR = ICD_OPAQUE(clEnqueueReleaseD3D10ObjectsKHR),
    .clSetEventCallback = clSetEventCallback,
    .clCreateSubBuffer = clCreateSubBuffer,
    .clSetMemObjectDestructorCallback = clSetMemObjectDestructorCallback,
    .clCreateUserEvent = clCreateUserEvent,
    .clSetUserEventStatus = clSetUserEventStatus,
    .clEnqueueReadBufferRect = clEnqueueReadBufferRect,
    .clEnqueueWriteBufferRect = clEnqueueWriteBufferRect,
    .clEnqueueCopyBufferRect = clEnqueueCopyBufferRect,
    .clCreateSubDevicesEXT = clCreateSubDevicesEXT,
    .clRetainDeviceEXT = clRetainDeviceEXT,
    .clReleaseDeviceEXT = clReleaseDeviceEXT,
    .clCreateEventFromGLsyncKHR = clCreateEventFromGLsyncKHR,
    .clCreateSubDevices = clCreateSubDevices,
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
    .clGetExtensionFunctionAddressForPlatform = clGetExtensionFunctionAddressForPlatform,
    .clCreateFromGLTexture = clCreateFromGLTexture,
    .clGetDeviceIDsFromD3D11KHR = ICD_OPAQUE(clGetDeviceIDsFromD3D11KHR),
    .clCreateFromD3D11BufferKHR = ICD_OPAQUE(clCreateFromD3D11BufferKHR),
    .clCreateFromD3D11Texture2DKHR = ICD_OPAQUE(clCreateFromD3D11Texture2DKHR),
    .clCreateFromD3D11Texture3DKHR = ICD_OPAQUE(clCreateFromD3D11Texture3DKHR),
    .clCreateFromDX9MediaSurfaceKHR = ICD_OPAQUE(clCreateFromDX9MediaSurfaceKHR),
    .clEnqueueAcquireD3D11ObjectsKHR = ICD_OPAQUE(clEnqueueAcquireD3D11ObjectsKHR),
    .clEnqueueReleaseD3D11ObjectsKHR = ICD_OPAQUE(clEnqueueReleaseD3D11ObjectsKHR),
    .clGetDeviceIDsFromDX9MediaAdapterKHR = ICD_OPAQUE(clGetDeviceIDsFromDX9MediaAdapterKHR),
    .clEnqueueAcquireDX9MediaSurfacesKHR = ICD_OPAQUE(clEnqueueAcquireDX9MediaSurfacesKHR),
    .clEnqueueReleaseDX9MediaSurfacesKHR = ICD_OPAQUE(clEnqueueReleaseDX9MediaSurfacesKHR),
    .clCreateFromEGLImageKHR = clCreateFromEGLImageKHR,
    .clEnqueueAcquireEGLObjectsKHR = clEnqueueAcquireEGLObjectsKHR,
    .clEnqueueReleaseEGLObjectsKHR = clEnqueueReleaseEGLObjectsKHR,
    .clCreateEventFromEGLSyncKHR = clCreateEventFromEGLSyncKHR,
    .clCreateCommandQueueWithProperties = clCreateCommandQueueWithProperties,
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
    .clGetKernelSubGroupInfoKHR = clGetKernelSubGroupInfoKHR,
    .clCloneKernel = clCloneKernel,
    .clCreateProgramWithIL = clCreateProgramWithIL,
    .clEnqueueSVMMigrateMem = clEnqueueSVMMigrateMem,
    .clGetDeviceAndHostTimer = clGetDeviceAndHostTimer,
    .clGetHostTimer = clGetHostTimer,
    .clGetKernelSubGroupInfo = clGetKernelSubGroupInfo,
    .clSetDefaultDeviceCommandQueue = clSetDefaultDeviceCommandQueue,
    .clSetProgramReleaseCallback = clSetProgramReleaseCallback,
    .clSetProgramSpecializationConstant = clSetProgramSpecializationConstant,
    .clCreateBufferWithProperties = clCreateBufferWithProperties,
    .clCreateImageWithProperties = clCreateImageWithProperties,
    .clSetContextDestructorCallback = clSetContextDestructorCallback,
};

/* Every object the runtime makes carries this table: installed before any
 * code of the program runs (the library is loaded), so before the loader's
 * first call makes the platform. */
__attribute__((constructor)) static void icd_install(void) {
  rt_set_dispatch(&icd_dispatch);
}

/* Extension functions reachable by name through clGetExtensionFunctionAddress.
 * Only extensions the platform reports belong here. */
static const struct {
  const char *name;
  void *fn;
} icd_extensions[] = {
    {"clIcdGetPlatformIDsKHR", (void *)(uintptr_t)clIcdGetPlatformIDsKHR},
    {"clGetKernelSubGroupInfoKHR", (void *)(uintptr_t)clGetKernelSubGroupInfoKHR}, /* subgroups */
};

void *icd_extension_function(const char *name) {
  if (!name) return NULL;
  for (size_t i = 0; i < sizeof icd_extensions / sizeof icd_extensions[0]; i++)
    if (strcmp(icd_extensions[i].name, name) == 0) return icd_extensions[i].fn;
  return NULL;
}

CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries,
                                                       cl_platform_id *platforms,
                                                       cl_uint *num_platforms) {
  if ((num_entries == 0 && platforms) || (!platforms && !num_platforms)) return CL_INVALID_VALUE;
  cl_platform_id p = rt_platform();
  if (!p) return CL_PLATFORM_NOT_FOUND_KHR;
  if (platforms) platforms[0] = p;
  if (num_platforms) *num_platforms = 1;
  return CL_SUCCESS;
}

CL_API_ENTRY void *CL_API_CALL clGetExtensionFunctionAddress(const char *func_name) {
  return icd_extension_function(func_name);
}

CL_API_ENTRY void *CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                                                        const char *func_name) {
  if (!rt_valid(platform, RT_TAG_PLATFORM)) return NULL;
  return icd_extension_function(func_name);
}
