// expect: fail cudaErrorInvalidValue
// The kernel promises ptxas at most 128 threads a block
// (__launch_bounds__(128)) and is launched with 256: CUDA refuses the
// launch, however few registers the kernel uses.
#include "lab.h"

#define TILE 16

__global__ void __launch_bounds__(128) product(float *c, const float *a, const float *b, int m, int n, int k)
{
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    if (row >= m || col >= n)
        return;
    float acc = 0.0f;
    for (int p = 0; p < k; p++)
        acc += a[(size_t)row * k + p] * b[(size_t)p * n + col];
    c[(size_t)row * n + col] = acc;
}

void sgemm(float *c, const float *a, const float *b, int m, int n, int k)
{
    product<<<dim3((n + TILE - 1) / TILE, (m + TILE - 1) / TILE), dim3(TILE, TILE)>>>(c, a, b, m, n, k);
}
