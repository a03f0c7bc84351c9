// 3x3 box blur on 8-bit pixels, clamped at the borders: merge elements are single bytes.
//@ kernel blur3x3_uchar
//@ ndrange 2 global=64,32 local=16,4
//@ arg in global uchar 2048 randint:0:255 r const
//@ arg out global uchar 2048 zero w
//@ arg w value int 64
//@ arg h value int 32
//@ expect splittable
__kernel void blur3x3_uchar(__global const uchar *in, __global uchar *out, int w, int h)
{
    int x = get_global_id(0), y = get_global_id(1);
    uint sum = 0;
    for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
            sum += in[clamp(y + dy, 0, h - 1) * w + clamp(x + dx, 0, w - 1)];
    out[y * w + x] = (uchar)(sum / 9);
}
