// Program built from two source strings: the helper and macro come from the first string.
//@ source-before parts/multi_source_helpers.cl
//@ kernel eval_poly
//@ ndrange 1 global=192 local=16
//@ arg x global float 192 rand r
//@ arg y global float 192 zero w
//@ arg coeffs constant float 4 rand r
//@ expect splittable
__kernel void eval_poly(__global float *x, __global float *y, __constant float *coeffs)
{
    size_t i = get_global_id(0);
    y[i] = poly(x[i], coeffs) + (float)POLY_TERMS;
}
