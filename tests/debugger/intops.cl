/* intops.cl - integer conversions, signed/unsigned comparisons and shifts
 * in expressions, against what the kernel computes */
__kernel void ik(__global long *out, uchar uc, char sc, uint ui, short ss, int n, long big)
{
    int one = 1;
    out[0] = one << n;
    out[1] = -7 >> (n + 1);
    out[2] = big << n;
    out[3] = one << (long)(n + 8);
    out[4] = (int)uc + sc + (int)ui + ss;
    out[5] = sc < ui;
}
