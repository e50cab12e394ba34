__kernel void scale(__global float *data, int n, float k) {
  int i = get_global_id(0);
  float acc = 0.0f;
  if (i < n)
    acc = data[i] * k;
  for (int j = 0; j < 4; j++) {
    acc += j;
  }
  data[i] = acc;
}
