// PolyBench atax: tmp = A*x accumulated in global memory inside the loop (as PolyBench/GPU does),
// then y = A^T*tmp with a private accumulator.
//@ kernel atax_kernel1
//@ ndrange 1 global=96 local=8
//@ arg A global float 4608 rand r
//@ arg x global float 48 rand r
//@ arg tmp global float 96 rand rw
//@ arg nx value int 96
//@ arg ny value int 48
//@ expect splittable
//@ uses storeinloop
//@ kernel atax_kernel2
//@ ndrange 1 global=48 local=4
//@ arg A global float 4608 rand r
//@ arg y global float 48 rand w
//@ arg tmp global float 96 rand r
//@ arg nx value int 96
//@ arg ny value int 48
//@ expect splittable
__kernel void atax_kernel1(__global float *A, __global float *x, __global float *tmp, int nx, int ny)
{
    int i = get_global_id(0);
    if (i < nx) {
        tmp[i] = 0;
        for (int j = 0; j < ny; j++)
            tmp[i] += A[i * ny + j] * x[j];
    }
}

__kernel void atax_kernel2(__global float *A, __global float *y, __global float *tmp, int nx, int ny)
{
    int j = get_global_id(0);
    if (j < ny) {
        float acc = 0.0f;
        for (int i = 0; i < nx; i++)
            acc += A[i * ny + j] * tmp[i];
        y[j] = acc;
    }
}
