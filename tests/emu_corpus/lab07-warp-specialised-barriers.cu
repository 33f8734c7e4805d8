// expect: pass
// Warp-specialised loading, as in siboehm's double-buffered SGEMM: the
// first four warps of the block (threadIdx.y < 8) load A's tile, the last
// four B's, and each group waits at a __syncthreads() of its own branch.
// The branch is the same for every lane of a warp, and a GPU's barrier
// counts the warps that arrive (PTX bar.sync 0 at both sites), so both
// groups meet: the tiles are complete before anyone reads them.
#include "lab.h"

#define TILE 16

__global__ void naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x, row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < m && col < n) {
        float sum = 0.0f;
        for (int p = 0; p < k; p++)
            sum += a[(size_t)row * k + p] * b[(size_t)p * n + col];
        c[(size_t)row * n + col] = sum;
    }
}

void matmul_naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    naive<<<dim3((n + 15) / 16, (m + 15) / 16), dim3(16, 16)>>>(c, a, b, m, n, k);
}

__global__ void tiled_split_load(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float as[TILE][TILE], bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    int arow = blockIdx.y * TILE + ty % 8, bcol = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int p0 = 0; p0 < k; p0 += TILE) {
        if (ty < 8) { /* warps 0-3: rows ty and ty + 8 of A's tile */
            for (int h = 0; h < TILE; h += 8)
                as[ty + h][tx] = arow + h < m && p0 + tx < k ? a[(size_t)(arow + h) * k + p0 + tx] : 0.0f;
            __syncthreads();
        } else { /* warps 4-7: rows ty - 8 and ty of B's tile */
            for (int h = 0; h < TILE; h += 8)
                bs[ty - 8 + h][tx] = p0 + ty - 8 + h < k && bcol < n ? b[(size_t)(p0 + ty - 8 + h) * n + bcol] : 0.0f;
            __syncthreads();
        }
        for (int q = 0; q < TILE; q++)
            sum += as[ty][q] * bs[q][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = sum;
}

void matmul_tiled(float *c, const float *a, const float *b, int m, int n, int k)
{
    tiled_split_load<<<dim3((n + TILE - 1) / TILE, (m + TILE - 1) / TILE), dim3(TILE, TILE)>>>(c, a, b, m, n, k);
}
