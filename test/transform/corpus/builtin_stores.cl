// Global memory written by built-in functions rather than assignments: vstore_half (2-byte
// elements), async_work_group_copy from __local to __global (float elements; that the copy's
// destination may also be read is an accepted over-approximation).
//@ kernel to_half
//@ ndrange 1 global=128 local=16
//@ arg in global float 128 rand r const
//@ arg out global ushort 128 zero w
//@ expect splittable
//@ kernel async_scale
//@ ndrange 1 global=256 local=32
//@ arg in global float 256 rand r const
//@ arg out global float 256 zero w read=?
//@ arg scale value float 1.5
//@ expect splittable
//@ uses barrier localmem
__kernel void to_half(__global const float *in, __global half *out)
{
    size_t i = get_global_id(0);
    vstore_half(in[i] * 3.0f, i, out);
}

__kernel void async_scale(__global const float *in, __global float *out, float scale)
{
    __local float tile[32];
    size_t base = get_group_id(0) * 32;
    event_t e = async_work_group_copy(tile, in + base, 32, 0);
    wait_group_events(1, &e);
    tile[get_local_id(0)] *= scale;
    barrier(CLK_LOCAL_MEM_FENCE);
    e = async_work_group_copy(out + base, tile, 32, 0);
    wait_group_events(1, &e);
}
