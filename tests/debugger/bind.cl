/* bind.cl - where breakpoints bind: lines with no code, lines that
 * continue a statement (an expression, a call's arguments), call lines of
 * an inlined function (the transcript bind.inp) */
int scale(int v,
          int k) {
  int r = v * k;
  return r + 1;
}

__kernel void bind(__global int *out, __global const int *in, int n) {
  int gid = get_global_id(0);
  int a = in[gid % 64];

  // a comment line
  int x = a +
          gid *
          n;
  int y = scale(x,
                n);
  {
    y += 2;
  }
  int z = scale(y, 3);
  out[gid] = x + y +
             z;
}
