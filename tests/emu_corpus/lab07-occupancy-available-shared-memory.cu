// expect: pass
// matmul_tiled's two tiles carved out of one extern __shared__ array, whose
// size (2 x TILE x TILE floats) is the launch's third argument, checked
// first against what cudaOccupancyAvailableDynamicSMemPerBlock says a block
// may have where 8 of them share an SM, the kernel passed as itself (CUDA's
// template form). A student's file (2026-11-28): nvcc builds it, an H100
// runs it; the emulator had that call only for a const void * and refused
// the kernel.
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

/* Both tiles in one dynamic shared array: A's TILE x TILE first, then B's. */
__global__ void tiled_dynamic(float *c, const float *a, const float *b, int m, int n, int k)
{
    extern __shared__ float smem[];
    float *as = smem, *bs = smem + TILE * TILE;
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int p0 = 0; p0 < k; p0 += TILE) {
        as[ty * TILE + tx] = row < m && p0 + tx < k ? a[(size_t)row * k + p0 + tx] : 0.0f;
        bs[ty * TILE + tx] = p0 + ty < k && col < n ? b[(size_t)(p0 + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int q = 0; q < TILE; q++)
            sum += as[ty * TILE + q] * bs[q * TILE + tx];
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = sum;
}

void matmul_tiled(float *c, const float *a, const float *b, int m, int n, int k)
{
    size_t bytes = 2 * TILE * TILE * sizeof(float), room = 0;
    if (cudaOccupancyAvailableDynamicSMemPerBlock(&room, tiled_dynamic, 8, TILE * TILE) != cudaSuccess ||
        room < bytes)
        return;
    tiled_dynamic<<<dim3((n + TILE - 1) / TILE, (m + TILE - 1) / TILE), dim3(TILE, TILE), bytes>>>(c, a, b, m, n, k);
}
