/* bi_ptr.cl - every math builtin with a pointer argument (fract, modf,
 * sincos, frexp, lgamma_r, remquo) through private, local, global and
 * generic pointers, at every vector width, float and double; and nan(). */
#define BODY(FT, IT)                                                                               \
  __local FT lf[64];                                                                               \
  __local IT li[64];                                                                               \
  int g = get_global_id(0), l = get_local_id(0);                                                   \
  FT x = in[g], y = in2[g];                                                                        \
  FT pf;                                                                                           \
  IT pi;                                                                                           \
  FT *gf = &pf; /* generic */                                                                      \
  IT *gi = &pi;                                                                                    \
  __global FT *of = outf + 16 * g;                                                                 \
  __global IT *oi = outi + 8 * g;                                                                  \
  of[0] = fract(x, &pf);                                                                           \
  of[1] = pf;                                                                                      \
  of[2] = fract(x, gf);                                                                            \
  of[3] = *gf;                                                                                     \
  of[4] = fract(x, &lf[l]);                                                                        \
  of[5] = lf[l];                                                                                   \
  of[6] = modf(x, of + 7);                                                                         \
  of[8] = sincos(x, gf);                                                                           \
  of[9] = *gf;                                                                                     \
  of[10] = frexp(x, gi);                                                                           \
  oi[0] = *gi;                                                                                     \
  of[11] = lgamma_r(x, &li[l]);                                                                    \
  oi[1] = li[l];                                                                                   \
  of[12] = remquo(x, y, oi + 2);                                                                   \
  of[13] = remquo(x, y, gi);                                                                       \
  oi[3] = *gi;                                                                                     \
  of[14] = lgamma_r(x, &pi);                                                                       \
  oi[4] = pi;                                                                                      \
  of[15] = frexp(x, oi + 5);                                                                       \
  oi[6] = 0;                                                                                       \
  oi[7] = 0;

#define KERN(name, FT, IT)                                                                         \
  __kernel void name(__global const FT *in, __global const FT *in2, __global FT *outf,            \
                     __global IT *outi) {                                                          \
    BODY(FT, IT)                                                                                   \
  }
KERN(ptr_f1, float, int)
KERN(ptr_f2, float2, int2)
KERN(ptr_f3, float3, int3)
KERN(ptr_f4, float4, int4)
KERN(ptr_f8, float8, int8)
KERN(ptr_f16, float16, int16)
KERN(ptr_d1, double, int)
KERN(ptr_d2, double2, int2)
KERN(ptr_d3, double3, int3)
KERN(ptr_d4, double4, int4)
KERN(ptr_d8, double8, int8)
KERN(ptr_d16, double16, int16)

/* nan(nancode) for uint and ulong codes, scalar and vector. */
__kernel void nan_codes(__global const uint *code, __global uint *of, __global ulong *od) {
  int g = get_global_id(0);
  of[g] = as_uint(nan(code[g]));
  od[g] = as_ulong(nan((ulong)code[g] << 20));
  uint4 c4 = (uint4)(code[g], code[g] + 1, code[g] + 2, code[g] + 3);
  vstore4(as_uint4(nan(c4)), g, of + 64);
  ulong2 c2 = (ulong2)(code[g], (ulong)code[g] << 30);
  vstore2(as_ulong2(nan(c2)), g, od + 64);
}
