// Barriers and __local memory inside a helper function, called with a __local argument.
//@ kernel block_mean
//@ ndrange 2 global=32,8 local=16,2
//@ arg in global float 256 rand r const
//@ arg means global float 8 zero w
//@ arg scratch local 128
//@ expect splittable
//@ uses barrier localmem
static float tree_sum(__local float *s, int lid, int n)
{
    for (int stride = n / 2; stride > 0; stride /= 2) {
        if (lid < stride)
            s[lid] += s[lid + stride];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    return s[0];
}

__kernel void block_mean(__global const float *in, __global float *means, __local float *scratch)
{
    int lid = get_local_id(1) * get_local_size(0) + get_local_id(0);
    scratch[lid] = in[get_global_id(1) * get_global_size(0) + get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    float total = tree_sum(scratch, lid, 32);
    if (lid == 0)
        means[get_group_id(1) * get_num_groups(0) + get_group_id(0)] = total / 32.0f;
}
