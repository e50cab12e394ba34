/* tile.cl - a tiled 2-D matrix product: __local 2-D arrays, barriers, a vector */
#define T 4
__kernel void mm(__global const float *A, __global const float *B, __global float *C, int n) {
  __local float As[T][T];
  __local float Bs[T][T];
  int row = get_global_id(1), col = get_global_id(0);
  int ly = get_local_id(1), lx = get_local_id(0);
  float sum = 0.0f;
  for (int t = 0; t < n / T; t++) {
    As[ly][lx] = A[row * n + t * T + lx];
    Bs[ly][lx] = B[(t * T + ly) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < T; k++)
      sum += As[ly][k] * Bs[k][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  float4 v = (float4)(sum, row, col, 1.0f);
  C[row * n + col] = v.x + v.w - 1.0f;
}
