// expect: pass
// Correct, in the style of the SGEMM ladders' vectorised step: 128 x 128
// block tile, BK = 8, 256 threads of 8 x 8 each, A's tile stored
// transposed so that a thread's 8 values of A at depth p are two float4
// reads of shared memory, as are its 8 values of B. Global loads are
// scalar with bounds tests (rows of A and B need not be 16-byte aligned).
#include "lab.h"

#define BM 128
#define BN 128
#define BK 8
#define TM 8
#define TN 8

__global__ void __launch_bounds__(256) sgemm_v4(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ __align__(16) float As[BK][BM];
    __shared__ __align__(16) float Bs[BK][BN];
    int tid = threadIdx.x, tr = tid / (BN / TN), tc = tid % (BN / TN);
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    float acc[TM][TN] = {};
    for (int t = 0; t < k; t += BK) {
        for (int e = tid; e < BM * BK; e += 256) {
            int r = e / BK, p = e % BK;
            As[p][r] = (row0 + r < m && t + p < k) ? a[(size_t)(row0 + r) * k + t + p] : 0.0f;
        }
        for (int e = tid; e < BK * BN; e += 256) {
            int p = e / BN, col = e % BN;
            Bs[p][col] = (t + p < k && col0 + col < n) ? b[(size_t)(t + p) * n + col0 + col] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int p = 0; p < BK; p++) {
            float4 a0 = *reinterpret_cast<const float4 *>(&As[p][tr * TM]);
            float4 a1 = *reinterpret_cast<const float4 *>(&As[p][tr * TM + 4]);
            float4 b0 = *reinterpret_cast<const float4 *>(&Bs[p][tc * TN]);
            float4 b1 = *reinterpret_cast<const float4 *>(&Bs[p][tc * TN + 4]);
            float av[TM] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            float bv[TN] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int i = 0; i < TM; i++)
#pragma unroll
                for (int j = 0; j < TN; j++)
                    acc[i][j] += av[i] * bv[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < TM; i++)
        for (int j = 0; j < TN; j++) {
            int r = row0 + tr * TM + i, col = col0 + tc * TN + j;
            if (r < m && col < n)
                c[(size_t)r * n + col] = acc[i][j];
        }
}

void sgemm(float *c, const float *a, const float *b, int m, int n, int k)
{
    sgemm_v4<<<dim3((n + BN - 1) / BN, (m + BM - 1) / BM), 256>>>(c, a, b, m, n, k);
}
