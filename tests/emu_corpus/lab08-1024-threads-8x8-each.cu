// expect: fail too many resources requested for launch
// 1024 threads a block, each 8 x 8 results, no __launch_bounds__: its
// registers times 1024 threads pass an SM's 65536, so the launch is
// refused.
// Written by a new student who had never read the emulator (issue 35).
#include "lab.h"

#define BM 256
#define BN 256
#define BK 8
#define TM 8
#define TN 8

__global__ void sgemm_big(float *C, const float *A, const float *B, int M, int N, int K)
{
    __shared__ float As[BK][BM];
    __shared__ float Bs[BK][BN];
    const int tx = threadIdx.x, ty = threadIdx.y;        // 32 x 32
    const int tid = ty * 32 + tx;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

    for (int k0 = 0; k0 < K; k0 += BK) {
        // 2048 floats of A and 2048 of B per step: 2 of each per thread
#pragma unroll
        for (int q = 0; q < 2; ++q) {
            const int e = tid + q * 1024;
            const int ar = e / BK, ac = e % BK;
            As[ac][ar] = (row0 + ar < M && k0 + ac < K) ? A[(size_t)(row0 + ar) * K + k0 + ac] : 0.0f;
            const int br = e / BN, bc = e % BN;
            Bs[br][bc] = (k0 + br < K && col0 + bc < N) ? B[(size_t)(k0 + br) * N + col0 + bc] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int p = 0; p < BK; ++p) {
            float a[TM], b[TN];
#pragma unroll
            for (int i = 0; i < TM; ++i) a[i] = As[p][ty * TM + i];
#pragma unroll
            for (int j = 0; j < TN; ++j) b[j] = Bs[p][tx * TN + j];
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            const int r = row0 + ty * TM + i, c = col0 + tx * TN + j;
            if (r < M && c < N) C[(size_t)r * N + c] = acc[i][j];
        }
}

void sgemm(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    dim3 block(32, 32);
    dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM);
    sgemm_big<<<grid, block>>>(d_c, d_a, d_b, m, n, k);
}
