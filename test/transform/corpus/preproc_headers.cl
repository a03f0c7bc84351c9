// Helpers from #include'd headers (include/preproc_*.h). A helper's copy stands after the #include
// line, where the header has ended: exact only when nothing after the helper in the header changes
// the preprocessor state and the helper uses no position.
//@ options -I@CORPUS@/include
//@ kernel header_helper
//@ ndrange 1 global=64 local=8
//@ arg out global int 64 zero w
//@ expect splittable
//@ kernel header_late_define
//@ ndrange 1 global=64 local=8
//@ arg out global int 64 zero w
//@ expect refused LATE_OFFSET
//@ kernel header_position
//@ ndrange 1 global=64 local=8
//@ arg out global int 64 zero w
//@ expect refused __LINE__
#include "preproc_helpers.h"
#include "preproc_late_define.h"
#define TAG_OFFSET 3
__kernel void header_helper(__global int *out)
{
    int i = get_global_id(0);
    out[i] = group_tag() + i;
}

__kernel void header_late_define(__global int *out)
{
    int i = get_global_id(0);
    out[i] = late_tag() * 1000 + i;
}

__kernel void header_position(__global int *out)
{
    int i = get_global_id(0);
    out[i] = header_line() + i;
}
