// Writes through a pointer walked with ++, and through a helper choosing between two parameters
// (both may be written; still attributable to parameters).
//@ kernel unpack_pairs
//@ ndrange 1 global=64 local=8
//@ arg in global float2 64 rand r const
//@ arg out global float 256 zero w
//@ expect splittable
//@ kernel pick_side
//@ ndrange 1 global=64 local=16
//@ arg left global float 64 zero w
//@ arg right global float 64 zero w
//@ arg sel global int 64 randint:0:1 r const
//@ expect splittable
__kernel void unpack_pairs(__global const float2 *in, __global float *out)
{
    size_t i = get_global_id(0);
    __global float *p = out + 4 * i;
    float2 v = in[i];
    *p++ = v.x;
    *p++ = v.y;
    *p++ = v.x + v.y;
    *p = v.x * v.y;
}

static __global float *choose(__global float *a, __global float *b, int which)
{
    return which ? a : b;
}

__kernel void pick_side(__global float *left, __global float *right, __global const int *sel)
{
    size_t i = get_global_id(0);
    choose(left, right, sel[i])[i] = (float)i;
}
