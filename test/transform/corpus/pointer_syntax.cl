// Unusual but valid ways to store through parameter pointers: i[p], *(p + i), (*p)++ in a helper,
// and a float buffer written only byte by byte (one merge size: 1).
//@ kernel odd_subscripts
//@ ndrange 1 global=64 local=8
//@ arg a global int 64 zero w
//@ arg b global int 64 zero w
//@ arg counts global int 64 randint:-100:100 rw
//@ expect splittable
//@ kernel copy_float_bytes
//@ ndrange 1 global=256 local=32
//@ arg src global float 64 rand r const
//@ arg dst global float 64 zero w store=1
//@ expect splittable
static void bump(__global int *p)
{
    (*p)++;
}

__kernel void odd_subscripts(__global int *a, __global int *b, __global int *counts)
{
    int i = get_global_id(0);
    i[a] = 2 * i;
    *(b + i) = 3 * i;
    bump(&counts[i]);
}

__kernel void copy_float_bytes(__global const float *src, __global float *dst)
{
    size_t i = get_global_id(0);
    ((__global uchar *)dst)[i] = ((__global const uchar *)src)[i] ^ 0x0f;
}
