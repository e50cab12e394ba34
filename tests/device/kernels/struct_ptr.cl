/* struct_ptr.cl - structs through global pointers: nested structs, arrays
 * inside structs, mixed sizes and padding, updated in place. */
typedef struct { char tag; short s; int i; } inner;
typedef struct { inner in[2]; long l; float f[3]; uchar flags; double d; } outer;
__kernel void struct_ptr(__global outer *p, __global const inner *lut) {
  int g = get_global_id(0);
  __global outer *o = &p[g];
  inner t = lut[g % 4];
  o->in[1] = o->in[0];
  o->in[0] = t;
  o->l += (long)t.i * o->in[1].s;
  for (int k = 0; k < 3; k++) o->f[k] = o->f[k] * 2.0f + k;
  o->flags ^= (uchar)t.tag;
  o->d = o->d * 0.5 + o->l;
}
