// expect: fail a race on shared memory
// gpu-expect: pass
// expect-not: unspecified launch failure
// A warp per element of C, summed in shared memory the pre-Volta way
// (volatile, no __syncwarp()): a converged warp gets it right on a GPU,
// but racecheck reports it, and the emulator, deliberately stricter,
// fails it as the race it is.
// Written by a new student who had never read the emulator (issue 35).
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 32
#endif

__global__ void matmul_naive_kernel(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float partial[8][32];
    const int lane = threadIdx.x, w = threadIdx.y;
    const int i = blockIdx.y, j = blockIdx.x * 8 + w;     // one warp per element, 8 per block
    float s = 0.0f;
    if (j < n)
        for (int p = lane; p < k; p += 32)
            s += a[(size_t)i * k + p] * b[(size_t)p * n + j];
    volatile float *v = partial[w];
    v[lane] = s;
    if (lane < 16) {
        v[lane] += v[lane + 16];
        v[lane] += v[lane + 8];
        v[lane] += v[lane + 4];
        v[lane] += v[lane + 2];
        v[lane] += v[lane + 1];
    }
    if (lane == 0 && j < n)
        c[(size_t)i * n + j] = v[0];
}

__global__ void matmul_tiled_kernel(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float As[TILE_WIDTH][TILE_WIDTH], Bs[TILE_WIDTH][TILE_WIDTH];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE_WIDTH + ty, col = blockIdx.x * TILE_WIDTH + tx;
    float s = 0.0f;
    for (int t = 0; t < (k + TILE_WIDTH - 1) / TILE_WIDTH; ++t) {
        int p = t * TILE_WIDTH;
        As[ty][tx] = (row < m && p + tx < k) ? a[(size_t)row * k + p + tx] : 0.0f;
        Bs[ty][tx] = (p + ty < k && col < n) ? b[(size_t)(p + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int q = 0; q < TILE_WIDTH; ++q) s += As[ty][q] * Bs[q][tx];
        __syncthreads();
    }
    if (row < m && col < n) c[(size_t)row * n + col] = s;
}

void matmul_naive(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    dim3 block(32, 8);
    dim3 grid((n + 7) / 8, m);
    matmul_naive_kernel<<<grid, block>>>(d_c, d_a, d_b, m, n, k);
}

void matmul_tiled(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((n + TILE_WIDTH - 1) / TILE_WIDTH, (m + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_tiled_kernel<<<grid, block>>>(d_c, d_a, d_b, m, n, k);
}
