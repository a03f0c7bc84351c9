// Read-only program-scope __constant table and a __constant kernel argument: splittable.
//@ kernel weighted5
//@ ndrange 1 global=128 local=16
//@ arg in global float 128 rand r const
//@ arg out global float 128 zero w
//@ arg bias constant float 4 rand r
//@ arg n value int 128
//@ expect splittable
//@ uses programscope
__constant float weights[5] = {0.1f, 0.2f, 0.4f, 0.2f, 0.1f};

__kernel void weighted5(__global const float *in, __global float *out, __constant float *bias, int n)
{
    int i = get_global_id(0);
    float acc = bias[i % 4];
    for (int k = 0; k < 5; k++)
        acc += weights[k] * in[clamp(i + k - 2, 0, n - 1)];
    out[i] = acc;
}
