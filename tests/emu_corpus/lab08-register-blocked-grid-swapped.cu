// expect: fail has its x and y swapped
// expect-not: Round the number of blocks up
// 2 x 2 elements a thread, 32 x 32 a block of 16 x 16 threads, the grid's x counted
// over m: read by what a block covers, not by blockDim (stud8, bug 1).
/* 2 x 2 per thread, 32 x 32 block tiles, 16 x 16 threads; the launch's
 * grid has m and n swapped. */
#include "lab.h"
#include <stddef.h>

#define T 32
#define BK 32

__global__ void sgemm_2x2(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float as[T][BK];
    __shared__ float bs[BK][T + 1];
    int tx = threadIdx.x, ty = threadIdx.y; /* 16 x 16 */
    int row0 = blockIdx.y * T, col0 = blockIdx.x * T;
    float acc[2][2] = {};
    for (int p0 = 0; p0 < k; p0 += BK) {
        for (int i = ty; i < T; i += 16)
            for (int j = tx; j < BK; j += 16) {
                as[i][j] = (row0 + i < m && p0 + j < k) ? a[(size_t)(row0 + i) * k + p0 + j] : 0.0f;
                bs[i][j] = (p0 + i < k && col0 + j < n) ? b[(size_t)(p0 + i) * n + col0 + j] : 0.0f;
            }
        __syncthreads();
        for (int p = 0; p < BK; p++) {
            float a0 = as[ty][p], a1 = as[ty + 16][p];
            float b0 = bs[p][tx], b1 = bs[p][tx + 16];
            acc[0][0] += a0 * b0; acc[0][1] += a0 * b1;
            acc[1][0] += a1 * b0; acc[1][1] += a1 * b1;
        }
        __syncthreads();
    }
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 2; j++) {
            int r = row0 + ty + 16 * i, col = col0 + tx + 16 * j;
            if (r < m && col < n)
                c[(size_t)r * n + col] = acc[i][j];
        }
}

void sgemm(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    dim3 grid((m + T - 1) / T, (n + T - 1) / T); /* bug: x should count n */
    sgemm_2x2<<<grid, dim3(16, 16)>>>(d_c, d_a, d_b, m, n, k);
}
