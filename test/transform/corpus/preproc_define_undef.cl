// Macros defined, undefined and redefined around and inside kernels (Khronos CTS compiler
// preprocessor_define_udef and variations). A kernel's split copies must be compiled under the
// macros its original saw, although they stand after it in the rewritten program.
//@ kernel define_undef
//@ ndrange 1 global=256 local=16
//@ arg src global int 256 randint:-1000:1000 r const
//@ arg dstA global int 256 zero w
//@ arg dstB global int 256 zero w
//@ expect splittable
//@ kernel local_macro
//@ ndrange 1 global=128 local=8
//@ arg in global int 128 randint:-1000:1000 r const
//@ arg out global int 128 zero w
//@ expect splittable
//@ kernel redefine_inside
//@ ndrange 2 global=16,8 local=4,2
//@ arg in global int 128 randint:-1000:1000 r const
//@ arg out global int 128 zero rw
//@ expect splittable
//@ kernel scale_first
//@ ndrange 1 global=64 local=8
//@ arg in global float 64 rand r const
//@ arg out global float 64 zero w
//@ expect splittable
//@ kernel scale_second
//@ ndrange 1 global=64 local=8
//@ arg in global float 64 rand r const
//@ arg out global float 64 zero w
//@ expect splittable
#define VALUE
__kernel void define_undef(__global const int *src, __global int *dstA, __global int *dstB)
{
    int tid = get_global_id(0);
#ifdef VALUE
    dstA[tid] = src[tid] * 2;
#else
    dstA[tid] = src[tid] * 4;
#endif

#undef VALUE
#ifdef VALUE
    dstB[tid] = src[tid] * 2;
#else
    dstB[tid] = src[tid] * 4;
#endif
}

// A macro of the kernel's own, defined and undefined inside it.
__kernel void local_macro(__global const int *in, __global int *out)
{
#define STEP 3
#define AT(i) in[(i)]
    int i = get_global_id(0);
    out[i] = AT(i) * STEP + (int)get_group_id(0);
#undef AT
#undef STEP
}

// The body changes a macro its own #if tests: copies must start from MODE 1 again.
#define MODE 1
__kernel void redefine_inside(__global const int *in, __global int *out)
{
    int i = get_global_id(1) * get_global_size(0) + get_global_id(0);
#if MODE == 1
    out[i] = in[i] + 10;
#undef MODE
#define MODE 2
#elif MODE == 2
    out[i] = in[i] + 20;
#endif
#if MODE == 2
    out[i] = out[i] * 3 + (int)get_group_id(1);
#endif
}

// One macro, redefined between two kernels.
#undef MODE
#define FACTOR 2.0f
__kernel void scale_first(__global const float *in, __global float *out)
{
    int i = get_global_id(0);
    out[i] = in[i] * FACTOR;
}
#undef FACTOR
#define FACTOR 5.0f
__kernel void scale_second(__global const float *in, __global float *out)
{
    int i = get_global_id(0);
    out[i] = in[i] * FACTOR;
}
