// Jacobi-1D step, out of place; boundary work-items return early.
//@ kernel jacobi1d
//@ ndrange 1 global=256 local=16
//@ arg A global float 256 rand r const
//@ arg B global float 256 rand w
//@ arg n value int 256
//@ expect splittable
__kernel void jacobi1d(__global const float *A, __global float *B, int n)
{
    int i = get_global_id(0);
    if (i == 0 || i >= n - 1)
        return;
    B[i] = 0.33333f * (A[i - 1] + A[i] + A[i + 1]);
}
