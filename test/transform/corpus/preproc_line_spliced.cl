// A #line directive spread over several physical lines (a line splice in it, or a comment running
// onto the next line): compilers disagree on which line the new number belongs to (clang counts
// from the line of the number, the standard from the line after the directive), so the lines after
// it are not known and the kernels there are not split. Kernels before it are.
//@ kernel before_it
//@ ndrange 1 global=32 local=8
//@ arg out global int 32 zero w
//@ expect splittable
//@ kernel after_splice
//@ ndrange 1 global=32 local=8
//@ arg out global int 32 zero w
//@ expect refused #line
//@ kernel after_comment
//@ ndrange 1 global=32 local=8
//@ arg out global int 32 zero w
//@ expect refused #line
__kernel void before_it(__global int *out)
{
    int i = get_global_id(0);
    out[i] = __LINE__ + i;
}
#line 40 "spliced_na\
me.cl"
__kernel void after_splice(__global int *out)
{
    int i = get_global_id(0);
    out[i] = __LINE__ + i;
}
#line 80 /* a comment that runs
            onto the next line */
__kernel void after_comment(__global int *out)
{
    int i = get_global_id(0);
    out[i] = __LINE__ + i;
}
