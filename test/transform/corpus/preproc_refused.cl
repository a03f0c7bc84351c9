// Values that differ between a kernel and its split copies whatever the placement: the program's
// file name as each backend and each program calls it, __COUNTER__ (one more per expansion),
// the compile time. Such kernels are not split.
//@ kernel unnamed_file
//@ ndrange 1 global=16 local=4
//@ arg out global int 16 zero w
//@ expect refused __FILE__
//@ kernel counted
//@ ndrange 1 global=16 local=4
//@ arg out global int 16 zero w
//@ expect refused __COUNTER__
//@ kernel compile_time
//@ ndrange 1 global=16 local=4
//@ arg out global char 16 zero w
//@ expect refused __TIME__
__kernel void unnamed_file(__global int *out)
{
    int i = get_global_id(0);
    out[i] = (int)sizeof(__FILE__) + i;
}

#define NEXT_ID __COUNTER__
__kernel void counted(__global int *out)
{
    int i = get_global_id(0);
    out[i] = NEXT_ID * 10 + NEXT_ID + i;
}

#define STAMP __TIME__
__kernel void compile_time(__global char *out)
{
    constant char *t = STAMP;
    int i = get_global_id(0);
    out[i] = t[i % 8];
}
