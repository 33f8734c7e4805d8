// expect: fail at most 1024 threads
// One thread for each row of A, all in one 1-D block: <<<1, m>>>. Right
// while m <= 1024; for a taller A the GPU refuses the block (a block holds
// at most 1024 threads), as lab 7's large shape (1027 rows on a GPU)
// shows. The emulator's large shape (259 rows) does not cross it.
#include "lab.h"

#define TILE 16

__global__ void row_per_thread(float *c, const float *a, const float *b, int m, int n, int k)
{
    int row = threadIdx.x;
    if (row >= m)
        return;
    for (int col = 0; col < n; col++) {
        float sum = 0.0f;
        for (int p = 0; p < k; p++)
            sum += a[(size_t)row * k + p] * b[(size_t)p * n + col];
        c[(size_t)row * n + col] = sum;
    }
}

void matmul_naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    row_per_thread<<<1, m>>>(c, a, b, m, n, k);
}

/* matmul_tiled: the usual pair of TILE x TILE shared tiles. */
__global__ void tiled(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float as[TILE][TILE], bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float sum = 0.0f;
    for (int p0 = 0; p0 < k; p0 += TILE) {
        as[ty][tx] = row < m && p0 + tx < k ? a[(size_t)row * k + p0 + tx] : 0.0f;
        bs[ty][tx] = p0 + ty < k && col < n ? b[(size_t)(p0 + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int q = 0; q < TILE; q++)
            sum += as[ty][q] * bs[q][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = sum;
}

void matmul_tiled(float *c, const float *a, const float *b, int m, int n, int k)
{
    tiled<<<dim3((n + TILE - 1) / TILE, (m + TILE - 1) / TILE), dim3(TILE, TILE)>>>(c, a, b, m, n, k);
}
