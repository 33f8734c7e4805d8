// expect: pass
// An 8 x 8 tile of C per thread, its 64 sums and 16 operands in
// registers: over a hundred registers a thread, which blocks of 16 x 16
// threads (256) can afford, 65536 registers an SM being the limit.
#include "lab.h"

template <int BT, int TT, int BK>
__global__ void reg_tiled(float *c, const float *a, const float *b, int m, int n, int k)
{
    constexpr int SIDE = BT / TT, THREADS = SIDE * SIDE;
    __shared__ float as[BK][BT], bs[BK][BT];
    int tid = threadIdx.y * SIDE + threadIdx.x;
    int row0 = blockIdx.y * BT, col0 = blockIdx.x * BT;
    float acc[TT][TT] = {};
    float ra[TT], rb[TT];
    for (int p0 = 0; p0 < k; p0 += BK) {
        for (int i = tid; i < BK * BT; i += THREADS) {
            int r = i / BK, q = i % BK; /* A: BT rows of BK */
            as[q][r] = row0 + r < m && p0 + q < k ? a[(size_t)(row0 + r) * k + p0 + q] : 0.0f;
            int br = i / BT, bc = i % BT; /* B: BK rows of BT */
            bs[br][bc] = p0 + br < k && col0 + bc < n ? b[(size_t)(p0 + br) * n + col0 + bc] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int q = 0; q < BK; q++) {
#pragma unroll
            for (int i = 0; i < TT; i++)
                ra[i] = as[q][threadIdx.y * TT + i];
#pragma unroll
            for (int j = 0; j < TT; j++)
                rb[j] = bs[q][threadIdx.x * TT + j];
#pragma unroll
            for (int i = 0; i < TT; i++)
#pragma unroll
                for (int j = 0; j < TT; j++)
                    acc[i][j] += ra[i] * rb[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TT; i++)
#pragma unroll
        for (int j = 0; j < TT; j++) {
            int r = row0 + threadIdx.y * TT + i, col = col0 + threadIdx.x * TT + j;
            if (r < m && col < n)
                c[(size_t)r * n + col] = acc[i][j];
        }
}

void sgemm(float *c, const float *a, const float *b, int m, int n, int k)
{
    reg_tiled<128, 8, 8><<<dim3((n + 127) / 128, (m + 127) / 128), dim3(16, 16)>>>(c, a, b, m, n, k);
}
