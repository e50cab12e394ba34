#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void vmath(__global const float *a, __global const float *b,
                    __global float4 *out, __global uchar4 *u,
                    __global double *d, __local float4 *tmp, ulong big)
{
    int gid = get_global_id(0);
    int lid = get_local_id(0);
    float4 va = vload4(gid, a);
    float4 vb = vload4(gid, b);
    float dp = dot(va, vb);
    float4 cr = cross(va, vb);
    float len = length(vb);
    int4 bits = as_int4(va);
    uchar4 sat = convert_uchar4_sat(va * SCALE);
    tmp[lid] = va + vb;
    barrier(CLK_LOCAL_MEM_FENCE);
    float4 nb = tmp[(lid + 1) % get_local_size(0)];
    ulong wrap = big + (ulong)gid * 4;
    double dd = (double)dp / 3.0;
    out[gid] = nb * (float)N + cr;
    u[gid] = sat;
    d[gid] = dd + (double)(wrap & 0xff);
}
