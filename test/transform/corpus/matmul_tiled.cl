// Tiled matrix multiply with static __local tiles and barriers; the tile size comes from -D.
//@ options -DTILE=8
//@ kernel matmul_tiled
//@ ndrange 2 global=32,24 local=8,8
//@ arg A global float 768 rand r const
//@ arg B global float 1024 rand r const
//@ arg C global float 768 zero w
//@ arg n value int 32
//@ arg k value int 32
//@ expect splittable
//@ uses barrier localmem
__kernel void matmul_tiled(__global const float *A, __global const float *B, __global float *C, int n, int k)
{
    __local float As[TILE][TILE];
    __local float Bs[TILE][TILE];
    int col = get_global_id(0), row = get_global_id(1);
    int lc = get_local_id(0), lr = get_local_id(1);
    float acc = 0.0f;
    for (int t = 0; t < k / TILE; t++) {
        As[lr][lc] = A[row * k + t * TILE + lc];
        Bs[lr][lc] = B[(t * TILE + lr) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int e = 0; e < TILE; e++)
            acc += As[lr][e] * Bs[e][lc];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    C[row * n + col] = acc;
}
