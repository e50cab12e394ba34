/* condfield.cl - a condition naming a field its struct argument lacks is
 * refused when it is set or bound, not at each lane's hit */
typedef struct {
  int n;
  float scale;
  float2 off;
} params_t;

kernel void condfield(global float *out, params_t p) {
  int gid = get_global_id(0);
  float v = gid * p.scale + p.off.y;
  out[gid] = v + p.n;
}
