// Macros from -D build options that the program #undefs later: inside a kernel (its copies must
// still see the option's value at their start), and between two kernels.
//@ options -DBIAS=5 -DTWICE -DLIMIT=100
//@ kernel bias_then_plain
//@ ndrange 1 global=128 local=16
//@ arg in global int 128 randint:-1000:1000 r const
//@ arg out global int 128 zero w
//@ arg out2 global int 128 zero w
//@ expect splittable
//@ kernel limited
//@ ndrange 1 global=128 local=16
//@ arg in global int 128 randint:-1000:1000 r const
//@ arg out global int 128 zero w
//@ expect splittable
//@ kernel unlimited
//@ ndrange 1 global=128 local=16
//@ arg in global int 128 randint:-1000:1000 r const
//@ arg out global int 128 zero w
//@ expect splittable
__kernel void bias_then_plain(__global const int *in, __global int *out, __global int *out2)
{
    int i = get_global_id(0);
#ifdef BIAS
    out[i] = in[i] + BIAS;
#else
    out[i] = in[i] - 1;
#endif
#undef BIAS
#ifdef TWICE
    out2[i] = in[i] * 2;
#undef TWICE
#else
    out2[i] = in[i] * 7;
#endif
}

__kernel void limited(__global const int *in, __global int *out)
{
    int i = get_global_id(0);
#ifdef LIMIT
    out[i] = min(in[i], LIMIT);
#else
    out[i] = in[i];
#endif
}
#undef LIMIT
__kernel void unlimited(__global const int *in, __global int *out)
{
    int i = get_global_id(0);
#ifdef LIMIT
    out[i] = min(in[i], LIMIT);
#else
    out[i] = in[i];
#endif
}
