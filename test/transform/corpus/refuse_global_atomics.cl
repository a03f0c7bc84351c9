// Global atomics, directly and inside a helper function: must be refused (H6).
//@ kernel count_positive
//@ ndrange 1 global=128 local=16
//@ arg in global float 128 rand r
//@ arg count global int 1 zero rw
//@ expect refused atomic
//@ uses globalatomics
//@ kernel bump_through_helper
//@ ndrange 1 global=128 local=16
//@ arg in global int 128 randint:0:10 r
//@ arg counters global uint 16 zero rw
//@ expect refused atomic
//@ uses globalatomics
__kernel void count_positive(__global float *in, __global int *count)
{
    if (in[get_global_id(0)] > 0.0f)
        atomic_add(&count[0], 1);
}

static void bump(__global uint *slot)
{
    atomic_inc(slot);
}

__kernel void bump_through_helper(__global int *in, __global uint *counters)
{
    bump(&counters[in[get_global_id(0)] & 15]);
}
