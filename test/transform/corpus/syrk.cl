// PolyBench syrk: C = alpha*A*A^T + beta*C, 2-D, accumulated in global memory inside the loop.
//@ kernel syrk
//@ ndrange 2 global=32,32 local=8,4
//@ arg a global float 1024 rand r
//@ arg c global float 1024 rand rw
//@ arg alpha value float 0.25
//@ arg beta value float 1.5
//@ arg m value int 32
//@ arg n value int 32
//@ expect splittable
//@ uses storeinloop
__kernel void syrk(__global float *a, __global float *c, float alpha, float beta, int m, int n)
{
    int j = get_global_id(0);
    int i = get_global_id(1);
    if ((i < n) && (j < n)) {
        c[i * n + j] *= beta;
        for (int k = 0; k < m; k++)
            c[i * n + j] += alpha * a[i * m + k] * a[j * m + k];
    }
}
