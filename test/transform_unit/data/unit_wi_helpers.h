// Included by variants_build_test.cpp through -I: helpers calling work-item functions and a kernel,
// defined in a header, need chunk copies too (placed after the program's #include line).
#ifndef UNIT_WI_HELPERS_H
#define UNIT_WI_HELPERS_H
#define UNIT_REAL float
size_t unit_stride(void);
size_t unit_stride(void) { return get_global_size(0); }
UNIT_REAL unit_twice(UNIT_REAL x) { return 2 * x + (UNIT_REAL)(get_num_groups(0) - get_num_groups(0)); }
__kernel void unit_in_header(__global UNIT_REAL* o, int n) {
    for (size_t i = get_global_id(0); i < n; i += unit_stride()) o[i] = unit_twice(o[i]);
}
#endif
