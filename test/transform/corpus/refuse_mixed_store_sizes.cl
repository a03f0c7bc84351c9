// One buffer written through 4-byte floats and single bytes: no merge granularity fits (H2).
//@ kernel float_and_bytes
//@ ndrange 1 global=64 local=8
//@ arg out global float 64 zero w
//@ expect refused size
__kernel void float_and_bytes(__global float *out)
{
    size_t i = get_global_id(0);
    out[i] = (float)i;
    ((__global uchar *)out)[4 * i + 3] = 0x7f;
}
