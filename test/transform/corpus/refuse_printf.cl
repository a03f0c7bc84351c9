// printf output cannot be split (H6).
//@ kernel print_ids
//@ ndrange 1 global=16 local=4
//@ arg out global int 16 zero w
//@ expect refused printf
//@ uses printf
__kernel void print_ids(__global int *out)
{
    int i = get_global_id(0);
    if (i == 3)
        printf("item %d\n", i);
    out[i] = i;
}
