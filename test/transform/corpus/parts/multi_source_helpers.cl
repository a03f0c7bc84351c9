// First source string of multi_source.cl's program: a macro and a helper used by the second.
#define POLY_TERMS 4
float poly(float x, __constant float *coeffs)
{
    float acc = 0.0f;
    for (int k = POLY_TERMS - 1; k >= 0; k--)
        acc = acc * x + coeffs[k];
    return acc;
}
