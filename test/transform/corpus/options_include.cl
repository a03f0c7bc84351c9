// Uses an #include found through -I and a macro from -D in the build options.
//@ options -I@CORPUS@/include -DSCALE=3.0f
//@ kernel smooth_rows
//@ ndrange 2 global=32,8 local=8,2
//@ arg in global float 256 rand r const
//@ arg out global float 256 zero w
//@ arg width value int 32
//@ expect splittable
#include "corpus_common.h"
__kernel void smooth_rows(__global const float *in, __global float *out, int width)
{
    int x = get_global_id(0), y = get_global_id(1);
    int l = max(x - 1, 0), r = min(x + 1, width - 1);
    out[INDEX2(y, x, width)] = SCALE * smooth3(in[INDEX2(y, l, width)], in[INDEX2(y, x, width)],
                                               in[INDEX2(y, r, width)]);
}
