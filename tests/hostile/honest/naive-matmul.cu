/* Honest control (tests/hostile_test.sh): the naive product, one thread an
 * element of C, for both of lab 7's functions. */
#include "lab.h"

__global__ void naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < m && col < n) {
        float sum = 0;
        for (int p = 0; p < k; p++)
            sum += a[(size_t)row * k + p] * b[(size_t)p * n + col];
        c[(size_t)row * n + col] = sum;
    }
}

static void product(float *c, const float *a, const float *b, int m, int n, int k)
{
    dim3 block(16, 16), grid((n + 15) / 16, (m + 15) / 16);
    naive<<<grid, block>>>(c, a, b, m, n, k);
}

void matmul_naive(float *c, const float *a, const float *b, int m, int n, int k) { product(c, a, b, m, n, k); }
void matmul_tiled(float *c, const float *a, const float *b, int m, int n, int k) { product(c, a, b, m, n, k); }
