// Padded 1-D launch (global > n) with early returns; some elements stay untouched (inout).
//@ kernel scale_padded
//@ ndrange 1 global=320 local=16
//@ arg a global float 300 rand rw
//@ arg b global float 300 rand r const
//@ arg s value float 3.0
//@ arg n value int 300
//@ expect splittable
__kernel void scale_padded(__global float *a, __global const float *b, float s, int n)
{
    int i = get_global_id(0);
    if (i >= n)
        return;
    if (b[i] < -0.5f)
        return;
    a[i] = a[i] * s + b[i];
}
