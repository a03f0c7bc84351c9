// Tiled transpose through a padded static __local tile; output index uses get_group_id.
//@ kernel transpose_tiled
//@ ndrange 2 global=48,32 local=8,8
//@ arg in global float 1536 rand r const
//@ arg out global float 1536 zero w
//@ arg w value int 48
//@ arg h value int 32
//@ expect splittable
//@ uses barrier localmem
#define T 8
__kernel void transpose_tiled(__global const float *in, __global float *out, int w, int h)
{
    __local float tile[T][T + 1];
    int x = get_global_id(0), y = get_global_id(1);
    tile[get_local_id(1)][get_local_id(0)] = in[y * w + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    int ox = get_group_id(1) * T + get_local_id(0);
    int oy = get_group_id(0) * T + get_local_id(1);
    out[oy * h + ox] = tile[get_local_id(0)][get_local_id(1)];
}
