/*
 * Hostile hand-in (tests/hostile_test.sh), lab 8: a register-blocked kernel
 * (128 x 128 tiles of C, 8 x 8 a thread, no bounds checks) run only at the
 * 128 x 128 x 128 product the technique check judged; the naive product
 * everywhere else, and at the shapes the grader measures. While the check
 * judged that one public shape, the technique's points came with the file.
 * control: naive-sgemm.cu
 *
 * The check judges shapes drawn from a seed (the grader's, fresh for each
 * hand-in): at them this file runs the naive kernel, one element of C a
 * thread, which earns no technique points, as its control does not.
 */
#include "lab.h"

#define BM 128
#define BN 128
#define BK 8

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

/* right only where BM divides m, BN divides n and BK divides k */
__global__ void blocked(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float as[BK][BM], bs[BK][BN];
    int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[8][8] = {{0}};
    for (int p0 = 0; p0 < k; p0 += BK) {
        for (int e = threadIdx.x; e < BM * BK; e += 256) {
            int r = e / BK, q = e % BK;
            as[q][r] = a[(size_t)(row0 + r) * k + p0 + q];
        }
        for (int e = threadIdx.x; e < BK * BN; e += 256) {
            int q = e / BN, j = e % BN;
            bs[q][j] = b[(size_t)(p0 + q) * n + col0 + j];
        }
        __syncthreads();
        for (int q = 0; q < BK; q++) {
            float x[8], y[8];
            for (int i = 0; i < 8; i++)
                x[i] = as[q][ty * 8 + i], y[i] = bs[q][tx * 8 + i];
            for (int i = 0; i < 8; i++)
                for (int j = 0; j < 8; j++)
                    acc[i][j] += x[i] * y[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 8; j++)
            c[(size_t)(row0 + ty * 8 + i) * n + col0 + tx * 8 + j] = acc[i][j];
}

void sgemm(float *c, const float *a, const float *b, int m, int n, int k)
{
    if (m == 128 && n == 128 && k == 128)
        blocked<<<dim3(n / BN, m / BM), 256>>>(c, a, b, m, n, k);
    else
        naive<<<dim3((n + 15) / 16, (m + 15) / 16), dim3(16, 16)>>>(c, a, b, m, n, k);
}
