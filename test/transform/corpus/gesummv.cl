// PolyBench gesummv: y = alpha*A*x + beta*B*x; two write-only outputs.
//@ kernel gesummv
//@ ndrange 1 global=128 local=16
//@ arg a global float 8192 rand r
//@ arg b global float 8192 rand r
//@ arg x global float 64 rand r
//@ arg y global float 128 zero w
//@ arg tmp global float 128 zero w
//@ arg alpha value float 0.5
//@ arg beta value float 2.0
//@ arg n value int 128
//@ arg m value int 64
//@ expect splittable
__kernel void gesummv(__global float *a, __global float *b, __global float *x, __global float *y,
                      __global float *tmp, float alpha, float beta, int n, int m)
{
    int i = get_global_id(0);
    if (i < n) {
        float t = 0.0f, u = 0.0f;
        for (int j = 0; j < m; j++) {
            t += a[i * m + j] * x[j];
            u += b[i * m + j] * x[j];
        }
        tmp[i] = t;
        y[i] = alpha * t + beta * u;
    }
}
