// expect: pass
// In the style of public SGEMM walk-throughs: a 128 x 128 x 8 block tile,
// 8 x 8 results a thread, a 1-D threadIdx, uint, CEIL_DIV, a device
// assert: valid.
// Written by a new student who had never read the emulator (issue 35).
#include "lab.h"
#include <cassert>

#define CEIL_DIV(M, N) (((M) + (N) - 1) / (N))

template <const int BM, const int BN, const int BK, const int TM, const int TN>
__global__ void __launch_bounds__((BM * BN) / (TM * TN), 1)
sgemm2DBlocktiling(int M, int N, int K, const float *A, const float *B, float *C)
{
    constexpr uint numThreads = (BM * BN) / (TM * TN);
    assert(blockDim.x == numThreads);

    const uint cRow = blockIdx.y;
    const uint cCol = blockIdx.x;
    const uint threadCol = threadIdx.x % (BN / TN);
    const uint threadRow = threadIdx.x / (BN / TN);

    __shared__ float As[BM * BK];
    __shared__ float Bs[BK * BN];

    const uint innerRowA = threadIdx.x / BK, innerColA = threadIdx.x % BK;
    constexpr uint strideA = numThreads / BK;
    const uint innerRowB = threadIdx.x / BN, innerColB = threadIdx.x % BN;
    constexpr uint strideB = numThreads / BN;

    float threadResults[TM * TN] = {0.0f};
    float regM[TM], regN[TN];

    for (int bk = 0; bk < K; bk += BK) {
        for (uint off = 0; off < BM; off += strideA) {
            const int r = cRow * BM + innerRowA + off, c = bk + innerColA;
            As[(innerRowA + off) * BK + innerColA] = (r < M && c < K) ? A[(size_t)r * K + c] : 0.0f;
        }
        for (uint off = 0; off < BK; off += strideB) {
            const int r = bk + innerRowB + off, c = cCol * BN + innerColB;
            Bs[(innerRowB + off) * BN + innerColB] = (r < K && c < N) ? B[(size_t)r * N + c] : 0.0f;
        }
        __syncthreads();

#pragma unroll
        for (uint d = 0; d < BK; ++d) {
#pragma unroll
            for (uint i = 0; i < TM; ++i) regM[i] = As[(threadRow * TM + i) * BK + d];
#pragma unroll
            for (uint j = 0; j < TN; ++j) regN[j] = Bs[d * BN + threadCol * TN + j];
#pragma unroll
            for (uint i = 0; i < TM; ++i)
#pragma unroll
                for (uint j = 0; j < TN; ++j)
                    threadResults[i * TN + j] += regM[i] * regN[j];
        }
        __syncthreads();
    }

#pragma unroll
    for (uint i = 0; i < TM; ++i)
#pragma unroll
        for (uint j = 0; j < TN; ++j) {
            const int r = cRow * BM + threadRow * TM + i, c = cCol * BN + threadCol * TN + j;
            if (r < M && c < N) C[(size_t)r * N + c] = threadResults[i * TN + j];
        }
}

void sgemm(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    constexpr int BM = 128, BN = 128, BK = 8, TM = 8, TN = 8;
    dim3 gridDim(CEIL_DIV(n, BN), CEIL_DIV(m, BM));
    dim3 blockDim((BM * BN) / (TM * TN));
    sgemm2DBlocktiling<BM, BN, BK, TM, TN><<<gridDim, blockDim>>>(m, n, k, d_a, d_b, d_c);
}
