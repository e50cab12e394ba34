/*
 * claims.c - the one table of what the device claims (see claims.h). A line
 * is added only once the feature runs end to end in the kernel suites
 * (tests/device/test_kernels_claims.c and friends).
 */
#include <pthread.h>
#include <string.h>

#include "device/claims.h"

enum kind { EXT, FEATURE, C_VERSION };

static const struct claim {
  enum kind kind;
  cl_name_version nv;
} table[] = {
    {EXT, {CL_MAKE_VERSION(1, 0, 0), "cl_khr_icd"}},
    {EXT, {CL_MAKE_VERSION(1, 0, 0), "cl_khr_byte_addressable_store"}},
    {EXT, {CL_MAKE_VERSION(1, 0, 0), "cl_khr_global_int32_base_atomics"}},
    {EXT, {CL_MAKE_VERSION(1, 0, 0), "cl_khr_global_int32_extended_atomics"}},
    {EXT, {CL_MAKE_VERSION(1, 0, 0), "cl_khr_local_int32_base_atomics"}},
    {EXT, {CL_MAKE_VERSION(1, 0, 0), "cl_khr_local_int32_extended_atomics"}},
    {EXT, {CL_MAKE_VERSION(1, 0, 0), "cl_khr_int64_base_atomics"}},
    {EXT, {CL_MAKE_VERSION(1, 0, 0), "cl_khr_int64_extended_atomics"}},
    {EXT, {CL_MAKE_VERSION(1, 0, 0), "cl_khr_fp64"}},
    {EXT, {CL_MAKE_VERSION(1, 0, 0), "cl_khr_priority_hints"}},
    {EXT, {CL_MAKE_VERSION(1, 0, 0), "cl_khr_subgroups"}},
    {EXT, {CL_MAKE_VERSION(1, 0, 0), "cl_khr_3d_image_writes"}},
    {EXT, {CL_MAKE_VERSION(1, 0, 0), "cl_khr_image2d_from_buffer"}},
    {EXT, {CL_MAKE_VERSION(1, 0, 0), "cl_khr_image2d_from_image"}},
    {EXT, {CL_MAKE_VERSION(1, 0, 0), "cl_khr_depth_images"}},
    {C_VERSION, {CL_MAKE_VERSION(1, 0, 0), "OpenCL C"}},
    {C_VERSION, {CL_MAKE_VERSION(1, 1, 0), "OpenCL C"}},
    {C_VERSION, {CL_MAKE_VERSION(1, 2, 0), "OpenCL C"}},
    /* OpenCL C 2.0: every feature it requires is claimed below (images,
     * pipes, collectives, generic space, device enqueue, the atomic orders
     * and scopes, program-scope globals); still not the default. */
    {C_VERSION, {CL_MAKE_VERSION(2, 0, 0), "OpenCL C"}},
    {C_VERSION, {CL_MAKE_VERSION(3, 0, 0), "OpenCL C"}},
    /* OpenCL C 3.0 optional features. The atomics are the host's own
     * sequentially consistent atomics on memory every compute unit shares. */
    {FEATURE, {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_int64"}},
    {FEATURE, {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_fp64"}},
    {FEATURE, {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_generic_address_space"}},
    {FEATURE, {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_program_scope_global_variables"}},
    {FEATURE, {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_subgroups"}},
    {FEATURE, {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_atomic_order_acq_rel"}},
    {FEATURE, {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_atomic_order_seq_cst"}},
    {FEATURE, {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_atomic_scope_device"}},
    /* every atomic is one on host memory, which SVM shares with the host */
    {FEATURE, {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_atomic_scope_all_devices"}},
    {FEATURE, {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_device_enqueue"}},
    {FEATURE, {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_images"}},
    {FEATURE, {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_read_write_images"}},
    {FEATURE, {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_3d_image_writes"}},
    {FEATURE, {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_work_group_collective_functions"}},
    {FEATURE, {CL_MAKE_VERSION(3, 0, 0), "__opencl_c_pipes"}},
};
#define NTABLE (sizeof table / sizeof table[0])

static cl_name_version lists[3][NTABLE];
static size_t counts[3];
static char ext_string[NTABLE * CL_NAME_VERSION_MAX_NAME_SIZE];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void init(void) {
  char *s = ext_string;
  for (size_t i = 0; i < NTABLE; i++) {
    enum kind k = table[i].kind;
    lists[k][counts[k]++] = table[i].nv;
    if (k != EXT) continue;
    size_t n = strlen(table[i].nv.name);
    if (s != ext_string) *s++ = ' ';
    memcpy(s, table[i].nv.name, n);
    s += n;
  }
  *s = 0;
}

size_t dev_claims(enum dev_claim_list which, const cl_name_version **list) {
  pthread_once(&once, init);
  enum kind k = which == DEV_CLAIM_EXTENSIONS ? EXT
                : which == DEV_CLAIM_FEATURES ? FEATURE
                                              : C_VERSION;
  *list = lists[k];
  return counts[k];
}

const char *dev_claims_extension_string(void) {
  pthread_once(&once, init);
  return ext_string;
}

bool dev_claimed(const char *name) {
  for (size_t i = 0; i < NTABLE; i++)
    if (table[i].kind != C_VERSION && !strcmp(table[i].nv.name, name)) return true;
  return false;
}

cl_device_svm_capabilities dev_claims_svm(void) {
  return CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
         CL_DEVICE_SVM_ATOMICS;
}

bool dev_claims_c_version(int version) {
  for (size_t i = 0; i < NTABLE; i++)
    if (table[i].kind == C_VERSION && (int)(CL_VERSION_MAJOR(table[i].nv.version) * 100 +
                                            CL_VERSION_MINOR(table[i].nv.version) * 10) == version)
      return true;
  return false;
}
