// Writing an image cannot be merged per element (H6).
//@ kernel fill_image
//@ ndrange 2 global=16,16 local=4,4
//@ arg img image
//@ arg colors global float4 256 rand r const
//@ expect refused image
//@ uses images
__kernel void fill_image(__write_only image2d_t img, __global const float4 *colors)
{
    int x = get_global_id(0), y = get_global_id(1);
    write_imagef(img, (int2)(x, y), colors[y * 16 + x]);
}
