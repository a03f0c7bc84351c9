// Non-uniform work-groups (OpenCL 2.0): 100 work-items in groups of 16, the last group has 4.
//@ options -cl-std=CL2.0
//@ kernel nonuniform_tag
//@ requires nonuniform
//@ requires cl20
//@ ndrange 1 global=100 local=16
//@ arg out global uint 100 zero w
//@ expect splittable
__kernel void nonuniform_tag(__global uint *out)
{
    size_t i = get_global_id(0);
    out[i] = get_group_id(0) * 10000 + get_local_size(0) * 100 + get_enqueued_local_size(0);
}
