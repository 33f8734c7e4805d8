/*
 * Lab 8, step 1 alone (README.md): register blocking, with lab 7's scalar
 * loads and one pair of barriers per step. Kept to measure the step's gain;
 * the reference (../sgemm.cu) is step 4.
 *
 * 256 threads compute a 128 x 128 tile of C, each an 8 x 8 piece in
 * registers: rows ty*8 .. ty*8+7, columns tx*8 .. tx*8+7. Per step of
 * BK = 8 along k, thread t loads 4 floats of the A tile (row t/2) and 4 of
 * the B tile (row t/32), each with lab 7's bounds check.
 */
#include "lab.h"

#include <stddef.h>

#define BM 128
#define BN 128
#define BK 8
#define TM 8
#define TN 8
#define THREADS ((BM / TM) * (BN / TN))

__global__ __launch_bounds__(THREADS) void sgemm_kernel(float *c, const float *a, const float *b,
                                                         int m, int n, int k)
{
    __shared__ float as[BM][BK];
    __shared__ float bs[BK][BN];

    int t = threadIdx.x, tx = t % 16, ty = t / 16;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
            acc[i][j] = 0.0f;

    for (int p0 = 0; p0 < k; p0 += BK) {
        int ar = row0 + t / 2, ac = p0 + (t % 2) * 4;
        int br = p0 + t / 32, bc = col0 + (t % 32) * 4;
#pragma unroll
        for (int i = 0; i < 4; i++) {
            as[t / 2][(t % 2) * 4 + i] = ar < m && ac + i < k ? a[(size_t)ar * k + ac + i] : 0.0f;
            bs[t / 32][(t % 32) * 4 + i] = br < k && bc + i < n ? b[(size_t)br * n + bc + i] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int p = 0; p < BK; p++) {
            float ra[TM], rb[TN];
#pragma unroll
            for (int i = 0; i < TM; i++)
                ra[i] = as[ty * TM + i][p];
#pragma unroll
            for (int j = 0; j < TN; j++)
                rb[j] = bs[p][tx * TN + j];
#pragma unroll
            for (int i = 0; i < TM; i++)
#pragma unroll
                for (int j = 0; j < TN; j++)
                    acc[i][j] += ra[i] * rb[j];
        }
        __syncthreads();
    }

#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++) {
            int row = row0 + ty * TM + i, col = col0 + tx * TN + j;
            if (row < m && col < n)
                c[(size_t)row * n + col] = acc[i][j];
        }
}

void sgemm(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM);
    sgemm_kernel<<<grid, THREADS>>>(d_c, d_a, d_b, m, n, k);
}
