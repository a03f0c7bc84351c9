// Helpers for preproc_headers.cl. They call work-item functions, so split copies need copies of
// them, which the rewriter places after the program's #include line.
#ifndef PREPROC_HELPERS_H
#define PREPROC_HELPERS_H
#define ROW_STRIDE 1000
// Nothing after it changes a macro: its copy is exact.
static int group_tag(void)
{
#ifdef TAG_OFFSET
    return (int)get_group_id(0) * ROW_STRIDE + TAG_OFFSET;
#else
    return (int)get_group_id(0) * ROW_STRIDE;
#endif
}
#endif
