// Build options an application may pass: -cl-std, optimisation and warning flags, -D with a value
// and without: the analysis parses with them and the variants build with them.
//@ options -cl-std=CL1.2 -cl-mad-enable -cl-no-signed-zeros -w -DK=3 -DUSE_BIAS
//@ kernel poly_bias
//@ ndrange 1 global=128 local=16
//@ arg x global float 128 rand r const
//@ arg y global float 128 zero w
//@ arg bias value float 0.25
//@ expect splittable
__kernel void poly_bias(__global const float *x, __global float *y, float bias)
{
    size_t i = get_global_id(0);
    float v = x[i];
    float acc = 0.0f;
    for (int k = 0; k < K; k++)
        acc = acc * v + (float)(k + 1);
#ifdef USE_BIAS
    acc += bias;
#endif
    y[i] = acc;
}
