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

/* vloadN / vstoreN, vload_halfN / vstore_halfN_<mode> and the aligned forms
 * through generic, private and local pointers (each a call clang names
 * with a different address space). Halves live in ushort arrays. */
__kernel void vec_spaces(__global const float *in, __global float *out, __global ushort *hout) {
  __local float lbuf[64 * 16];
  __local ushort lh[64 * 16];
  int g = get_global_id(0), l = get_local_id(0);
  float pbuf[16];
  ushort ph[16];
  for (int i = 0; i < 16; i++)
    pbuf[i] = in[16 * g + i];
  float *gp = pbuf; /* generic */
  float16 v = vload16(0, gp);
  vstore16(v, l, lbuf);
  float8 a = vload8(0, &lbuf[16 * l]);
  float3 b = vload3(3, gp);
  float4 c = vload4(3, (float *)&lbuf[16 * l]);
  __global float *o = out + 16 * g;
  vstore8(a, 0, (float *)o);
  vstore3(b, 0, o + 8);
  o[11] = c.x + c.w;
  vstore2((float2)(v.s0, v.sf), 6, gp);
  o[12] = pbuf[12];
  o[13] = pbuf[13];
  half *hp = (half *)ph; /* generic */
  vstore_half4_rtn(v.lo.lo, 0, hp);
  vstore_half4_rtp(v.lo.lo, 1, (__private half *)ph);
  vstorea_half2_rtz(v.hi.lo.lo, 4, hp);
  vstore_half8_rte(v.hi, 1, (__local half *)&lh[16 * l]);
  for (int i = 2; i < 8; i++)
    ph[8 + i] = lh[16 * l + 8 + i];
  float4 h = vload_half4(2, hp) + vloada_half4(3, (const half *)hp);
  o[14] = h.x + h.y + h.z + h.w;
  o[15] = vload_half(9, hp);
  for (int i = 0; i < 16; i++)
    hout[16 * g + i] = ph[i];
}

/* get_fence on generic pointers into global, local and private memory. */
__kernel void fences(__global int *out) {
  __local int loc[4];
  int priv = 1;
  int *p[3] = {out, loc, &priv};
  for (int i = 0; i < 3; i++)
    out[3 * get_global_id(0) + i] = get_fence(p[i]) | (get_fence((const int *)p[i]) << 4);
}
