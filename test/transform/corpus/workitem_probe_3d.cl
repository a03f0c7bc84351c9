// Every work-item writes what each work-item function returns, in a 3-D NDRange with a global
// offset: the chunk variant must reproduce the original launch's values exactly.
//@ kernel workitem_probe_3d
//@ ndrange 3 global=16,6,4 local=4,3,2 offset=2,1,3
//@ arg out global uint 8448 zero w
//@ expect splittable
//@ uses storeinloop
#define GX 16
#define GY 6
#define NV 22
__kernel void workitem_probe_3d(__global uint *out)
{
    uint x = get_global_id(0) - 2, y = get_global_id(1) - 1, z = get_global_id(2) - 3;
    __global uint *o = out + ((z * GY + y) * GX + x) * NV;
    for (uint d = 0; d < 3; d++) {
        o[d] = get_global_id(d);
        o[3 + d] = get_local_id(d);
        o[6 + d] = get_group_id(d);
        o[9 + d] = get_num_groups(d);
        o[12 + d] = get_global_size(d);
        o[15 + d] = get_global_offset(d);
        o[18 + d] = get_local_size(d);
    }
    o[21] = get_work_dim();
}
