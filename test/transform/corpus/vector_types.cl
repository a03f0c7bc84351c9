// Vector element types: float4 arithmetic with a swizzle, int2 swizzled in place,
// vload/vstore on scalar float and short buffers (merge elements stay scalar: 4 and 2 bytes).
//@ kernel float4_axpy_swizzle
//@ ndrange 1 global=128 local=16
//@ arg a global float4 128 rand r const
//@ arg b global float4 128 zero w
//@ arg c global float4 128 rand r const
//@ arg s value float 0.5
//@ expect splittable
//@ kernel int2_swap
//@ ndrange 1 global=128 local=8
//@ arg p global int2 128 randint:-500:500 rw
//@ expect splittable
//@ kernel vload_vstore4
//@ ndrange 1 global=64 local=8
//@ arg in global float 256 rand r const
//@ arg out global float 256 zero w
//@ expect splittable
//@ kernel short_vstore2
//@ ndrange 1 global=128 local=16
//@ arg in global short 256 randint:-3000:3000 r const
//@ arg out global short 256 zero w
//@ expect splittable
__kernel void float4_axpy_swizzle(__global const float4 *a, __global float4 *b, __global const float4 *c, float s)
{
    size_t i = get_global_id(0);
    b[i] = a[i] * s + c[i].zyxw;
}

__kernel void int2_swap(__global int2 *p)
{
    size_t i = get_global_id(0);
    p[i].xy = p[i].yx + (int2)(1, -1);
}

__kernel void vload_vstore4(__global const float *in, __global float *out)
{
    size_t i = get_global_id(0);
    float4 v = vload4(i, in);
    vstore4(v.wzyx * 2.0f, i, out);
}

__kernel void short_vstore2(__global const short *in, __global short *out)
{
    size_t i = get_global_id(0);
    short2 v = vload2(i, in);
    vstore2(v.yx, i, out);
}
