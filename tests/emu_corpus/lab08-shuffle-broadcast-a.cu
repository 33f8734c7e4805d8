// expect: pass
// A's values for a thread's four rows of C come by warp shuffle instead of
// from shared memory: in blocks 16 threads wide each half-warp shares its
// rows, its lanes 0-3 read the four values of A, and __shfl_sync with
// width 16 hands value i to every lane of that half. All 32 lanes shuffle.
#include "lab.h"

#define BT 64
#define BK 16
#define TT 4
#define FULL_MASK 0xffffffffu

__global__ void tiled_shuffle(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float as[BK][BT], bs[BK][BT];
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * (BT / TT) + tx;
    int row0 = blockIdx.y * BT, col0 = blockIdx.x * BT;
    float acc[TT][TT] = {};
    for (int p0 = 0; p0 < k; p0 += BK) {
        for (int i = tid; i < BK * BT; i += (BT / TT) * (BT / TT)) {
            int r = i / BK, q = i % BK;
            as[q][r] = row0 + r < m && p0 + q < k ? a[(size_t)(row0 + r) * k + p0 + q] : 0.0f;
            int br = i / BT, bc = i % BT;
            bs[br][bc] = p0 + br < k && col0 + bc < n ? b[(size_t)(p0 + br) * n + col0 + bc] : 0.0f;
        }
        __syncthreads();
        for (int q = 0; q < BK; q++) {
            float mine = tx < TT ? as[q][ty * TT + tx] : 0.0f;
            float ra[TT];
            for (int i = 0; i < TT; i++)
                ra[i] = __shfl_sync(FULL_MASK, mine, i, 16);
            for (int i = 0; i < TT; i++)
                for (int j = 0; j < TT; j++)
                    acc[i][j] += ra[i] * bs[q][tx * TT + j];
        }
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
    tiled_shuffle<<<dim3((n + BT - 1) / BT, (m + BT - 1) / BT), dim3(BT / TT, BT / TT)>>>(c, a, b, m, n, k);
}
