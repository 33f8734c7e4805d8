// expect: fail
// emulator-says: off by exactly a value another element of C came out with
// emulator-says: float sum = 0.0f
// expect-not: values are computed but wrong: check A[row * k + p] and B[p * n + col], and
// A student's: the tiled kernel's accumulator declared without a value (float sum;): each
// element of C starts from what its register held. On the emulator, a thread's stack slot
// holds the sum of the thread of the block before; what a GPU's register holds is
// undefined (nvcc gives no warning). A 1 x 1 product cannot tell an offset from a wrong
// sum: there the list of causes names the accumulator among the indices.
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 32
#endif

__global__ void matmul_naive_kernel(float *c, const float *a,
                                    const float *b,
                                    int m, int n, int k)
{
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    if (row < m && col < n) {
        float sum = 0.0f;
        for (int p = 0; p < k; p++)
            sum += a[(size_t)row * k + p] * b[(size_t)p * n + col];
        c[(size_t)row * n + col] = sum;
    }
}

__global__ void matmul_tiled_kernel(float *c, const float *a,
                                    const float *b,
                                    int m, int n, int k)
{
    __shared__ float as[TILE_WIDTH][TILE_WIDTH];
    __shared__ float bs[TILE_WIDTH][TILE_WIDTH];
    int tx = threadIdx.x, ty = threadIdx.y;
    int col = blockIdx.x * TILE_WIDTH + tx;
    int row = blockIdx.y * TILE_WIDTH + ty;
    float sum;
    for (int p0 = 0; p0 < k; p0 += TILE_WIDTH) {
        as[ty][tx] = (row < m && p0 + tx < k) ? a[(size_t)row * k + p0 + tx] : 0.0f;
        bs[ty][tx] = (p0 + ty < k && col < n) ? b[(size_t)(p0 + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int q = 0; q < TILE_WIDTH; q++)
            sum += as[ty][q] * bs[q][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = sum;
}

void matmul_naive(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((n + TILE_WIDTH - 1) / TILE_WIDTH, (m + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_naive_kernel<<<grid, block>>>(d_c, d_a, d_b, m, n, k);
}

void matmul_tiled(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((n + TILE_WIDTH - 1) / TILE_WIDTH, (m + TILE_WIDTH - 1) / TILE_WIDTH);
    matmul_tiled_kernel<<<grid, block>>>(d_c, d_a, d_b, m, n, k);
}
