// Shared by corpus programs through -I@CORPUS@/include.
#ifndef CORPUS_COMMON_H
#define CORPUS_COMMON_H
#define INDEX2(row, col, width) ((row) * (width) + (col))
static inline float smooth3(float a, float b, float c)
{
    return 0.25f * a + 0.5f * b + 0.25f * c;
}
#endif
