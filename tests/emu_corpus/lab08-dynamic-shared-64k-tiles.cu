// expect: pass
// 64 KiB of extern __shared__ tiles, opted in with cudaFuncSetAttribute,
// 8 x 8 results a thread: valid.
// Written by a new student who had never read the emulator (issue 35).
#include "lab.h"
#include <cstdio>

constexpr int BM = 128, BN = 128, BK = 64, TM = 8, TN = 8;
constexpr int THREADS = (BM / TM) * (BN / TN);
constexpr size_t SMEM_BYTES = (size_t)(BM * BK + BK * BN) * sizeof(float);
static_assert(SMEM_BYTES > 48 * 1024, "this kernel is meant to need the opt-in");

__global__ void __launch_bounds__(THREADS)
sgemm_bigtile(float *C, const float *A, const float *B, int M, int N, int K)
{
    extern __shared__ float smem[];
    float *As = smem;             // [BM][BK]
    float *Bs = smem + BM * BK;   // [BK][BN]
    const int tid = threadIdx.x;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    const int tr = tid / (BN / TN), tc = tid % (BN / TN);
    float acc[TM][TN] = {};

    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int e = tid; e < BM * BK; e += THREADS) {
            const int r = e / BK, c = e % BK;
            As[e] = (row0 + r < M && k0 + c < K) ? A[(size_t)(row0 + r) * K + k0 + c] : 0.0f;
        }
        for (int e = tid; e < BK * BN; e += THREADS) {
            const int r = e / BN, c = e % BN;
            Bs[e] = (k0 + r < K && col0 + c < N) ? B[(size_t)(k0 + r) * N + col0 + c] : 0.0f;
        }
        __syncthreads();
#pragma unroll 4
        for (int p = 0; p < BK; ++p) {
            float a[TM], b[TN];
#pragma unroll
            for (int i = 0; i < TM; ++i) a[i] = As[(tr * TM + i) * BK + p];
#pragma unroll
            for (int j = 0; j < TN; ++j) b[j] = Bs[p * BN + tc * TN + j];
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            const int r = row0 + tr * TM + i, c = col0 + tc * TN + j;
            if (r < M && c < N) C[(size_t)r * N + c] = acc[i][j];
        }
}

void sgemm(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    static bool configured = false;
    if (!configured) {
        cudaError_t e = cudaFuncSetAttribute(sgemm_bigtile, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             (int)SMEM_BYTES);
        if (e != cudaSuccess) fprintf(stderr, "cudaFuncSetAttribute: %s\n", cudaGetErrorString(e));
        configured = true;
    }
    dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM);
    sgemm_bigtile<<<grid, THREADS, SMEM_BYTES>>>(d_c, d_a, d_b, m, n, k);
}
