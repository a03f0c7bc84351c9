// PolyBench mvt: x1 += A*y1 and x2 += A^T*y2, accumulated in global memory inside the loop (inout).
//@ kernel mvt_kernel1
//@ ndrange 1 global=64 local=4
//@ arg a global float 4096 rand r
//@ arg x1 global float 64 rand rw
//@ arg y_1 global float 64 rand r
//@ arg n value int 64
//@ expect splittable
//@ uses storeinloop
//@ kernel mvt_kernel2
//@ ndrange 1 global=64 local=8
//@ arg a global float 4096 rand r
//@ arg x2 global float 64 rand rw
//@ arg y_2 global float 64 rand r
//@ arg n value int 64
//@ expect splittable
//@ uses storeinloop
__kernel void mvt_kernel1(__global float *a, __global float *x1, __global float *y_1, int n)
{
    int i = get_global_id(0);
    if (i < n) {
        for (int j = 0; j < n; j++)
            x1[i] += a[i * n + j] * y_1[j];
    }
}

__kernel void mvt_kernel2(__global float *a, __global float *x2, __global float *y_2, int n)
{
    int i = get_global_id(0);
    if (i < n) {
        for (int j = 0; j < n; j++)
            x2[i] += a[j * n + i] * y_2[j];
    }
}
