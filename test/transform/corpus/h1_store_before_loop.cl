// H1 trap without stores inside the loop: the first global store happens before a long loop and
// the final store restores the original value for about half the elements. An abort check inside
// the loop would leave the temporary -1, which the merge keeps where the CPU's value equals orig.
// storesBeforeLoopEnds (per transform.hpp: a store *inside* a loop) is false here, so it alone
// cannot tell whether a mid-loop abort point is safe.
//@ kernel h1_store_before_loop schedules=120
//@ ndrange 1 global=128 local=8
//@ arg x global int 128 randint:-1000:1000 rw
//@ arg w global int 8192 randint:0:1000 r const
//@ arg n value int 8192
//@ expect splittable
__kernel void h1_store_before_loop(__global int *x, __global const int *w, int n)
{
    int i = get_global_id(0);
    int saved = x[i];
    x[i] = -1;
    int acc = 0;
    for (int k = 0; k < n; k++)
        acc += w[(i + k) % n];
    x[i] = (acc % 2 == 0) ? saved : saved + 1;
}
