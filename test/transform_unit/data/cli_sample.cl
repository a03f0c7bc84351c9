// Sample program for the hetero-transform smoke test: one kernel to split, one to refuse.
#ifndef FACTOR
#define FACTOR 2.0f
#endif
int row_of(void) { return (int)get_group_id(1); }

__kernel void scale_rows(__global float* m, int width) {
    int x = get_global_id(0);
    m[row_of() * width + x] *= FACTOR;
}

__kernel void count_all(__global int* counter) { atomic_inc(counter); }
