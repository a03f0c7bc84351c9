// Macros generating code. Statements, expressions and a helper made by macros are splittable.
// Whole kernels stamped out by a macro (name and body inside the expansion) cannot be rewritten
// as text edits at their source extents: today they are refused with that reason and run whole.
//@ kernel axpy_float
//@ ndrange 1 global=256 local=16
//@ arg x global float 256 rand r const
//@ arg y global float 256 rand rw
//@ arg a value float 1.25
//@ expect refused macro
//@ kernel axpy_int
//@ ndrange 1 global=256 local=32
//@ arg x global int 256 randint:-1000:1000 r const
//@ arg y global int 256 randint:-1000:1000 rw
//@ arg a value int -3
//@ expect refused macro
//@ kernel axpy_double
//@ ndrange 1 global=256 local=8
//@ arg x global double 256 rand r const
//@ arg y global double 256 rand rw
//@ arg a value double 0.375
//@ expect refused macro
//@ kernel macro_body_saxpy
//@ ndrange 1 global=256 local=16
//@ arg x global float 256 rand r const
//@ arg y global float 256 rand rw
//@ arg z global float 256 zero w
//@ arg a value float -0.5
//@ expect splittable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define DEFINE_AXPY(NAME, T)                                          \
    __kernel void NAME(__global const T *x, __global T *y, T a)       \
    {                                                                 \
        size_t i = get_global_id(0);                                  \
        y[i] = a * x[i] + y[i];                                       \
    }
DEFINE_AXPY(axpy_float, float)
DEFINE_AXPY(axpy_int, int)
DEFINE_AXPY(axpy_double, double)

#define GID get_global_id(0)
#define AXPY_INTO(dst, alpha, src, acc) dst[GID] = (alpha) * src[GID] + acc[GID]
#define DEFINE_SQUARE(T) static T square_##T(T v) { return v * v; }
DEFINE_SQUARE(float)

__kernel void macro_body_saxpy(__global const float *x, __global float *y, __global float *z, float a)
{
    AXPY_INTO(z, a, x, y);
    y[GID] = square_float(y[GID]);
}
