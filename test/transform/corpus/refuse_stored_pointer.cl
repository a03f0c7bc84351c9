// Aliasing through stored pointers: the written pointer is loaded from memory (a __local slot,
// a private array indexed by data), so the write is not attributable to one parameter (H6).
//@ kernel pick_through_local_pointer
//@ ndrange 1 global=64 local=8
//@ arg a global float 64 zero w
//@ arg b global float 64 zero w
//@ arg sel global int 8 randint:0:1 r const
//@ expect refused pointer
//@ uses barrier localmem
//@ kernel pick_through_private_array
//@ ndrange 1 global=64 local=8
//@ arg a global float 64 zero w
//@ arg b global float 64 zero w
//@ arg sel global int 64 randint:0:1 r const
//@ expect refused pointer
typedef __global float *global_float_ptr;

__kernel void pick_through_local_pointer(__global float *a, __global float *b, __global const int *sel)
{
    __local global_float_ptr chosen[1];
    if (get_local_id(0) == 0)
        chosen[0] = sel[get_group_id(0)] ? a : b;
    barrier(CLK_LOCAL_MEM_FENCE);
    chosen[0][get_global_id(0)] = 1.0f;
}

__kernel void pick_through_private_array(__global float *a, __global float *b, __global const int *sel)
{
    __global float *targets[2] = {a, b};
    size_t i = get_global_id(0);
    targets[sel[i] & 1][i] = 2.0f;
}
