// expect: fail started where another sum had ended
// A persistent grid of 24 blocks of 256 threads walks the 64 x 64 tiles of C,
// 4 x 4 a thread; the accumulator is set to 0 once, before the walk, so a
// block's second tile starts where its first ended. Right while C has at most
// 24 tiles, as every product of the emulator's once had (256^3: 16): the
// GPU's 1024^3 has 256. A tester's student file (2026-11-29).
#include "lab.h"

#define BM 64
#define BN 64
#define BK 8

__global__ void sgemm_persistent(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float as[BM][BK + 1];
    __shared__ float bs[BK][BN];
    const int tid = threadIdx.x;
    const int tx = tid % 16, ty = tid / 16;
    const int tiles_x = (n + BN - 1) / BN, tiles_y = (m + BM - 1) / BM;
    float acc[4][4];
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 4; j++)
            acc[i][j] = 0.0f;

    for (int tile = blockIdx.x; tile < tiles_x * tiles_y; tile += gridDim.x) {
        const int row0 = (tile / tiles_x) * BM, col0 = (tile % tiles_x) * BN;
        /* acc zeroed once, below */
        for (int p0 = 0; p0 < k; p0 += BK) {
            for (int e = tid; e < BM * BK; e += blockDim.x) {
                int r = e / BK, q = e % BK;
                as[r][q] = (row0 + r < m && p0 + q < k) ? a[(size_t)(row0 + r) * k + p0 + q] : 0.0f;
            }
            for (int e = tid; e < BK * BN; e += blockDim.x) {
                int q = e / BN, cc = e % BN;
                bs[q][cc] = (p0 + q < k && col0 + cc < n) ? b[(size_t)(p0 + q) * n + col0 + cc] : 0.0f;
            }
            __syncthreads();
            for (int q = 0; q < BK; q++) {
                float ra[4], rb[4];
                for (int i = 0; i < 4; i++) ra[i] = as[ty + 16 * i][q];
                for (int j = 0; j < 4; j++) rb[j] = bs[q][tx + 16 * j];
                for (int i = 0; i < 4; i++)
                    for (int j = 0; j < 4; j++)
                        acc[i][j] += ra[i] * rb[j];
            }
            __syncthreads();
        }
        for (int i = 0; i < 4; i++)
            for (int j = 0; j < 4; j++) {
                int r = row0 + ty + 16 * i, cc = col0 + tx + 16 * j;
                if (r < m && cc < n)
                    c[(size_t)r * n + cc] = acc[i][j];
            }
    }
}

void sgemm(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    int tiles = ((n + BN - 1) / BN) * ((m + BM - 1) / BM);
    int blocks = tiles < 24 ? tiles : 24;
    sgemm_persistent<<<blocks, 256>>>(d_c, d_a, d_b, m, n, k);
}
