// PolyBench bicg: s = r*A and q = A*p; the second launch uses a global offset.
//@ kernel bicg_kernel1
//@ ndrange 1 global=64 local=4
//@ arg A global float 6144 rand r const restrict
//@ arg r global float 96 rand r const restrict
//@ arg s global float 64 zero w restrict
//@ arg nx value int 96
//@ arg ny value int 64
//@ expect splittable
//@ kernel bicg_kernel2
//@ ndrange 1 global=88 local=8 offset=8
//@ arg A global float 6144 rand r const restrict
//@ arg p global float 64 rand r const restrict
//@ arg q global float 96 rand w restrict
//@ arg nx value int 96
//@ arg ny value int 64
//@ expect splittable
__kernel void bicg_kernel1(__global const float *restrict A, __global const float *restrict r,
                           __global float *restrict s, int nx, int ny)
{
    int j = get_global_id(0);
    if (j < ny) {
        float acc = 0.0f;
        for (int i = 0; i < nx; i++)
            acc += r[i] * A[i * ny + j];
        s[j] = acc;
    }
}

__kernel void bicg_kernel2(__global const float *restrict A, __global const float *restrict p,
                           __global float *restrict q, int nx, int ny)
{
    int i = get_global_id(0);
    if (i < nx) {
        float acc = 0.0f;
        for (int j = 0; j < ny; j++)
            acc += A[i * ny + j] * p[j];
        q[i] = acc;
    }
}
