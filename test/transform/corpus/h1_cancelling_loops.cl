// H1 traps: every element is modified in global memory inside loops and ends equal to its
// original value; long loops in few work-groups, so the status word moves while
// groups are inside them. If an abort after the first store let a partial value survive, the merge
// (cpu == orig, so gpu wins) would keep it.
//@ kernel h1_add_then_subtract schedules=150
//@ ndrange 1 global=128 local=8
//@ arg acc global int 128 randint:-1000:1000 rw
//@ arg w global int 16384 randint:1:1000 r const
//@ arg n value int 16384
//@ expect splittable
//@ uses storeinloop
//@ kernel h1_while_do schedules=150
//@ ndrange 1 global=128 local=8
//@ arg x global int 128 randint:-1000:1000 rw
//@ arg d global int 8192 randint:1:1000 r const
//@ arg n value int 8192
//@ expect splittable
//@ uses storeinloop
//@ kernel h1_barrier_rounds schedules=100
//@ ndrange 1 global=256 local=16
//@ arg v global int 256 randint:-1000:1000 rw
//@ arg w global int 256 randint:1:1000 r const
//@ arg rounds value int 256
//@ expect splittable
//@ uses barrier localmem storeinloop
__kernel void h1_add_then_subtract(__global int *acc, __global const int *w, int n)
{
    int i = get_global_id(0);
    for (int k = 0; k < n; k++)
        acc[i] += w[k];
    for (int k = 0; k < n; k++)
        acc[i] -= w[k];
}

__kernel void h1_while_do(__global int *x, __global const int *d, int n)
{
    int i = get_global_id(0);
    int k = 0;
    while (k < n) {
        x[i] += d[(i + k) % n];
        k++;
    }
    do {
        k--;
        x[i] -= d[(i + k) % n];
    } while (k > 0);
}

__kernel void h1_barrier_rounds(__global int *v, __global const int *w, int rounds)
{
    __local int tile[16];
    int lid = get_local_id(0), i = get_global_id(0);
    for (int r = 0; r < rounds; r++) {
        tile[lid] = w[(i + r) % 256];
        barrier(CLK_LOCAL_MEM_FENCE);
        v[i] += tile[(lid + 1) % 16];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    for (int r = 0; r < rounds; r++) {
        tile[lid] = w[(i + r) % 256];
        barrier(CLK_LOCAL_MEM_FENCE);
        v[i] -= tile[(lid + 1) % 16];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
}
