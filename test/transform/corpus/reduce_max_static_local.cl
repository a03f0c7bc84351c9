// Per-group maximum of ints in a static __local array, 2-D NDRange; one result per work-group,
// indexed by the flattened group ID (so get_num_groups must be the original launch's).
//@ kernel reduce_max_2d
//@ ndrange 2 global=64,16 local=16,4
//@ arg in global int 1024 randint:-100000:100000 r const
//@ arg out global int 16 zero w
//@ expect splittable
//@ uses barrier localmem
__kernel void reduce_max_2d(__global const int *in, __global int *out)
{
    __local int tile[64];
    int lid = get_local_id(1) * get_local_size(0) + get_local_id(0);
    int gid = get_global_id(1) * get_global_size(0) + get_global_id(0);
    tile[lid] = in[gid];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int stride = 32; stride > 0; stride >>= 1) {
        if (lid < stride)
            tile[lid] = max(tile[lid], tile[lid + stride]);
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        out[get_group_id(1) * get_num_groups(0) + get_group_id(0)] = tile[0];
}
