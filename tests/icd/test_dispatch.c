/*
 * test_dispatch.c - walks every slot of the ICD dispatch table with bad and
 * NULL handles and checks that each call returns an error (generated from
 * the OpenCL 3.0 headers' prototypes; regenerate when the headers change).
 */
#include <stdint.h>
#include <stdio.h>

#include "icd/icd.h"
#include "runtime/rt.h"
#include "util/check_util.h"

/* An object whose dispatch pointer is not ours: every handle check must fail. */
static struct {
  void *dispatch;
  uint32_t tag;
  unsigned refcount;
  char pad[256];
} bogus = {(void *)&bogus, 0x12345678u, 1, {0}};
#define bad (&bogus)

START_TEST(every_slot_is_filled) {
  const void *const *slot = (const void *const *)&icd_dispatch;
  size_t n = sizeof icd_dispatch / sizeof(void *);
  for (size_t i = 0; i < n; i++)
    ck_assert_msg(slot[i] != NULL, "dispatch slot %zu is empty", i);
}
END_TEST

START_TEST(every_call_with_bad_handles_fails) {
  cl_int err;
  int checked = 0;
  ck_assert_msg(icd_dispatch.clGetPlatformIDs(0, NULL, NULL) != CL_SUCCESS,
                "clGetPlatformIDs (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetPlatformIDs(0, NULL, NULL) != CL_SUCCESS,
                "clGetPlatformIDs (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetPlatformInfo((cl_platform_id)bad, 0, 0, NULL, NULL) != CL_SUCCESS,
                "clGetPlatformInfo (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetPlatformInfo((cl_platform_id)NULL, 0, 0, NULL, NULL) !=
                    CL_SUCCESS,
                "clGetPlatformInfo (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetDeviceIDs((cl_platform_id)bad, 0, 0, NULL, NULL) != CL_SUCCESS,
                "clGetDeviceIDs (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetDeviceIDs((cl_platform_id)NULL, 0, 0, NULL, NULL) != CL_SUCCESS,
                "clGetDeviceIDs (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetDeviceInfo((cl_device_id)bad, 0, 0, NULL, NULL) != CL_SUCCESS,
                "clGetDeviceInfo (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetDeviceInfo((cl_device_id)NULL, 0, 0, NULL, NULL) != CL_SUCCESS,
                "clGetDeviceInfo (NULL) returned CL_SUCCESS");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateContext(NULL, 0, NULL, NULL, NULL, &err) == NULL && err < 0,
                "clCreateContext (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateContext(NULL, 0, NULL, NULL, NULL, &err) == NULL && err < 0,
                "clCreateContext (NULL) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateContextFromType(NULL, 0, NULL, NULL, &err) == NULL && err < 0,
                "clCreateContextFromType (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateContextFromType(NULL, 0, NULL, NULL, &err) == NULL && err < 0,
                "clCreateContextFromType (NULL) did not fail");
  checked++;
  ck_assert_msg(icd_dispatch.clRetainContext((cl_context)bad) != CL_SUCCESS,
                "clRetainContext (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clRetainContext((cl_context)NULL) != CL_SUCCESS,
                "clRetainContext (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clReleaseContext((cl_context)bad) != CL_SUCCESS,
                "clReleaseContext (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clReleaseContext((cl_context)NULL) != CL_SUCCESS,
                "clReleaseContext (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetContextInfo((cl_context)bad, 0, 0, NULL, NULL) != CL_SUCCESS,
                "clGetContextInfo (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetContextInfo((cl_context)NULL, 0, 0, NULL, NULL) != CL_SUCCESS,
                "clGetContextInfo (NULL) returned CL_SUCCESS");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateCommandQueue((cl_context)bad, (cl_device_id)bad, 0, &err) ==
                        NULL &&
                    err < 0,
                "clCreateCommandQueue (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateCommandQueue((cl_context)NULL, (cl_device_id)NULL, 0, &err) ==
                        NULL &&
                    err < 0,
                "clCreateCommandQueue (NULL) did not fail");
  checked++;
  ck_assert_msg(icd_dispatch.clRetainCommandQueue((cl_command_queue)bad) != CL_SUCCESS,
                "clRetainCommandQueue (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clRetainCommandQueue((cl_command_queue)NULL) != CL_SUCCESS,
                "clRetainCommandQueue (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clReleaseCommandQueue((cl_command_queue)bad) != CL_SUCCESS,
                "clReleaseCommandQueue (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clReleaseCommandQueue((cl_command_queue)NULL) != CL_SUCCESS,
                "clReleaseCommandQueue (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetCommandQueueInfo((cl_command_queue)bad, 0, 0, NULL, NULL) !=
                    CL_SUCCESS,
                "clGetCommandQueueInfo (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetCommandQueueInfo((cl_command_queue)NULL, 0, 0, NULL, NULL) !=
                    CL_SUCCESS,
                "clGetCommandQueueInfo (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clSetCommandQueueProperty((cl_command_queue)bad, 0, 0, NULL) !=
                    CL_SUCCESS,
                "clSetCommandQueueProperty (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clSetCommandQueueProperty((cl_command_queue)NULL, 0, 0, NULL) !=
                    CL_SUCCESS,
                "clSetCommandQueueProperty (NULL) returned CL_SUCCESS");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateBuffer((cl_context)bad, 0, 0, NULL, &err) == NULL && err < 0,
                "clCreateBuffer (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateBuffer((cl_context)NULL, 0, 0, NULL, &err) == NULL && err < 0,
                "clCreateBuffer (NULL) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateImage2D((cl_context)bad, 0, NULL, 0, 0, 0, NULL, &err) ==
                        NULL &&
                    err < 0,
                "clCreateImage2D (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateImage2D((cl_context)NULL, 0, NULL, 0, 0, 0, NULL, &err) ==
                        NULL &&
                    err < 0,
                "clCreateImage2D (NULL) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateImage3D((cl_context)bad, 0, NULL, 0, 0, 0, 0, 0, NULL, &err) ==
                        NULL &&
                    err < 0,
                "clCreateImage3D (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(
      icd_dispatch.clCreateImage3D((cl_context)NULL, 0, NULL, 0, 0, 0, 0, 0, NULL, &err) == NULL &&
          err < 0,
      "clCreateImage3D (NULL) did not fail");
  checked++;
  ck_assert_msg(icd_dispatch.clRetainMemObject((cl_mem)bad) != CL_SUCCESS,
                "clRetainMemObject (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clRetainMemObject((cl_mem)NULL) != CL_SUCCESS,
                "clRetainMemObject (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clReleaseMemObject((cl_mem)bad) != CL_SUCCESS,
                "clReleaseMemObject (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clReleaseMemObject((cl_mem)NULL) != CL_SUCCESS,
                "clReleaseMemObject (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetSupportedImageFormats((cl_context)bad, 0, 0, 0, NULL, NULL) !=
                    CL_SUCCESS,
                "clGetSupportedImageFormats (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetSupportedImageFormats((cl_context)NULL, 0, 0, 0, NULL, NULL) !=
                    CL_SUCCESS,
                "clGetSupportedImageFormats (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetMemObjectInfo((cl_mem)bad, 0, 0, NULL, NULL) != CL_SUCCESS,
                "clGetMemObjectInfo (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetMemObjectInfo((cl_mem)NULL, 0, 0, NULL, NULL) != CL_SUCCESS,
                "clGetMemObjectInfo (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetImageInfo((cl_mem)bad, 0, 0, NULL, NULL) != CL_SUCCESS,
                "clGetImageInfo (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetImageInfo((cl_mem)NULL, 0, 0, NULL, NULL) != CL_SUCCESS,
                "clGetImageInfo (NULL) returned CL_SUCCESS");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateSampler((cl_context)bad, 0, 0, 0, &err) == NULL && err < 0,
                "clCreateSampler (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateSampler((cl_context)NULL, 0, 0, 0, &err) == NULL && err < 0,
                "clCreateSampler (NULL) did not fail");
  checked++;
  ck_assert_msg(icd_dispatch.clRetainSampler((cl_sampler)bad) != CL_SUCCESS,
                "clRetainSampler (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clRetainSampler((cl_sampler)NULL) != CL_SUCCESS,
                "clRetainSampler (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clReleaseSampler((cl_sampler)bad) != CL_SUCCESS,
                "clReleaseSampler (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clReleaseSampler((cl_sampler)NULL) != CL_SUCCESS,
                "clReleaseSampler (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetSamplerInfo((cl_sampler)bad, 0, 0, NULL, NULL) != CL_SUCCESS,
                "clGetSamplerInfo (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetSamplerInfo((cl_sampler)NULL, 0, 0, NULL, NULL) != CL_SUCCESS,
                "clGetSamplerInfo (NULL) returned CL_SUCCESS");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateProgramWithSource((cl_context)bad, 0, NULL, NULL, &err) ==
                        NULL &&
                    err < 0,
                "clCreateProgramWithSource (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateProgramWithSource((cl_context)NULL, 0, NULL, NULL, &err) ==
                        NULL &&
                    err < 0,
                "clCreateProgramWithSource (NULL) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateProgramWithBinary((cl_context)bad, 0, NULL, NULL, NULL, NULL,
                                                       &err) == NULL &&
                    err < 0,
                "clCreateProgramWithBinary (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateProgramWithBinary((cl_context)NULL, 0, NULL, NULL, NULL, NULL,
                                                       &err) == NULL &&
                    err < 0,
                "clCreateProgramWithBinary (NULL) did not fail");
  checked++;
  ck_assert_msg(icd_dispatch.clRetainProgram((cl_program)bad) != CL_SUCCESS,
                "clRetainProgram (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clRetainProgram((cl_program)NULL) != CL_SUCCESS,
                "clRetainProgram (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clReleaseProgram((cl_program)bad) != CL_SUCCESS,
                "clReleaseProgram (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clReleaseProgram((cl_program)NULL) != CL_SUCCESS,
                "clReleaseProgram (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clBuildProgram((cl_program)bad, 0, NULL, NULL, NULL, NULL) !=
                    CL_SUCCESS,
                "clBuildProgram (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clBuildProgram((cl_program)NULL, 0, NULL, NULL, NULL, NULL) !=
                    CL_SUCCESS,
                "clBuildProgram (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetProgramInfo((cl_program)bad, 0, 0, NULL, NULL) != CL_SUCCESS,
                "clGetProgramInfo (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetProgramInfo((cl_program)NULL, 0, 0, NULL, NULL) != CL_SUCCESS,
                "clGetProgramInfo (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetProgramBuildInfo((cl_program)bad, (cl_device_id)bad, 0, 0, NULL,
                                                   NULL) != CL_SUCCESS,
                "clGetProgramBuildInfo (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetProgramBuildInfo((cl_program)NULL, (cl_device_id)NULL, 0, 0, NULL,
                                                   NULL) != CL_SUCCESS,
                "clGetProgramBuildInfo (NULL) returned CL_SUCCESS");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateKernel((cl_program)bad, NULL, &err) == NULL && err < 0,
                "clCreateKernel (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateKernel((cl_program)NULL, NULL, &err) == NULL && err < 0,
                "clCreateKernel (NULL) did not fail");
  checked++;
  ck_assert_msg(icd_dispatch.clCreateKernelsInProgram((cl_program)bad, 0, NULL, NULL) != CL_SUCCESS,
                "clCreateKernelsInProgram (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clCreateKernelsInProgram((cl_program)NULL, 0, NULL, NULL) !=
                    CL_SUCCESS,
                "clCreateKernelsInProgram (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clRetainKernel((cl_kernel)bad) != CL_SUCCESS,
                "clRetainKernel (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clRetainKernel((cl_kernel)NULL) != CL_SUCCESS,
                "clRetainKernel (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clReleaseKernel((cl_kernel)bad) != CL_SUCCESS,
                "clReleaseKernel (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clReleaseKernel((cl_kernel)NULL) != CL_SUCCESS,
                "clReleaseKernel (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clSetKernelArg((cl_kernel)bad, 0, 0, NULL) != CL_SUCCESS,
                "clSetKernelArg (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clSetKernelArg((cl_kernel)NULL, 0, 0, NULL) != CL_SUCCESS,
                "clSetKernelArg (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetKernelInfo((cl_kernel)bad, 0, 0, NULL, NULL) != CL_SUCCESS,
                "clGetKernelInfo (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetKernelInfo((cl_kernel)NULL, 0, 0, NULL, NULL) != CL_SUCCESS,
                "clGetKernelInfo (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetKernelWorkGroupInfo((cl_kernel)bad, (cl_device_id)bad, 0, 0, NULL,
                                                      NULL) != CL_SUCCESS,
                "clGetKernelWorkGroupInfo (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetKernelWorkGroupInfo((cl_kernel)NULL, (cl_device_id)NULL, 0, 0,
                                                      NULL, NULL) != CL_SUCCESS,
                "clGetKernelWorkGroupInfo (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clWaitForEvents(0, NULL) != CL_SUCCESS,
                "clWaitForEvents (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clWaitForEvents(0, NULL) != CL_SUCCESS,
                "clWaitForEvents (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetEventInfo((cl_event)bad, 0, 0, NULL, NULL) != CL_SUCCESS,
                "clGetEventInfo (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetEventInfo((cl_event)NULL, 0, 0, NULL, NULL) != CL_SUCCESS,
                "clGetEventInfo (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clRetainEvent((cl_event)bad) != CL_SUCCESS,
                "clRetainEvent (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clRetainEvent((cl_event)NULL) != CL_SUCCESS,
                "clRetainEvent (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clReleaseEvent((cl_event)bad) != CL_SUCCESS,
                "clReleaseEvent (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clReleaseEvent((cl_event)NULL) != CL_SUCCESS,
                "clReleaseEvent (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetEventProfilingInfo((cl_event)bad, 0, 0, NULL, NULL) != CL_SUCCESS,
                "clGetEventProfilingInfo (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetEventProfilingInfo((cl_event)NULL, 0, 0, NULL, NULL) !=
                    CL_SUCCESS,
                "clGetEventProfilingInfo (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clFlush((cl_command_queue)bad) != CL_SUCCESS,
                "clFlush (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clFlush((cl_command_queue)NULL) != CL_SUCCESS,
                "clFlush (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clFinish((cl_command_queue)bad) != CL_SUCCESS,
                "clFinish (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clFinish((cl_command_queue)NULL) != CL_SUCCESS,
                "clFinish (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueReadBuffer((cl_command_queue)bad, (cl_mem)bad, 0, 0, 0, NULL,
                                                 0, NULL, NULL) != CL_SUCCESS,
                "clEnqueueReadBuffer (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueReadBuffer((cl_command_queue)NULL, (cl_mem)NULL, 0, 0, 0,
                                                 NULL, 0, NULL, NULL) != CL_SUCCESS,
                "clEnqueueReadBuffer (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueWriteBuffer((cl_command_queue)bad, (cl_mem)bad, 0, 0, 0, NULL,
                                                  0, NULL, NULL) != CL_SUCCESS,
                "clEnqueueWriteBuffer (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueWriteBuffer((cl_command_queue)NULL, (cl_mem)NULL, 0, 0, 0,
                                                  NULL, 0, NULL, NULL) != CL_SUCCESS,
                "clEnqueueWriteBuffer (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueCopyBuffer((cl_command_queue)bad, (cl_mem)bad, (cl_mem)bad, 0,
                                                 0, 0, 0, NULL, NULL) != CL_SUCCESS,
                "clEnqueueCopyBuffer (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueCopyBuffer((cl_command_queue)NULL, (cl_mem)NULL, (cl_mem)NULL,
                                                 0, 0, 0, 0, NULL, NULL) != CL_SUCCESS,
                "clEnqueueCopyBuffer (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueReadImage((cl_command_queue)bad, (cl_mem)bad, 0, NULL, NULL,
                                                0, 0, NULL, 0, NULL, NULL) != CL_SUCCESS,
                "clEnqueueReadImage (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueReadImage((cl_command_queue)NULL, (cl_mem)NULL, 0, NULL, NULL,
                                                0, 0, NULL, 0, NULL, NULL) != CL_SUCCESS,
                "clEnqueueReadImage (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueWriteImage((cl_command_queue)bad, (cl_mem)bad, 0, NULL, NULL,
                                                 0, 0, NULL, 0, NULL, NULL) != CL_SUCCESS,
                "clEnqueueWriteImage (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueWriteImage((cl_command_queue)NULL, (cl_mem)NULL, 0, NULL,
                                                 NULL, 0, 0, NULL, 0, NULL, NULL) != CL_SUCCESS,
                "clEnqueueWriteImage (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueCopyImage((cl_command_queue)bad, (cl_mem)bad, (cl_mem)bad,
                                                NULL, NULL, NULL, 0, NULL, NULL) != CL_SUCCESS,
                "clEnqueueCopyImage (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueCopyImage((cl_command_queue)NULL, (cl_mem)NULL, (cl_mem)NULL,
                                                NULL, NULL, NULL, 0, NULL, NULL) != CL_SUCCESS,
                "clEnqueueCopyImage (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueCopyImageToBuffer((cl_command_queue)bad, (cl_mem)bad,
                                                        (cl_mem)bad, NULL, NULL, 0, 0, NULL,
                                                        NULL) != CL_SUCCESS,
                "clEnqueueCopyImageToBuffer (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueCopyImageToBuffer((cl_command_queue)NULL, (cl_mem)NULL,
                                                        (cl_mem)NULL, NULL, NULL, 0, 0, NULL,
                                                        NULL) != CL_SUCCESS,
                "clEnqueueCopyImageToBuffer (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueCopyBufferToImage((cl_command_queue)bad, (cl_mem)bad,
                                                        (cl_mem)bad, 0, NULL, NULL, 0, NULL,
                                                        NULL) != CL_SUCCESS,
                "clEnqueueCopyBufferToImage (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueCopyBufferToImage((cl_command_queue)NULL, (cl_mem)NULL,
                                                        (cl_mem)NULL, 0, NULL, NULL, 0, NULL,
                                                        NULL) != CL_SUCCESS,
                "clEnqueueCopyBufferToImage (NULL) returned CL_SUCCESS");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clEnqueueMapBuffer((cl_command_queue)bad, (cl_mem)bad, 0, 0, 0, 0, 0,
                                                NULL, NULL, &err) == NULL &&
                    err < 0,
                "clEnqueueMapBuffer (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clEnqueueMapBuffer((cl_command_queue)NULL, (cl_mem)NULL, 0, 0, 0, 0, 0,
                                                NULL, NULL, &err) == NULL &&
                    err < 0,
                "clEnqueueMapBuffer (NULL) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clEnqueueMapImage((cl_command_queue)bad, (cl_mem)bad, 0, 0, NULL, NULL,
                                               NULL, NULL, 0, NULL, NULL, &err) == NULL &&
                    err < 0,
                "clEnqueueMapImage (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clEnqueueMapImage((cl_command_queue)NULL, (cl_mem)NULL, 0, 0, NULL,
                                               NULL, NULL, NULL, 0, NULL, NULL, &err) == NULL &&
                    err < 0,
                "clEnqueueMapImage (NULL) did not fail");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueUnmapMemObject((cl_command_queue)bad, (cl_mem)bad, NULL, 0,
                                                     NULL, NULL) != CL_SUCCESS,
                "clEnqueueUnmapMemObject (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueUnmapMemObject((cl_command_queue)NULL, (cl_mem)NULL, NULL, 0,
                                                     NULL, NULL) != CL_SUCCESS,
                "clEnqueueUnmapMemObject (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueNDRangeKernel((cl_command_queue)bad, (cl_kernel)bad, 0, NULL,
                                                    NULL, NULL, 0, NULL, NULL) != CL_SUCCESS,
                "clEnqueueNDRangeKernel (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueNDRangeKernel((cl_command_queue)NULL, (cl_kernel)NULL, 0,
                                                    NULL, NULL, NULL, 0, NULL, NULL) != CL_SUCCESS,
                "clEnqueueNDRangeKernel (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueTask((cl_command_queue)bad, (cl_kernel)bad, 0, NULL, NULL) !=
                    CL_SUCCESS,
                "clEnqueueTask (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueTask((cl_command_queue)NULL, (cl_kernel)NULL, 0, NULL,
                                           NULL) != CL_SUCCESS,
                "clEnqueueTask (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueNativeKernel((cl_command_queue)bad, NULL, NULL, 0, 0, NULL,
                                                   NULL, 0, NULL, NULL) != CL_SUCCESS,
                "clEnqueueNativeKernel (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueNativeKernel((cl_command_queue)NULL, NULL, NULL, 0, 0, NULL,
                                                   NULL, 0, NULL, NULL) != CL_SUCCESS,
                "clEnqueueNativeKernel (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueMarker((cl_command_queue)bad, NULL) != CL_SUCCESS,
                "clEnqueueMarker (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueMarker((cl_command_queue)NULL, NULL) != CL_SUCCESS,
                "clEnqueueMarker (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueWaitForEvents((cl_command_queue)bad, 0, NULL) != CL_SUCCESS,
                "clEnqueueWaitForEvents (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueWaitForEvents((cl_command_queue)NULL, 0, NULL) != CL_SUCCESS,
                "clEnqueueWaitForEvents (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueBarrier((cl_command_queue)bad) != CL_SUCCESS,
                "clEnqueueBarrier (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueBarrier((cl_command_queue)NULL) != CL_SUCCESS,
                "clEnqueueBarrier (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetExtensionFunctionAddress(NULL) == NULL,
                "clGetExtensionFunctionAddress (bad) returned a value");
  checked++;
  ck_assert_msg(icd_dispatch.clGetExtensionFunctionAddress(NULL) == NULL,
                "clGetExtensionFunctionAddress (NULL) returned a value");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateFromGLBuffer((cl_context)bad, 0, 0, &err) == NULL && err < 0,
                "clCreateFromGLBuffer (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateFromGLBuffer((cl_context)NULL, 0, 0, &err) == NULL && err < 0,
                "clCreateFromGLBuffer (NULL) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateFromGLTexture2D((cl_context)bad, 0, 0, 0, 0, &err) == NULL &&
                    err < 0,
                "clCreateFromGLTexture2D (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateFromGLTexture2D((cl_context)NULL, 0, 0, 0, 0, &err) == NULL &&
                    err < 0,
                "clCreateFromGLTexture2D (NULL) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateFromGLTexture3D((cl_context)bad, 0, 0, 0, 0, &err) == NULL &&
                    err < 0,
                "clCreateFromGLTexture3D (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateFromGLTexture3D((cl_context)NULL, 0, 0, 0, 0, &err) == NULL &&
                    err < 0,
                "clCreateFromGLTexture3D (NULL) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateFromGLRenderbuffer((cl_context)bad, 0, 0, &err) == NULL &&
                    err < 0,
                "clCreateFromGLRenderbuffer (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateFromGLRenderbuffer((cl_context)NULL, 0, 0, &err) == NULL &&
                    err < 0,
                "clCreateFromGLRenderbuffer (NULL) did not fail");
  checked++;
  ck_assert_msg(icd_dispatch.clGetGLObjectInfo((cl_mem)bad, NULL, NULL) != CL_SUCCESS,
                "clGetGLObjectInfo (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetGLObjectInfo((cl_mem)NULL, NULL, NULL) != CL_SUCCESS,
                "clGetGLObjectInfo (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetGLTextureInfo((cl_mem)bad, 0, 0, NULL, NULL) != CL_SUCCESS,
                "clGetGLTextureInfo (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetGLTextureInfo((cl_mem)NULL, 0, 0, NULL, NULL) != CL_SUCCESS,
                "clGetGLTextureInfo (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueAcquireGLObjects((cl_command_queue)bad, 0, NULL, 0, NULL,
                                                       NULL) != CL_SUCCESS,
                "clEnqueueAcquireGLObjects (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueAcquireGLObjects((cl_command_queue)NULL, 0, NULL, 0, NULL,
                                                       NULL) != CL_SUCCESS,
                "clEnqueueAcquireGLObjects (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueReleaseGLObjects((cl_command_queue)bad, 0, NULL, 0, NULL,
                                                       NULL) != CL_SUCCESS,
                "clEnqueueReleaseGLObjects (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueReleaseGLObjects((cl_command_queue)NULL, 0, NULL, 0, NULL,
                                                       NULL) != CL_SUCCESS,
                "clEnqueueReleaseGLObjects (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetGLContextInfoKHR(NULL, 0, 0, NULL, NULL) != CL_SUCCESS,
                "clGetGLContextInfoKHR (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetGLContextInfoKHR(NULL, 0, 0, NULL, NULL) != CL_SUCCESS,
                "clGetGLContextInfoKHR (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(((cl_int(*)(cl_platform_id, cl_uint, void *, cl_uint, cl_uint, cl_device_id *,
                            cl_uint *))icd_dispatch.clGetDeviceIDsFromD3D10KHR)(
                    (cl_platform_id)bad, 0, NULL, 0, 0, NULL, NULL) != CL_SUCCESS,
                "clGetDeviceIDsFromD3D10KHR (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(((cl_int(*)(cl_platform_id, cl_uint, void *, cl_uint, cl_uint, cl_device_id *,
                            cl_uint *))icd_dispatch.clGetDeviceIDsFromD3D10KHR)(
                    (cl_platform_id)NULL, 0, NULL, 0, 0, NULL, NULL) != CL_SUCCESS,
                "clGetDeviceIDsFromD3D10KHR (NULL) returned CL_SUCCESS");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(((cl_mem(*)(cl_context, cl_mem_flags, void *,
                            cl_int *))icd_dispatch.clCreateFromD3D10BufferKHR)(
                    (cl_context)bad, 0, NULL, &err) == NULL &&
                    err < 0,
                "clCreateFromD3D10BufferKHR (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(((cl_mem(*)(cl_context, cl_mem_flags, void *,
                            cl_int *))icd_dispatch.clCreateFromD3D10BufferKHR)(
                    (cl_context)NULL, 0, NULL, &err) == NULL &&
                    err < 0,
                "clCreateFromD3D10BufferKHR (NULL) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(((cl_mem(*)(cl_context, cl_mem_flags, void *, cl_uint,
                            cl_int *))icd_dispatch.clCreateFromD3D10Texture2DKHR)(
                    (cl_context)bad, 0, NULL, 0, &err) == NULL &&
                    err < 0,
                "clCreateFromD3D10Texture2DKHR (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(((cl_mem(*)(cl_context, cl_mem_flags, void *, cl_uint,
                            cl_int *))icd_dispatch.clCreateFromD3D10Texture2DKHR)(
                    (cl_context)NULL, 0, NULL, 0, &err) == NULL &&
                    err < 0,
                "clCreateFromD3D10Texture2DKHR (NULL) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(((cl_mem(*)(cl_context, cl_mem_flags, void *, cl_uint,
                            cl_int *))icd_dispatch.clCreateFromD3D10Texture3DKHR)(
                    (cl_context)bad, 0, NULL, 0, &err) == NULL &&
                    err < 0,
                "clCreateFromD3D10Texture3DKHR (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(((cl_mem(*)(cl_context, cl_mem_flags, void *, cl_uint,
                            cl_int *))icd_dispatch.clCreateFromD3D10Texture3DKHR)(
                    (cl_context)NULL, 0, NULL, 0, &err) == NULL &&
                    err < 0,
                "clCreateFromD3D10Texture3DKHR (NULL) did not fail");
  checked++;
  ck_assert_msg(((cl_int(*)(cl_command_queue, cl_uint, const cl_mem *, cl_uint, const cl_event *,
                            cl_event *))icd_dispatch.clEnqueueAcquireD3D10ObjectsKHR)(
                    (cl_command_queue)bad, 0, NULL, 0, NULL, NULL) != CL_SUCCESS,
                "clEnqueueAcquireD3D10ObjectsKHR (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(((cl_int(*)(cl_command_queue, cl_uint, const cl_mem *, cl_uint, const cl_event *,
                            cl_event *))icd_dispatch.clEnqueueAcquireD3D10ObjectsKHR)(
                    (cl_command_queue)NULL, 0, NULL, 0, NULL, NULL) != CL_SUCCESS,
                "clEnqueueAcquireD3D10ObjectsKHR (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(((cl_int(*)(cl_command_queue, cl_uint, const cl_mem *, cl_uint, const cl_event *,
                            cl_event *))icd_dispatch.clEnqueueReleaseD3D10ObjectsKHR)(
                    (cl_command_queue)bad, 0, NULL, 0, NULL, NULL) != CL_SUCCESS,
                "clEnqueueReleaseD3D10ObjectsKHR (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(((cl_int(*)(cl_command_queue, cl_uint, const cl_mem *, cl_uint, const cl_event *,
                            cl_event *))icd_dispatch.clEnqueueReleaseD3D10ObjectsKHR)(
                    (cl_command_queue)NULL, 0, NULL, 0, NULL, NULL) != CL_SUCCESS,
                "clEnqueueReleaseD3D10ObjectsKHR (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clSetEventCallback((cl_event)bad, 0, NULL, NULL) != CL_SUCCESS,
                "clSetEventCallback (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clSetEventCallback((cl_event)NULL, 0, NULL, NULL) != CL_SUCCESS,
                "clSetEventCallback (NULL) returned CL_SUCCESS");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateSubBuffer((cl_mem)bad, 0, 0, NULL, &err) == NULL && err < 0,
                "clCreateSubBuffer (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateSubBuffer((cl_mem)NULL, 0, 0, NULL, &err) == NULL && err < 0,
                "clCreateSubBuffer (NULL) did not fail");
  checked++;
  ck_assert_msg(icd_dispatch.clSetMemObjectDestructorCallback((cl_mem)bad, NULL, NULL) !=
                    CL_SUCCESS,
                "clSetMemObjectDestructorCallback (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clSetMemObjectDestructorCallback((cl_mem)NULL, NULL, NULL) !=
                    CL_SUCCESS,
                "clSetMemObjectDestructorCallback (NULL) returned CL_SUCCESS");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateUserEvent((cl_context)bad, &err) == NULL && err < 0,
                "clCreateUserEvent (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateUserEvent((cl_context)NULL, &err) == NULL && err < 0,
                "clCreateUserEvent (NULL) did not fail");
  checked++;
  ck_assert_msg(icd_dispatch.clSetUserEventStatus((cl_event)bad, 0) != CL_SUCCESS,
                "clSetUserEventStatus (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clSetUserEventStatus((cl_event)NULL, 0) != CL_SUCCESS,
                "clSetUserEventStatus (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueReadBufferRect((cl_command_queue)bad, (cl_mem)bad, 0, NULL,
                                                     NULL, NULL, 0, 0, 0, 0, NULL, 0, NULL,
                                                     NULL) != CL_SUCCESS,
                "clEnqueueReadBufferRect (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueReadBufferRect((cl_command_queue)NULL, (cl_mem)NULL, 0, NULL,
                                                     NULL, NULL, 0, 0, 0, 0, NULL, 0, NULL,
                                                     NULL) != CL_SUCCESS,
                "clEnqueueReadBufferRect (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueWriteBufferRect((cl_command_queue)bad, (cl_mem)bad, 0, NULL,
                                                      NULL, NULL, 0, 0, 0, 0, NULL, 0, NULL,
                                                      NULL) != CL_SUCCESS,
                "clEnqueueWriteBufferRect (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueWriteBufferRect((cl_command_queue)NULL, (cl_mem)NULL, 0, NULL,
                                                      NULL, NULL, 0, 0, 0, 0, NULL, 0, NULL,
                                                      NULL) != CL_SUCCESS,
                "clEnqueueWriteBufferRect (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueCopyBufferRect((cl_command_queue)bad, (cl_mem)bad,
                                                     (cl_mem)bad, NULL, NULL, NULL, 0, 0, 0, 0, 0,
                                                     NULL, NULL) != CL_SUCCESS,
                "clEnqueueCopyBufferRect (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueCopyBufferRect((cl_command_queue)NULL, (cl_mem)NULL,
                                                     (cl_mem)NULL, NULL, NULL, NULL, 0, 0, 0, 0, 0,
                                                     NULL, NULL) != CL_SUCCESS,
                "clEnqueueCopyBufferRect (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clCreateSubDevicesEXT((cl_device_id)bad, NULL, 0, NULL, NULL) !=
                    CL_SUCCESS,
                "clCreateSubDevicesEXT (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clCreateSubDevicesEXT((cl_device_id)NULL, NULL, 0, NULL, NULL) !=
                    CL_SUCCESS,
                "clCreateSubDevicesEXT (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clRetainDeviceEXT((cl_device_id)bad) != CL_SUCCESS,
                "clRetainDeviceEXT (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clRetainDeviceEXT((cl_device_id)NULL) != CL_SUCCESS,
                "clRetainDeviceEXT (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clReleaseDeviceEXT((cl_device_id)bad) != CL_SUCCESS,
                "clReleaseDeviceEXT (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clReleaseDeviceEXT((cl_device_id)NULL) != CL_SUCCESS,
                "clReleaseDeviceEXT (NULL) returned CL_SUCCESS");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateEventFromGLsyncKHR((cl_context)bad, 0, &err) == NULL &&
                    err < 0,
                "clCreateEventFromGLsyncKHR (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateEventFromGLsyncKHR((cl_context)NULL, 0, &err) == NULL &&
                    err < 0,
                "clCreateEventFromGLsyncKHR (NULL) did not fail");
  checked++;
  ck_assert_msg(icd_dispatch.clCreateSubDevices((cl_device_id)bad, NULL, 0, NULL, NULL) !=
                    CL_SUCCESS,
                "clCreateSubDevices (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clCreateSubDevices((cl_device_id)NULL, NULL, 0, NULL, NULL) !=
                    CL_SUCCESS,
                "clCreateSubDevices (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clRetainDevice((cl_device_id)bad) != CL_SUCCESS,
                "clRetainDevice (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clRetainDevice((cl_device_id)NULL) != CL_SUCCESS,
                "clRetainDevice (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clReleaseDevice((cl_device_id)bad) != CL_SUCCESS,
                "clReleaseDevice (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clReleaseDevice((cl_device_id)NULL) != CL_SUCCESS,
                "clReleaseDevice (NULL) returned CL_SUCCESS");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateImage((cl_context)bad, 0, NULL, NULL, NULL, &err) == NULL &&
                    err < 0,
                "clCreateImage (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateImage((cl_context)NULL, 0, NULL, NULL, NULL, &err) == NULL &&
                    err < 0,
                "clCreateImage (NULL) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateProgramWithBuiltInKernels((cl_context)bad, 0, NULL, NULL,
                                                               &err) == NULL &&
                    err < 0,
                "clCreateProgramWithBuiltInKernels (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateProgramWithBuiltInKernels((cl_context)NULL, 0, NULL, NULL,
                                                               &err) == NULL &&
                    err < 0,
                "clCreateProgramWithBuiltInKernels (NULL) did not fail");
  checked++;
  ck_assert_msg(icd_dispatch.clCompileProgram((cl_program)bad, 0, NULL, NULL, 0, NULL, NULL, NULL,
                                              NULL) != CL_SUCCESS,
                "clCompileProgram (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clCompileProgram((cl_program)NULL, 0, NULL, NULL, 0, NULL, NULL, NULL,
                                              NULL) != CL_SUCCESS,
                "clCompileProgram (NULL) returned CL_SUCCESS");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clLinkProgram((cl_context)bad, 0, NULL, NULL, 0, NULL, NULL, NULL,
                                           &err) == NULL &&
                    err < 0,
                "clLinkProgram (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clLinkProgram((cl_context)NULL, 0, NULL, NULL, 0, NULL, NULL, NULL,
                                           &err) == NULL &&
                    err < 0,
                "clLinkProgram (NULL) did not fail");
  checked++;
  ck_assert_msg(icd_dispatch.clUnloadPlatformCompiler((cl_platform_id)bad) != CL_SUCCESS,
                "clUnloadPlatformCompiler (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clUnloadPlatformCompiler((cl_platform_id)NULL) != CL_SUCCESS,
                "clUnloadPlatformCompiler (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetKernelArgInfo((cl_kernel)bad, 0, 0, 0, NULL, NULL) != CL_SUCCESS,
                "clGetKernelArgInfo (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetKernelArgInfo((cl_kernel)NULL, 0, 0, 0, NULL, NULL) != CL_SUCCESS,
                "clGetKernelArgInfo (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueFillBuffer((cl_command_queue)bad, (cl_mem)bad, NULL, 0, 0, 0,
                                                 0, NULL, NULL) != CL_SUCCESS,
                "clEnqueueFillBuffer (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueFillBuffer((cl_command_queue)NULL, (cl_mem)NULL, NULL, 0, 0,
                                                 0, 0, NULL, NULL) != CL_SUCCESS,
                "clEnqueueFillBuffer (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueFillImage((cl_command_queue)bad, (cl_mem)bad, NULL, NULL,
                                                NULL, 0, NULL, NULL) != CL_SUCCESS,
                "clEnqueueFillImage (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueFillImage((cl_command_queue)NULL, (cl_mem)NULL, NULL, NULL,
                                                NULL, 0, NULL, NULL) != CL_SUCCESS,
                "clEnqueueFillImage (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueMigrateMemObjects((cl_command_queue)bad, 0, NULL, 0, 0, NULL,
                                                        NULL) != CL_SUCCESS,
                "clEnqueueMigrateMemObjects (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueMigrateMemObjects((cl_command_queue)NULL, 0, NULL, 0, 0, NULL,
                                                        NULL) != CL_SUCCESS,
                "clEnqueueMigrateMemObjects (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueMarkerWithWaitList((cl_command_queue)bad, 0, NULL, NULL) !=
                    CL_SUCCESS,
                "clEnqueueMarkerWithWaitList (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueMarkerWithWaitList((cl_command_queue)NULL, 0, NULL, NULL) !=
                    CL_SUCCESS,
                "clEnqueueMarkerWithWaitList (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueBarrierWithWaitList((cl_command_queue)bad, 0, NULL, NULL) !=
                    CL_SUCCESS,
                "clEnqueueBarrierWithWaitList (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueBarrierWithWaitList((cl_command_queue)NULL, 0, NULL, NULL) !=
                    CL_SUCCESS,
                "clEnqueueBarrierWithWaitList (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetExtensionFunctionAddressForPlatform((cl_platform_id)bad, NULL) ==
                    NULL,
                "clGetExtensionFunctionAddressForPlatform (bad) returned a value");
  checked++;
  ck_assert_msg(icd_dispatch.clGetExtensionFunctionAddressForPlatform((cl_platform_id)NULL, NULL) ==
                    NULL,
                "clGetExtensionFunctionAddressForPlatform (NULL) returned a value");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateFromGLTexture((cl_context)bad, 0, 0, 0, 0, &err) == NULL &&
                    err < 0,
                "clCreateFromGLTexture (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateFromGLTexture((cl_context)NULL, 0, 0, 0, 0, &err) == NULL &&
                    err < 0,
                "clCreateFromGLTexture (NULL) did not fail");
  checked++;
  ck_assert_msg(((cl_int(*)(cl_platform_id, cl_uint, void *, cl_uint, cl_uint, cl_device_id *,
                            cl_uint *))icd_dispatch.clGetDeviceIDsFromD3D11KHR)(
                    (cl_platform_id)bad, 0, NULL, 0, 0, NULL, NULL) != CL_SUCCESS,
                "clGetDeviceIDsFromD3D11KHR (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(((cl_int(*)(cl_platform_id, cl_uint, void *, cl_uint, cl_uint, cl_device_id *,
                            cl_uint *))icd_dispatch.clGetDeviceIDsFromD3D11KHR)(
                    (cl_platform_id)NULL, 0, NULL, 0, 0, NULL, NULL) != CL_SUCCESS,
                "clGetDeviceIDsFromD3D11KHR (NULL) returned CL_SUCCESS");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(((cl_mem(*)(cl_context, cl_mem_flags, void *,
                            cl_int *))icd_dispatch.clCreateFromD3D11BufferKHR)(
                    (cl_context)bad, 0, NULL, &err) == NULL &&
                    err < 0,
                "clCreateFromD3D11BufferKHR (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(((cl_mem(*)(cl_context, cl_mem_flags, void *,
                            cl_int *))icd_dispatch.clCreateFromD3D11BufferKHR)(
                    (cl_context)NULL, 0, NULL, &err) == NULL &&
                    err < 0,
                "clCreateFromD3D11BufferKHR (NULL) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(((cl_mem(*)(cl_context, cl_mem_flags, void *, cl_uint,
                            cl_int *))icd_dispatch.clCreateFromD3D11Texture2DKHR)(
                    (cl_context)bad, 0, NULL, 0, &err) == NULL &&
                    err < 0,
                "clCreateFromD3D11Texture2DKHR (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(((cl_mem(*)(cl_context, cl_mem_flags, void *, cl_uint,
                            cl_int *))icd_dispatch.clCreateFromD3D11Texture2DKHR)(
                    (cl_context)NULL, 0, NULL, 0, &err) == NULL &&
                    err < 0,
                "clCreateFromD3D11Texture2DKHR (NULL) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(((cl_mem(*)(cl_context, cl_mem_flags, void *, cl_uint,
                            cl_int *))icd_dispatch.clCreateFromD3D11Texture3DKHR)(
                    (cl_context)bad, 0, NULL, 0, &err) == NULL &&
                    err < 0,
                "clCreateFromD3D11Texture3DKHR (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(((cl_mem(*)(cl_context, cl_mem_flags, void *, cl_uint,
                            cl_int *))icd_dispatch.clCreateFromD3D11Texture3DKHR)(
                    (cl_context)NULL, 0, NULL, 0, &err) == NULL &&
                    err < 0,
                "clCreateFromD3D11Texture3DKHR (NULL) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(((cl_mem(*)(cl_context, cl_mem_flags, cl_uint, void *, cl_uint,
                            cl_int *))icd_dispatch.clCreateFromDX9MediaSurfaceKHR)(
                    (cl_context)bad, 0, 0, NULL, 0, &err) == NULL &&
                    err < 0,
                "clCreateFromDX9MediaSurfaceKHR (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(((cl_mem(*)(cl_context, cl_mem_flags, cl_uint, void *, cl_uint,
                            cl_int *))icd_dispatch.clCreateFromDX9MediaSurfaceKHR)(
                    (cl_context)NULL, 0, 0, NULL, 0, &err) == NULL &&
                    err < 0,
                "clCreateFromDX9MediaSurfaceKHR (NULL) did not fail");
  checked++;
  ck_assert_msg(((cl_int(*)(cl_command_queue, cl_uint, const cl_mem *, cl_uint, const cl_event *,
                            cl_event *))icd_dispatch.clEnqueueAcquireD3D11ObjectsKHR)(
                    (cl_command_queue)bad, 0, NULL, 0, NULL, NULL) != CL_SUCCESS,
                "clEnqueueAcquireD3D11ObjectsKHR (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(((cl_int(*)(cl_command_queue, cl_uint, const cl_mem *, cl_uint, const cl_event *,
                            cl_event *))icd_dispatch.clEnqueueAcquireD3D11ObjectsKHR)(
                    (cl_command_queue)NULL, 0, NULL, 0, NULL, NULL) != CL_SUCCESS,
                "clEnqueueAcquireD3D11ObjectsKHR (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(((cl_int(*)(cl_command_queue, cl_uint, const cl_mem *, cl_uint, const cl_event *,
                            cl_event *))icd_dispatch.clEnqueueReleaseD3D11ObjectsKHR)(
                    (cl_command_queue)bad, 0, NULL, 0, NULL, NULL) != CL_SUCCESS,
                "clEnqueueReleaseD3D11ObjectsKHR (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(((cl_int(*)(cl_command_queue, cl_uint, const cl_mem *, cl_uint, const cl_event *,
                            cl_event *))icd_dispatch.clEnqueueReleaseD3D11ObjectsKHR)(
                    (cl_command_queue)NULL, 0, NULL, 0, NULL, NULL) != CL_SUCCESS,
                "clEnqueueReleaseD3D11ObjectsKHR (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(
      ((cl_int(*)(cl_platform_id, cl_uint, cl_uint *, void *, cl_uint, cl_uint, cl_device_id *,
                  cl_uint *))icd_dispatch.clGetDeviceIDsFromDX9MediaAdapterKHR)(
          (cl_platform_id)bad, 0, NULL, NULL, 0, 0, NULL, NULL) != CL_SUCCESS,
      "clGetDeviceIDsFromDX9MediaAdapterKHR (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(
      ((cl_int(*)(cl_platform_id, cl_uint, cl_uint *, void *, cl_uint, cl_uint, cl_device_id *,
                  cl_uint *))icd_dispatch.clGetDeviceIDsFromDX9MediaAdapterKHR)(
          (cl_platform_id)NULL, 0, NULL, NULL, 0, 0, NULL, NULL) != CL_SUCCESS,
      "clGetDeviceIDsFromDX9MediaAdapterKHR (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(((cl_int(*)(cl_command_queue, cl_uint, const cl_mem *, cl_uint, const cl_event *,
                            cl_event *))icd_dispatch.clEnqueueAcquireDX9MediaSurfacesKHR)(
                    (cl_command_queue)bad, 0, NULL, 0, NULL, NULL) != CL_SUCCESS,
                "clEnqueueAcquireDX9MediaSurfacesKHR (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(((cl_int(*)(cl_command_queue, cl_uint, const cl_mem *, cl_uint, const cl_event *,
                            cl_event *))icd_dispatch.clEnqueueAcquireDX9MediaSurfacesKHR)(
                    (cl_command_queue)NULL, 0, NULL, 0, NULL, NULL) != CL_SUCCESS,
                "clEnqueueAcquireDX9MediaSurfacesKHR (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(((cl_int(*)(cl_command_queue, cl_uint, const cl_mem *, cl_uint, const cl_event *,
                            cl_event *))icd_dispatch.clEnqueueReleaseDX9MediaSurfacesKHR)(
                    (cl_command_queue)bad, 0, NULL, 0, NULL, NULL) != CL_SUCCESS,
                "clEnqueueReleaseDX9MediaSurfacesKHR (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(((cl_int(*)(cl_command_queue, cl_uint, const cl_mem *, cl_uint, const cl_event *,
                            cl_event *))icd_dispatch.clEnqueueReleaseDX9MediaSurfacesKHR)(
                    (cl_command_queue)NULL, 0, NULL, 0, NULL, NULL) != CL_SUCCESS,
                "clEnqueueReleaseDX9MediaSurfacesKHR (NULL) returned CL_SUCCESS");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(
      icd_dispatch.clCreateFromEGLImageKHR((cl_context)bad, 0, 0, 0, NULL, &err) == NULL && err < 0,
      "clCreateFromEGLImageKHR (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateFromEGLImageKHR((cl_context)NULL, 0, 0, 0, NULL, &err) ==
                        NULL &&
                    err < 0,
                "clCreateFromEGLImageKHR (NULL) did not fail");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueAcquireEGLObjectsKHR((cl_command_queue)bad, 0, NULL, 0, NULL,
                                                           NULL) != CL_SUCCESS,
                "clEnqueueAcquireEGLObjectsKHR (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueAcquireEGLObjectsKHR((cl_command_queue)NULL, 0, NULL, 0, NULL,
                                                           NULL) != CL_SUCCESS,
                "clEnqueueAcquireEGLObjectsKHR (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueReleaseEGLObjectsKHR((cl_command_queue)bad, 0, NULL, 0, NULL,
                                                           NULL) != CL_SUCCESS,
                "clEnqueueReleaseEGLObjectsKHR (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueReleaseEGLObjectsKHR((cl_command_queue)NULL, 0, NULL, 0, NULL,
                                                           NULL) != CL_SUCCESS,
                "clEnqueueReleaseEGLObjectsKHR (NULL) returned CL_SUCCESS");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateEventFromEGLSyncKHR((cl_context)bad, 0, 0, &err) == NULL &&
                    err < 0,
                "clCreateEventFromEGLSyncKHR (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateEventFromEGLSyncKHR((cl_context)NULL, 0, 0, &err) == NULL &&
                    err < 0,
                "clCreateEventFromEGLSyncKHR (NULL) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateCommandQueueWithProperties((cl_context)bad, (cl_device_id)bad,
                                                                NULL, &err) == NULL &&
                    err < 0,
                "clCreateCommandQueueWithProperties (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateCommandQueueWithProperties(
                    (cl_context)NULL, (cl_device_id)NULL, NULL, &err) == NULL &&
                    err < 0,
                "clCreateCommandQueueWithProperties (NULL) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreatePipe((cl_context)bad, 0, 0, 0, NULL, &err) == NULL && err < 0,
                "clCreatePipe (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreatePipe((cl_context)NULL, 0, 0, 0, NULL, &err) == NULL && err < 0,
                "clCreatePipe (NULL) did not fail");
  checked++;
  ck_assert_msg(icd_dispatch.clGetPipeInfo((cl_mem)bad, 0, 0, NULL, NULL) != CL_SUCCESS,
                "clGetPipeInfo (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetPipeInfo((cl_mem)NULL, 0, 0, NULL, NULL) != CL_SUCCESS,
                "clGetPipeInfo (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clSVMAlloc((cl_context)bad, 0, 0, 0) == NULL,
                "clSVMAlloc (bad) returned a value");
  checked++;
  ck_assert_msg(icd_dispatch.clSVMAlloc((cl_context)NULL, 0, 0, 0) == NULL,
                "clSVMAlloc (NULL) returned a value");
  checked++;
  icd_dispatch.clSVMFree((cl_context)bad, NULL); /* clSVMFree: must simply not crash */
  checked++;
  icd_dispatch.clSVMFree((cl_context)NULL, NULL); /* clSVMFree: must simply not crash */
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueSVMFree((cl_command_queue)bad, 0, NULL, NULL, NULL, 0, NULL,
                                              NULL) != CL_SUCCESS,
                "clEnqueueSVMFree (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueSVMFree((cl_command_queue)NULL, 0, NULL, NULL, NULL, 0, NULL,
                                              NULL) != CL_SUCCESS,
                "clEnqueueSVMFree (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueSVMMemcpy((cl_command_queue)bad, 0, NULL, NULL, 0, 0, NULL,
                                                NULL) != CL_SUCCESS,
                "clEnqueueSVMMemcpy (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueSVMMemcpy((cl_command_queue)NULL, 0, NULL, NULL, 0, 0, NULL,
                                                NULL) != CL_SUCCESS,
                "clEnqueueSVMMemcpy (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueSVMMemFill((cl_command_queue)bad, NULL, NULL, 0, 0, 0, NULL,
                                                 NULL) != CL_SUCCESS,
                "clEnqueueSVMMemFill (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueSVMMemFill((cl_command_queue)NULL, NULL, NULL, 0, 0, 0, NULL,
                                                 NULL) != CL_SUCCESS,
                "clEnqueueSVMMemFill (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueSVMMap((cl_command_queue)bad, 0, 0, NULL, 0, 0, NULL, NULL) !=
                    CL_SUCCESS,
                "clEnqueueSVMMap (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueSVMMap((cl_command_queue)NULL, 0, 0, NULL, 0, 0, NULL,
                                             NULL) != CL_SUCCESS,
                "clEnqueueSVMMap (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueSVMUnmap((cl_command_queue)bad, NULL, 0, NULL, NULL) !=
                    CL_SUCCESS,
                "clEnqueueSVMUnmap (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueSVMUnmap((cl_command_queue)NULL, NULL, 0, NULL, NULL) !=
                    CL_SUCCESS,
                "clEnqueueSVMUnmap (NULL) returned CL_SUCCESS");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateSamplerWithProperties((cl_context)bad, NULL, &err) == NULL &&
                    err < 0,
                "clCreateSamplerWithProperties (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateSamplerWithProperties((cl_context)NULL, NULL, &err) == NULL &&
                    err < 0,
                "clCreateSamplerWithProperties (NULL) did not fail");
  checked++;
  ck_assert_msg(icd_dispatch.clSetKernelArgSVMPointer((cl_kernel)bad, 0, NULL) != CL_SUCCESS,
                "clSetKernelArgSVMPointer (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clSetKernelArgSVMPointer((cl_kernel)NULL, 0, NULL) != CL_SUCCESS,
                "clSetKernelArgSVMPointer (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clSetKernelExecInfo((cl_kernel)bad, 0, 0, NULL) != CL_SUCCESS,
                "clSetKernelExecInfo (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clSetKernelExecInfo((cl_kernel)NULL, 0, 0, NULL) != CL_SUCCESS,
                "clSetKernelExecInfo (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetKernelSubGroupInfoKHR((cl_kernel)bad, (cl_device_id)bad, 0, 0,
                                                        NULL, 0, NULL, NULL) != CL_SUCCESS,
                "clGetKernelSubGroupInfoKHR (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetKernelSubGroupInfoKHR((cl_kernel)NULL, (cl_device_id)NULL, 0, 0,
                                                        NULL, 0, NULL, NULL) != CL_SUCCESS,
                "clGetKernelSubGroupInfoKHR (NULL) returned CL_SUCCESS");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCloneKernel((cl_kernel)bad, &err) == NULL && err < 0,
                "clCloneKernel (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCloneKernel((cl_kernel)NULL, &err) == NULL && err < 0,
                "clCloneKernel (NULL) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateProgramWithIL((cl_context)bad, NULL, 0, &err) == NULL &&
                    err < 0,
                "clCreateProgramWithIL (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateProgramWithIL((cl_context)NULL, NULL, 0, &err) == NULL &&
                    err < 0,
                "clCreateProgramWithIL (NULL) did not fail");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueSVMMigrateMem((cl_command_queue)bad, 0, NULL, NULL, 0, 0,
                                                    NULL, NULL) != CL_SUCCESS,
                "clEnqueueSVMMigrateMem (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clEnqueueSVMMigrateMem((cl_command_queue)NULL, 0, NULL, NULL, 0, 0,
                                                    NULL, NULL) != CL_SUCCESS,
                "clEnqueueSVMMigrateMem (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetDeviceAndHostTimer((cl_device_id)bad, NULL, NULL) != CL_SUCCESS,
                "clGetDeviceAndHostTimer (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetDeviceAndHostTimer((cl_device_id)NULL, NULL, NULL) != CL_SUCCESS,
                "clGetDeviceAndHostTimer (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetHostTimer((cl_device_id)bad, NULL) != CL_SUCCESS,
                "clGetHostTimer (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetHostTimer((cl_device_id)NULL, NULL) != CL_SUCCESS,
                "clGetHostTimer (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetKernelSubGroupInfo((cl_kernel)bad, (cl_device_id)bad, 0, 0, NULL,
                                                     0, NULL, NULL) != CL_SUCCESS,
                "clGetKernelSubGroupInfo (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clGetKernelSubGroupInfo((cl_kernel)NULL, (cl_device_id)NULL, 0, 0,
                                                     NULL, 0, NULL, NULL) != CL_SUCCESS,
                "clGetKernelSubGroupInfo (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clSetDefaultDeviceCommandQueue((cl_context)bad, (cl_device_id)bad,
                                                            (cl_command_queue)bad) != CL_SUCCESS,
                "clSetDefaultDeviceCommandQueue (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clSetDefaultDeviceCommandQueue((cl_context)NULL, (cl_device_id)NULL,
                                                            (cl_command_queue)NULL) != CL_SUCCESS,
                "clSetDefaultDeviceCommandQueue (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clSetProgramReleaseCallback((cl_program)bad, NULL, NULL) != CL_SUCCESS,
                "clSetProgramReleaseCallback (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clSetProgramReleaseCallback((cl_program)NULL, NULL, NULL) !=
                    CL_SUCCESS,
                "clSetProgramReleaseCallback (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clSetProgramSpecializationConstant((cl_program)bad, 0, 0, NULL) !=
                    CL_SUCCESS,
                "clSetProgramSpecializationConstant (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clSetProgramSpecializationConstant((cl_program)NULL, 0, 0, NULL) !=
                    CL_SUCCESS,
                "clSetProgramSpecializationConstant (NULL) returned CL_SUCCESS");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(
      icd_dispatch.clCreateBufferWithProperties((cl_context)bad, NULL, 0, 0, NULL, &err) == NULL &&
          err < 0,
      "clCreateBufferWithProperties (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(
      icd_dispatch.clCreateBufferWithProperties((cl_context)NULL, NULL, 0, 0, NULL, &err) == NULL &&
          err < 0,
      "clCreateBufferWithProperties (NULL) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateImageWithProperties((cl_context)bad, NULL, 0, NULL, NULL, NULL,
                                                         &err) == NULL &&
                    err < 0,
                "clCreateImageWithProperties (bad) did not fail");
  checked++;
  err = CL_SUCCESS;
  ck_assert_msg(icd_dispatch.clCreateImageWithProperties((cl_context)NULL, NULL, 0, NULL, NULL,
                                                         NULL, &err) == NULL &&
                    err < 0,
                "clCreateImageWithProperties (NULL) did not fail");
  checked++;
  ck_assert_msg(icd_dispatch.clSetContextDestructorCallback((cl_context)bad, NULL, NULL) !=
                    CL_SUCCESS,
                "clSetContextDestructorCallback (bad) returned CL_SUCCESS");
  checked++;
  ck_assert_msg(icd_dispatch.clSetContextDestructorCallback((cl_context)NULL, NULL, NULL) !=
                    CL_SUCCESS,
                "clSetContextDestructorCallback (NULL) returned CL_SUCCESS");
  checked++;
  ck_assert_int_ge(checked, 2 * 140);
}
END_TEST

START_TEST(unload_compiler_succeeds) {
  ck_assert_int_eq(icd_dispatch.clUnloadCompiler(), CL_SUCCESS);
}
END_TEST

/* The runtime knows no table: the ICD layer installs its own, and the
 * objects the loader gets carry it. */
START_TEST(objects_carry_the_table) {
  ck_assert_ptr_eq(rt_dispatch(), &icd_dispatch);
  cl_platform_id p = NULL;
  ck_assert_int_eq(clIcdGetPlatformIDsKHR(1, &p, NULL), CL_SUCCESS);
  ck_assert_ptr_eq(*(const cl_icd_dispatch *const *)p, &icd_dispatch);
  cl_device_id d = NULL;
  ck_assert_int_eq(icd_dispatch.clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 1, &d, NULL), CL_SUCCESS);
  ck_assert_ptr_eq(*(const cl_icd_dispatch *const *)d, &icd_dispatch);
}
END_TEST

int main(void) {
  Suite *s = suite_create("icd_dispatch");
  CU_ADD(s, objects_carry_the_table);
  CU_ADD(s, every_slot_is_filled);
  CU_ADD(s, every_call_with_bad_handles_fails);
  CU_ADD(s, unload_compiler_succeeds);
  return cu_run(s);
}
