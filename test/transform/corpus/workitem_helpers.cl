// Helper functions (nested) call work-item functions; the kernel never calls them directly
// except through the helpers. 2-D NDRange with offset.
//@ kernel helpers_2d
//@ ndrange 2 global=32,16 local=8,4 offset=4,2
//@ arg tags global uint 512 zero w
//@ arg vals global float 512 zero w
//@ arg in global float 512 rand r const
//@ expect splittable
static size_t flat_group(void)
{
    return get_group_id(1) * get_num_groups(0) + get_group_id(0);
}

static size_t row(void) { return get_global_id(1) - get_global_offset(1); }
static size_t col(void) { return get_global_id(0) - get_global_offset(0); }
static size_t width(void) { return get_global_size(0); }

static uint tag(void)
{
    return (uint)(flat_group() * 1000 + get_local_id(0) * 10 + get_local_id(1));
}

__kernel void helpers_2d(__global uint *tags, __global float *vals, __global const float *in)
{
    size_t idx = row() * width() + col();
    tags[idx] = tag();
    vals[idx] = in[idx] * (float)(flat_group() + 1);
}
