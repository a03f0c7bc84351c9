// Per-group histogram with atomics on __local bins only (no global atomics): splittable.
//@ kernel histogram16
//@ ndrange 1 global=512 local=32
//@ arg in global uint 512 randint:0:1000 r const
//@ arg out global uint 256 zero w
//@ expect splittable
//@ uses barrier localmem localatomics
__kernel void histogram16(__global const uint *in, __global uint *out)
{
    __local uint bins[16];
    int lid = get_local_id(0);
    if (lid < 16)
        bins[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&bins[in[get_global_id(0)] & 15]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < 16)
        out[get_group_id(0) * 16 + lid] = bins[lid];
}
