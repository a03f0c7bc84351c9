// Jacobi-2D step over the interior of a 34x34 grid: the NDRange starts at global offset (1,1).
//@ kernel jacobi2d
//@ ndrange 2 global=32,32 local=8,4 offset=1,1
//@ arg A global float 1156 rand r
//@ arg B global float 1156 rand w
//@ arg n value int 34
//@ expect splittable
__kernel void jacobi2d(__global float *A, __global float *B, int n)
{
    int j = get_global_id(0);
    int i = get_global_id(1);
    B[i * n + j] = 0.2f * (A[i * n + j] + A[i * n + j - 1] + A[i * n + j + 1]
                           + A[(i + 1) * n + j] + A[(i - 1) * n + j]);
}
