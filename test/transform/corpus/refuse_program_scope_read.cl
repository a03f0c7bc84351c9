// Program-scope variables (OpenCL 2.0) that another kernel may change: the split kernels run from
// the variants' program, which holds its own instance, so reading them from there is wrong. Also
// a function's static variable, which lives as long as the program. Constants are fine
// (constant_table.cl).
//@ options -cl-std=CL2.0
//@ kernel use_scale
//@ ndrange 1 global=64 local=8
//@ arg out global int 64 zero w
//@ expect refused program-scope variable g_scale
//@ uses programscope
//@ kernel count_calls
//@ ndrange 1 global=64 local=8
//@ arg out global int 64 zero w
//@ expect refused program-scope
//@ uses programscope
__global int g_scale = 1;

__kernel void set_scale(int s)
{
    g_scale = s;
}

__kernel void use_scale(__global int *out)
{
    int i = get_global_id(0);
    out[i] = g_scale * i;
}

__kernel void count_calls(__global int *out)
{
    static __global int calls = 0;
    int i = get_global_id(0);
    out[i] = calls + i;
}
