// Double-precision matrix-vector product: 8-byte merge elements.
//@ kernel dgemv
//@ ndrange 1 global=64 local=8
//@ arg A global double 2048 rand r const
//@ arg x global double 32 rand r const
//@ arg y global double 64 rand rw
//@ arg beta value double 0.5
//@ arg m value int 32
//@ expect splittable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void dgemv(__global const double *A, __global const double *x, __global double *y, double beta, int m)
{
    size_t i = get_global_id(0);
    double acc = 0.0;
    for (int j = 0; j < m; j++)
        acc += A[i * m + j] * x[j];
    y[i] = beta * y[i] + acc;
}
