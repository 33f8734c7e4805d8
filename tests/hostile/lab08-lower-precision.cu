/*
 * Hostile hand-in (tests/hostile_test.sh), lab 8: lower precision than asked
 * (dos-kernel#107's precision downgrade): the naive product with A and B cut
 * to bfloat16 (their low 16 bits dropped) before each multiply, as a tensor
 * core's fast path would read them.
 * control: naive-sgemm.cu
 *
 * The product's check bounds the error of an FP32 product (check_matmul.c):
 * this one is some hundred times past it, and fails.
 */
#include "lab.h"

__device__ float bf16(float x) { return __int_as_float((int)((unsigned)__float_as_int(x) & 0xffff0000u)); }

__global__ void naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < m && col < n) {
        float sum = 0;
        for (int p = 0; p < k; p++)
            sum += bf16(a[(size_t)row * k + p]) * bf16(b[(size_t)p * n + col]);
        c[(size_t)row * n + col] = sum;
    }
}

void sgemm(float *c, const float *a, const float *b, int m, int n, int k)
{
    dim3 block(16, 16), grid((n + 15) / 16, (m + 15) / 16);
    naive<<<grid, block>>>(c, a, b, m, n, k);
}
