// PolyBench fdtd-2d: three in-place field updates (inout, no loops), one program.
//@ kernel fdtd_step1
//@ ndrange 2 global=32,24 local=8,4
//@ arg _fict_ global float 8 rand r
//@ arg ex global float 768 rand none
//@ arg ey global float 768 rand rw
//@ arg hz global float 768 rand r
//@ arg t value int 3
//@ arg nx value int 24
//@ arg ny value int 32
//@ expect splittable
//@ kernel fdtd_step2
//@ ndrange 2 global=32,24 local=4,4
//@ arg ex global float 768 rand rw
//@ arg ey global float 768 rand none
//@ arg hz global float 768 rand r
//@ arg nx value int 24
//@ arg ny value int 32
//@ expect splittable
//@ kernel fdtd_step3
//@ ndrange 2 global=32,24 local=8,2
//@ arg ex global float 768 rand r
//@ arg ey global float 768 rand r
//@ arg hz global float 768 rand rw
//@ arg nx value int 24
//@ arg ny value int 32
//@ expect splittable
__kernel void fdtd_step1(__global float *_fict_, __global float *ex, __global float *ey,
                         __global float *hz, int t, int nx, int ny)
{
    int j = get_global_id(0), i = get_global_id(1);
    if ((i < nx) && (j < ny)) {
        if (i == 0)
            ey[i * ny + j] = _fict_[t];
        else
            ey[i * ny + j] = ey[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
    }
}

__kernel void fdtd_step2(__global float *ex, __global float *ey, __global float *hz, int nx, int ny)
{
    int j = get_global_id(0), i = get_global_id(1);
    if ((i < nx) && (j < ny) && (j > 0))
        ex[i * ny + j] = ex[i * ny + j] - 0.5f * (hz[i * ny + j] - hz[i * ny + (j - 1)]);
}

__kernel void fdtd_step3(__global float *ex, __global float *ey, __global float *hz, int nx, int ny)
{
    int j = get_global_id(0), i = get_global_id(1);
    if ((i < (nx - 1)) && (j < (ny - 1)))
        hz[i * ny + j] = hz[i * ny + j]
            - 0.7f * (ex[i * ny + (j + 1)] - ex[i * ny + j] + ey[(i + 1) * ny + j] - ey[i * ny + j]);
}
