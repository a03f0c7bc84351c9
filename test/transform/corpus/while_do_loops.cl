// Data-dependent while and do-while loops with the store after the loop.
//@ kernel collatz_steps
//@ ndrange 1 global=256 local=16
//@ arg in global uint 256 randint:1:100000 r const
//@ arg steps global uint 256 zero w
//@ expect splittable
//@ kernel digit_sum
//@ ndrange 1 global=256 local=32
//@ arg in global uint 256 randint:0:2000000000 r const
//@ arg sums global uint 256 zero w
//@ expect splittable
__kernel void collatz_steps(__global const uint *in, __global uint *steps)
{
    size_t i = get_global_id(0);
    uint n = in[i], count = 0;
    while (n != 1 && count < 1000) {
        n = (n & 1) ? 3 * n + 1 : n / 2;
        count++;
    }
    steps[i] = count;
}

__kernel void digit_sum(__global const uint *in, __global uint *sums)
{
    size_t i = get_global_id(0);
    uint v = in[i], s = 0;
    do {
        s += v % 10;
        v /= 10;
    } while (v != 0);
    sums[i] = s;
}
