// expect: fail
// expect-not: __syncthreads
// Each thread computes its 4 x 4 tile of C right, then stores it
// transposed within the tile: acc[i][j] goes to row row0 + ty*4 + j,
// column col0 + tx*4 + i. Only the diagonals of the 4 x 4 tiles (and 1 x 1
// shapes) are right. The hint is about where the thread stores, not about
// the loads or the barriers (an H200 said "a __syncthreads() before and
// after using each tile", 2026-11-28).
#include "lab.h"

#define TS 16
#define TT 4
#define BT (TS * TT)
#define BK 16

__global__ void tile4(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float As[BT][BK + 1], Bs[BK][BT];
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * TS + tx;
    int row0 = blockIdx.y * BT, col0 = blockIdx.x * BT;
    float acc[TT][TT];
    for (int i = 0; i < TT; i++)
        for (int j = 0; j < TT; j++)
            acc[i][j] = 0.0f;
    for (int t = 0; t < k; t += BK) {
        for (int e = tid; e < BT * BK; e += TS * TS) {
            int r = e / BK, p = e % BK;
            As[r][p] = (row0 + r < m && t + p < k) ? a[(size_t)(row0 + r) * k + t + p] : 0.0f;
            int q = e / BT, col = e % BT;
            Bs[q][col] = (t + q < k && col0 + col < n) ? b[(size_t)(t + q) * n + col0 + col] : 0.0f;
        }
        __syncthreads();
        for (int p = 0; p < BK; p++) {
            float av[TT], bv[TT];
            for (int i = 0; i < TT; i++) {
                av[i] = As[ty * TT + i][p];
                bv[i] = Bs[p][tx * TT + i];
            }
            for (int i = 0; i < TT; i++)
                for (int j = 0; j < TT; j++)
                    acc[i][j] += av[i] * bv[j];
        }
        __syncthreads();
    }
    for (int i = 0; i < TT; i++)
        for (int j = 0; j < TT; j++) {
            int r = row0 + ty * TT + j, col = col0 + tx * TT + i; /* i and j swapped */
            if (r < m && col < n)
                c[(size_t)r * n + col] = acc[i][j];
        }
}

void sgemm(float *c, const float *a, const float *b, int m, int n, int k)
{
    tile4<<<dim3((n + BT - 1) / BT, (m + BT - 1) / BT), dim3(TS, TS)>>>(c, a, b, m, n, k);
}
