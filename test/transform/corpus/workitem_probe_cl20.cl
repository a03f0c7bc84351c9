// OpenCL 2.0 work-item functions (linear IDs, enqueued local size) in a 2-D NDRange with offset.
//@ options -cl-std=CL2.0
//@ kernel workitem_probe_cl20
//@ requires cl20
//@ ndrange 2 global=24,12 local=4,4 offset=3,5
//@ arg out global ulong 2304 zero w
//@ expect splittable
__kernel void workitem_probe_cl20(__global ulong *out)
{
    size_t x = get_global_id(0) - 3, y = get_global_id(1) - 5;
    __global ulong *o = out + (y * 24 + x) * 8;
    o[0] = get_global_linear_id();
    o[1] = get_local_linear_id();
    o[2] = get_enqueued_local_size(0);
    o[3] = get_enqueued_local_size(1);
    o[4] = get_group_id(0);
    o[5] = get_group_id(1);
    o[6] = get_num_groups(0) * 100 + get_num_groups(1);
    o[7] = get_global_size(0) * 1000 + get_global_offset(1);
}
