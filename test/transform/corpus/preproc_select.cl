// Conditional compilation selecting a kernel's body, pragmas between and inside kernels, attributes,
// and declarations after a kernel: the copies stand in the same conditional group, under the same
// pragmas, and see the same declarations as the original.
//@ options -DUSE_FAST -DWIDTH=4
//@ kernel select_body
//@ ndrange 1 global=128 local=16
//@ arg in global float 128 rand r const
//@ arg out global float 128 zero w
//@ expect splittable
//@ kernel unrolled_double
//@ ndrange 1 global=64 local=8
//@ arg in global float 256 rand r const
//@ arg out global float 64 zero w
//@ expect splittable
//@ kernel overload_late
//@ ndrange 1 global=64 local=8
//@ arg in global int 64 randint:-50:50 r const
//@ arg out global float 64 zero w
//@ expect splittable
#ifdef USE_FAST
__kernel void select_body(__global const float *in, __global float *out)
{
    int i = get_global_id(0);
    out[i] = in[i] * 2.0f + (float)get_group_id(0);
}
#else
__kernel void select_body(__global const float *in, __global float *out)
{
    int i = get_global_id(0);
    out[i] = in[i] * 3.0f - (float)get_group_id(0);
}
#endif

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__attribute__((work_group_size_hint(8, 1, 1))) __attribute__((vec_type_hint(float)))
__kernel void unrolled_double(__global const float *in, __global float *out)
{
    int i = get_global_id(0);
    double acc = 0.0;
#pragma unroll
    for (int k = 0; k < WIDTH; k++)
        acc += (double)in[i * WIDTH + k] * 0.1;
    out[i] = (float)acc;
}
#pragma OPENCL EXTENSION cl_khr_fp64 : disable

__attribute__((overloadable)) float pick(float x)
{
    return x + (float)get_group_id(0);
}
__kernel void overload_late(__global const int *in, __global float *out)
{
    int i = get_global_id(0);
    out[i] = pick(in[i]);
}
// Declared after the kernel: neither the kernel nor its copies may call it.
__attribute__((overloadable)) float pick(int x)
{
    return (float)(x * 2) + (float)get_group_id(0);
}
