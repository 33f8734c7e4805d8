// expect: build-error cannot be applied to the same kernel
// without-nvcc: builds
// Lab 8's register tile with both __launch_bounds__(256) and __maxnreg__(128)
// on its kernel, which nvcc refuses; the emulator without nvcc builds it
// (a known limit, harness/emu/README.md; 2026-11-28).
#include "lab.h"

#define BT 64 /* the block's tile of C: BT x BT */
#define BK 16
#define TT 4  /* each thread's tile: TT x TT */

__global__ void __launch_bounds__(256) __maxnreg__(128) tiled4x4(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float as[BK][BT], bs[BK][BT];
    int tx = threadIdx.x % (BT / TT), ty = threadIdx.x / (BT / TT);
    int row0 = blockIdx.y * BT, col0 = blockIdx.x * BT;
    float acc[TT][TT] = {};
    for (int p0 = 0; p0 < k; p0 += BK) {
        for (int i = threadIdx.x; i < BK * BT; i += blockDim.x) {
            int r = i / BK, q = i % BK; /* A: BT rows of BK */
            as[q][r] = row0 + r < m && p0 + q < k ? a[(size_t)(row0 + r) * k + p0 + q] : 0.0f;
            int br = i / BT, bc = i % BT; /* B: BK rows of BT */
            bs[br][bc] = p0 + br < k && col0 + bc < n ? b[(size_t)(p0 + br) * n + col0 + bc] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int q = 0; q < BK; q++)
#pragma unroll
            for (int i = 0; i < TT; i++)
#pragma unroll
                for (int j = 0; j < TT; j++)
                    acc[i][j] += as[q][ty * TT + i] * bs[q][tx * TT + j];
        __syncthreads();
    }
    for (int i = 0; i < TT; i++)
        for (int j = 0; j < TT; j++) {
            int r = row0 + ty * TT + i, col = col0 + tx * TT + j;
            if (r < m && col < n)
                c[(size_t)r * n + col] = acc[i][j];
        }
}

void sgemm(float *c, const float *a, const float *b, int m, int n, int k)
{
    tiled4x4<<<dim3((n + BT - 1) / BT, (m + BT - 1) / BT), (BT / TT) * (BT / TT)>>>(c, a, b, m, n, k);
}
