// expect: pass
// Double buffered with cuda_pipeline.h (__pipeline_memcpy_async, commit,
// wait_prior), 64 x 64 x 8 tiles, 4 x 4 a thread: valid.
// Written by a new student who had never read the emulator (issue 35).
#include "lab.h"
#include <cuda_pipeline.h>

#define BM 64
#define BN 64
#define BK 8
#define TM 4
#define TN 4
#define NTHREADS ((BM / TM) * (BN / TN))

__device__ __forceinline__ void load_tiles(float *As, float *Bs, const float *A, const float *B,
                                           int M, int N, int K, int row0, int col0, int k0)
{
    for (int e = threadIdx.x; e < BM * BK; e += NTHREADS) {
        int r = e / BK, c = e % BK;
        int gr = row0 + r, gc = k0 + c;
        if (gr < M && gc < K)
            __pipeline_memcpy_async(&As[r * BK + c], &A[(size_t)gr * K + gc], sizeof(float));
        else
            As[r * BK + c] = 0.0f;
    }
    for (int e = threadIdx.x; e < BK * BN; e += NTHREADS) {
        int r = e / BN, c = e % BN;
        int gr = k0 + r, gc = col0 + c;
        if (gr < K && gc < N)
            __pipeline_memcpy_async(&Bs[r * BN + c], &B[(size_t)gr * N + gc], sizeof(float));
        else
            Bs[r * BN + c] = 0.0f;
    }
}

__global__ void sgemm_pipelined(float *C, const float *A, const float *B, int M, int N, int K)
{
    __shared__ float As[2][BM * BK];
    __shared__ float Bs[2][BK * BN];
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    const int tr = threadIdx.x / (BN / TN), tc = threadIdx.x % (BN / TN);
    const int ntiles = (K + BK - 1) / BK;
    float acc[TM][TN];
    for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j) acc[i][j] = 0.0f;

    load_tiles(As[0], Bs[0], A, B, M, N, K, row0, col0, 0);
    __pipeline_commit();

    for (int t = 0; t < ntiles; ++t) {
        const int cur = t & 1;
        if (t + 1 < ntiles)
            load_tiles(As[cur ^ 1], Bs[cur ^ 1], A, B, M, N, K, row0, col0, (t + 1) * BK);
        __pipeline_commit();
        __pipeline_wait_prior(1);   // every batch but the newest has landed: tile t is here
        __syncthreads();

        for (int p = 0; p < BK; ++p) {
            float a[TM], b[TN];
            for (int i = 0; i < TM; ++i) a[i] = As[cur][(tr * TM + i) * BK + p];
            for (int j = 0; j < TN; ++j) b[j] = Bs[cur][p * BN + tc * TN + j];
            for (int i = 0; i < TM; ++i)
                for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
        }
        __syncthreads();   // tile t's buffers are refilled at step t + 1
    }

    for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j) {
            int r = row0 + tr * TM + i, c = col0 + tc * TN + j;
            if (r < M && c < N) C[(size_t)r * N + c] = acc[i][j];
        }
}

void sgemm(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM);
    sgemm_pipelined<<<grid, NTHREADS>>>(d_c, d_a, d_b, m, n, k);
}
