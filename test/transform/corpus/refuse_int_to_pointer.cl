// The written address comes from a buffer's contents (integer to pointer): not attributable (H6).
//@ kernel write_through_address
//@ ndrange 1 global=16 local=4
//@ arg addresses global ulong 16 zero r const
//@ arg data global float 16 zero none
//@ expect refused pointer
__kernel void write_through_address(__global const ulong *addresses, __global float *data)
{
    size_t i = get_global_id(0);
    __global float *p = (__global float *)addresses[i];
    *p = (float)i;
}
