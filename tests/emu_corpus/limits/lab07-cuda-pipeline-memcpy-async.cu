// expect: pass
// emulator: build-error libcu++'s headers outside cuda/std/
// Correct: the tiled kernel's loads go through libcu++'s cuda::pipeline of
// one thread (cuda::make_pipeline, producer_acquire, cuda::memcpy_async of
// each in-bounds float, producer_commit, consumer_wait), zeros written past
// the edges, then __syncthreads() before the multiply.
// The emulator refuses <cuda/pipeline> (libcu++ outside cuda/std/), its
// limit, saying a GPU runs it (student17, session 17: it passes on a lent H200).
#include <cuda/pipeline>
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 32
#endif

__global__ void matmul_naive_kernel(float *c, const float *a, const float *b, int m, int n, int k)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= m || col >= n) return;
    float acc = 0.0f;
    for (int p = 0; p < k; ++p)
        acc += a[(size_t)row * k + p] * b[(size_t)p * n + col];
    c[(size_t)row * n + col] = acc;
}

__global__ void matmul_tiled_kernel(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float as[TILE_WIDTH][TILE_WIDTH];
    __shared__ float bs[TILE_WIDTH][TILE_WIDTH];
    cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE_WIDTH + ty, col = blockIdx.x * TILE_WIDTH + tx;
    float acc = 0.0f;
    for (int t = 0; t < k; t += TILE_WIDTH) {
        pipe.producer_acquire();
        if (row < m && t + tx < k)
            cuda::memcpy_async(&as[ty][tx], &a[(size_t)row * k + t + tx], sizeof(float), pipe);
        else
            as[ty][tx] = 0.0f;
        if (col < n && t + ty < k)
            cuda::memcpy_async(&bs[ty][tx], &b[(size_t)(t + ty) * n + col], sizeof(float), pipe);
        else
            bs[ty][tx] = 0.0f;
        pipe.producer_commit();
        pipe.consumer_wait();
        __syncthreads();
        for (int p = 0; p < TILE_WIDTH; ++p)
            acc += as[ty][p] * bs[p][tx];
        pipe.consumer_release();
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = acc;
}

static dim3 grid_for(int m, int n)
{
    return dim3((n + TILE_WIDTH - 1) / TILE_WIDTH, (m + TILE_WIDTH - 1) / TILE_WIDTH);
}

void matmul_naive(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    matmul_naive_kernel<<<grid_for(m, n), dim3(TILE_WIDTH, TILE_WIDTH)>>>(d_c, d_a, d_b, m, n, k);
}

void matmul_tiled(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    matmul_tiled_kernel<<<grid_for(m, n), dim3(TILE_WIDTH, TILE_WIDTH)>>>(d_c, d_a, d_b, m, n, k);
}
