// One helper (calling work-item functions) shared by a splittable kernel and a refused one: the
// rewrite must keep the refused kernel intact while threading launch values into the split one.
//@ kernel stamp_ids
//@ ndrange 2 global=16,12 local=4,4 offset=8,4
//@ arg out global uint 192 zero w
//@ expect splittable
//@ kernel count_ids
//@ ndrange 2 global=16,12 local=4,4
//@ arg counter global uint 1 zero rw
//@ arg out global uint 192 zero w
//@ expect refused atomic
//@ uses globalatomics
static uint flat_group_id(void)
{
    return get_group_id(1) * get_num_groups(0) + get_group_id(0);
}

static uint position(void)
{
    return (get_global_id(1) - get_global_offset(1)) * get_global_size(0) + get_global_id(0) - get_global_offset(0);
}

__kernel void stamp_ids(__global uint *out)
{
    out[position()] = flat_group_id() * 100 + get_local_id(1) * 4 + get_local_id(0);
}

__kernel void count_ids(__global uint *counter, __global uint *out)
{
    out[position()] = atomic_inc(counter) + flat_group_id();
}
