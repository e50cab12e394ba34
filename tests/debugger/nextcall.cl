/* nextcall.cl - lines whose statement is a call of an inlined helper:
 * next stops at each, finish at the next call it returns into */
float poly(float x, int deg)
{
    float acc = 0.0f;
    for (int k = deg; k >= 0; k--) {
        acc = acc * x + (float)(k + 1);
    }
    return acc;
}

int clampi(int v, int lo, int hi)
{
    if (v < lo)
        return lo;
    if (v > hi)
        return hi;
    return v;
}

__kernel void hk(__global const float *in, __global float *out, __global int *idx)
{
    int gid = get_global_id(0);
    float x = in[gid];
    float p = poly(x, 3);
    int j = clampi(gid * 3 - 2, 0, 7);
    idx[gid] = j;
    out[gid] = p;
}
