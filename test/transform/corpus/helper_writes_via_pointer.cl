// Writes reach the parameters through a helper's pointer parameter, a pointer returned by a
// helper, pointer arithmetic and a pointer cast (float buffer written as uint: still 4 bytes).
//@ kernel rows_scale
//@ ndrange 2 global=16,16 local=4,4
//@ arg in global float 256 rand r const
//@ arg out global float 256 zero w
//@ arg flipped global float 256 zero w
//@ arg w value int 16
//@ expect splittable
static void store_scaled(__global float *dst, size_t i, float v)
{
    dst[i] = 2.0f * v;
}

static __global float *row_ptr(__global float *base, size_t row, size_t width)
{
    return base + row * width;
}

__kernel void rows_scale(__global const float *in, __global float *out, __global float *flipped, int w)
{
    size_t x = get_global_id(0), y = get_global_id(1);
    __global float *dst = row_ptr(out, y, w);
    store_scaled(dst, x, in[y * w + x]);
    __global uint *bits = (__global uint *)(flipped + y * w);
    bits[x] = as_uint(in[y * w + x]) ^ 0x80000000u;
}
