// PolyBench gemm: C = alpha*A*B + beta*C; one work-item per element of C (inout), private accumulator.
//@ kernel gemm
//@ ndrange 2 global=40,24 local=8,4
//@ arg A global float 768 rand r const
//@ arg B global float 1280 rand r const
//@ arg C global float 960 rand rw
//@ arg alpha value float 1.5
//@ arg beta value float -0.75
//@ arg ni value int 24
//@ arg nj value int 40
//@ arg nk value int 32
//@ expect splittable
__kernel void gemm(__global const float *A, __global const float *B, __global float *C,
                   float alpha, float beta, int ni, int nj, int nk)
{
    int j = get_global_id(0);
    int i = get_global_id(1);
    if (i < ni && j < nj) {
        float acc = 0.0f;
        for (int k = 0; k < nk; k++)
            acc += A[i * nk + k] * B[k * nj + j];
        C[i * nj + j] = alpha * acc + beta * C[i * nj + j];
    }
}
