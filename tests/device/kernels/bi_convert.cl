/* bi_convert.cl - convert_<integer type>_sat[_rte|_rtz|_rtp|_rtn] from float
 * and double, scalar and 4-vectors: 8 types x 5 modes per input, each result
 * widened to long (zero-extended from the unsigned types). */
#define ONE(T, sfx) o[c++] = (long)convert_##T##sfx(x);
#define ONEV(T, sfx)                                                                               \
  {                                                                                                \
    T##4 r = convert_##T##4##sfx(v);                                                               \
    o[c++] = (long)r.x, o[c++] = (long)r.y, o[c++] = (long)r.z, o[c++] = (long)r.w;                \
  }
#define MODES(F, T) F(T, _sat) F(T, _sat_rte) F(T, _sat_rtz) F(T, _sat_rtp) F(T, _sat_rtn)
#define ALL(F)                                                                                     \
  MODES(F, char)                                                                                   \
  MODES(F, uchar)                                                                                  \
  MODES(F, short) MODES(F, ushort) MODES(F, int) MODES(F, uint) MODES(F, long) MODES(F, ulong)

#define KERNS(FT)                                                                                  \
  __kernel void sat_##FT(__global const FT *in, __global long *out) {                              \
    int g = get_global_id(0), c = 0;                                                               \
    FT x = in[g];                                                                                  \
    __global long *o = out + 40 * g;                                                               \
    ALL(ONE)                                                                                       \
  }                                                                                                \
  __kernel void sat4_##FT(__global const FT *in, __global long *out) {                             \
    int g = get_global_id(0), n = get_global_size(0), c = 0;                                       \
    FT##4 v = (FT##4)(in[g], in[(g + 17) % n], in[(g + 34) % n], in[(g + 51) % n]);                \
    __global long *o = out + 160 * g;                                                              \
    ALL(ONEV)                                                                                      \
  }
KERNS(float)
KERNS(double)
