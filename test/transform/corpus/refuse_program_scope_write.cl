// A program-scope global variable written by the kernel (OpenCL 2.0): state outside any buffer
// argument, so the split cannot merge it (H6).
//@ options -cl-std=CL2.0
//@ kernel remember_last
//@ ndrange 1 global=64 local=8
//@ arg out global int 64 zero w
//@ expect refused program-scope|program scope|global variable|program scope variable
//@ uses programscope
__global int last_index = 0;

__kernel void remember_last(__global int *out)
{
    int i = get_global_id(0);
    out[i] = i;
    last_index = i;
}
