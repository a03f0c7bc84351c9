// 7-point 3-D stencil over the interior of an 18x10x10 volume: 3-D NDRange with offset (1,1,1).
//@ kernel stencil3d
//@ ndrange 3 global=16,8,8 local=4,4,2 offset=1,1,1
//@ arg in global float 1800 rand r const
//@ arg out global float 1800 rand w
//@ arg c0 value float 0.5
//@ arg c1 value float 0.0833
//@ expect splittable
#define NX 18
#define NY 10
#define AT(x, y, z) ((z) * NX * NY + (y) * NX + (x))
__kernel void stencil3d(__global const float *in, __global float *out, float c0, float c1)
{
    int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    out[AT(x, y, z)] = c0 * in[AT(x, y, z)]
        + c1 * (in[AT(x - 1, y, z)] + in[AT(x + 1, y, z)] + in[AT(x, y - 1, z)]
                + in[AT(x, y + 1, z)] + in[AT(x, y, z - 1)] + in[AT(x, y, z + 1)]);
}
