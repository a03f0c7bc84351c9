// __LINE__ as a value: directly, through macros defined elsewhere, in an expansion spread over
// lines, after a #line directive; __FILE__ where a #line directive names the file (then every
// device and every program agree on it). Split copies must carry the original's line numbers.
//@ kernel line_values
//@ ndrange 1 global=64 local=8
//@ arg out global int 256 zero w
//@ expect splittable
//@ kernel renumbered
//@ ndrange 1 global=64 local=8
//@ arg out global int 128 zero w
//@ expect splittable
//@ kernel named_file
//@ ndrange 1 global=64 local=8
//@ arg out global char 64 zero w
//@ expect splittable
#define HERE __LINE__
#define LINE_PLUS(x) (__LINE__ + (x))
__kernel void line_values(__global int *out)
{
    int i = get_global_id(0);
    out[4 * i] = __LINE__;
    out[4 * i + 1] = HERE;
    out[4 * i + 2] = LINE_PLUS(i
                               );
    out[4 * i + 3] =
        __LINE__ * 1000 + (int)get_group_id(0);
}
#line 500
__kernel void renumbered(__global int *out)
{
    int i = get_global_id(0);
    out[2 * i] = __LINE__;
    out[2 * i + 1] = HERE + i;
}
#line 40 "preproc_named.cl"
__kernel void named_file(__global char *out)
{
    constant char *f = __FILE__;
    int i = get_global_id(0);
    out[i] = f[i % 16] + (char)__LINE__;
}
