// A store followed by a return inside the loop, a fallback store after it (2-D rows of data).
//@ kernel find_first_zero
//@ ndrange 1 global=96 local=8
//@ arg data global int 3072 randint:0:40 r const
//@ arg pos global int 96 randint:-5:5 w
//@ arg n value int 32
//@ expect splittable
//@ uses storeinloop
__kernel void find_first_zero(__global const int *data, __global int *pos, int n)
{
    int i = get_global_id(0);
    for (int k = 0; k < n; k++) {
        if (data[i * n + k] == 0) {
            pos[i] = k;
            return;
        }
    }
    pos[i] = -1;
}
