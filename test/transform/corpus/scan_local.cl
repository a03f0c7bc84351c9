// Hillis-Steele inclusive scan inside each work-group with double-buffered static __local arrays;
// writes the scanned values and each group's total.
//@ kernel scan_inclusive
//@ ndrange 1 global=256 local=32
//@ arg in global int 256 randint:-50:50 r
//@ arg out global int 256 zero w
//@ arg block_sums global int 8 zero w
//@ expect splittable
//@ uses barrier localmem
__kernel void scan_inclusive(__global int *in, __global int *out, __global int *block_sums)
{
    __local int buf[2][32];
    int lid = get_local_id(0);
    int cur = 0;
    buf[cur][lid] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int offset = 1; offset < (int)get_local_size(0); offset <<= 1) {
        int v = buf[cur][lid];
        if (lid >= offset)
            v += buf[cur][lid - offset];
        buf[1 - cur][lid] = v;
        cur = 1 - cur;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = buf[cur][lid];
    if (lid == get_local_size(0) - 1)
        block_sums[get_group_id(0)] = buf[cur][lid];
}
