// PolyBench covariance: column means, then the symmetric matrix; covar writes row j1 and column j1
// of symmat (disjoint per work-item) and accumulates in global memory inside the loop.
//@ kernel mean_kernel
//@ ndrange 1 global=32 local=4
//@ arg mean global float 32 zero rw
//@ arg data global float 1536 rand r
//@ arg float_n value float 48.0
//@ arg m value int 32
//@ arg n value int 48
//@ expect splittable
//@ uses storeinloop
//@ kernel covar_kernel
//@ ndrange 1 global=32 local=2
//@ arg symmat global float 1024 rand rw
//@ arg data global float 1536 rand r
//@ arg m value int 32
//@ arg n value int 48
//@ expect splittable
//@ uses storeinloop
__kernel void mean_kernel(__global float *mean, __global float *data, float float_n, int m, int n)
{
    int j = get_global_id(0);
    if (j < m) {
        mean[j] = 0.0f;
        for (int i = 0; i < n; i++)
            mean[j] += data[i * m + j];
        mean[j] /= float_n;
    }
}

__kernel void covar_kernel(__global float *symmat, __global float *data, int m, int n)
{
    int j1 = get_global_id(0);
    if (j1 < m) {
        for (int j2 = j1; j2 < m; j2++) {
            symmat[j1 * m + j2] = 0.0f;
            for (int i = 0; i < n; i++)
                symmat[j1 * m + j2] += data[i * m + j1] * data[i * m + j2];
            symmat[j2 * m + j1] = symmat[j1 * m + j2];
        }
    }
}
