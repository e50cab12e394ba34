/*
 * claims.h - what the device claims, in one table: its extensions, its
 * OpenCL C versions and its OpenCL C 3.0 optional features. clGetPlatformInfo,
 * clGetDeviceInfo (the extension and feature lists and every support flag
 * they imply) and the compiler (the macros kernels see and clang's
 * -cl-ext) all read it, so kernels see exactly what the queries report.
 */
#ifndef LOCKSTEP_DEVICE_CLAIMS_H
#define LOCKSTEP_DEVICE_CLAIMS_H

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>
#include <stdbool.h>
#include <stddef.h>

/* The highest OpenCL C version the device fully supports (what
 * CL_DEVICE_OPENCL_C_VERSION reports); OpenCL C 3.0 comes with the
 * features listed. */
#define DEV_OPENCL_C_VERSION "OpenCL C 1.2 Lockstep"
/* The OpenCL version of the device, as kernels see it in __OPENCL_VERSION__. */
#define DEV_OPENCL_VERSION 300

enum dev_claim_list {
  DEV_CLAIM_EXTENSIONS, /* CL_DEVICE_EXTENSIONS_WITH_VERSION */
  DEV_CLAIM_FEATURES,   /* CL_DEVICE_OPENCL_C_FEATURES */
  DEV_CLAIM_C_VERSIONS, /* CL_DEVICE_OPENCL_C_ALL_VERSIONS */
};

/* One of the lists as name/version pairs; returns its length. */
size_t dev_claims(enum dev_claim_list which, const cl_name_version **list);
/* The extensions as CL_DEVICE_EXTENSIONS spells them. */
const char *dev_claims_extension_string(void);
/* Whether an extension or feature name is claimed. */
bool dev_claimed(const char *name);
/* CL_DEVICE_SVM_CAPABILITIES: coarse- and fine-grained buffer SVM, with
 * atomics (the device's atomics are the host's own on the same memory). */
cl_device_svm_capabilities dev_claims_svm(void);
/* Whether OpenCL C version major*100 + minor*10 is supported. */
bool dev_claims_c_version(int version);

#endif
