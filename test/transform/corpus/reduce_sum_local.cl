// Tree reduction of each work-group's elements through a __local argument and barriers;
// work-item 0 writes the group's partial sum.
//@ kernel reduce_sum
//@ ndrange 1 global=512 local=32
//@ arg in global float 500 rand r const
//@ arg partial global float 16 rand w
//@ arg scratch local 128
//@ arg n value int 500
//@ expect splittable
//@ uses barrier localmem
__kernel void reduce_sum(__global const float *in, __global float *partial, __local float *scratch, int n)
{
    int gid = get_global_id(0), lid = get_local_id(0);
    scratch[lid] = gid < n ? in[gid] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
        if (lid < stride)
            scratch[lid] += scratch[lid + stride];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}
