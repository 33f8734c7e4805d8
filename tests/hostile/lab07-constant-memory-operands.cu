/*
 * Hostile hand-in (tests/hostile_test.sh), lab 7: for each 32 x 32 block of
 * C, its rows of A and columns of B copied into a __constant__ array by
 * cudaMemcpyToSymbol from the device, and a one-block kernel that takes its
 * dot products from there, with a shared array written and read back as a
 * decoy. The emulator counted neither the copies nor the constant reads: no
 * global load at all, so "each float moved serves TILE_WIDTH multiply-adds"
 * held, and the ratio to the reference was 24 (issue 36), its control 5.
 * Past k = 256 it falls back to the naive kernel (correctness only).
 * control: naive-matmul.cu
 *
 * The copies are counted as the copies they are (global sectors read and
 * written), and the constant reads as passes, one an address a warp (B's
 * row, 32 addresses, takes 32): the technique check sees the moved floats
 * go nowhere near a shared tile, and the cost is at least the naive one's.
 */
#include "lab.h"

#define CHUNK 16384
__constant__ float operands[CHUNK];

__global__ void naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < m && col < n) {
        float sum = 0;
        for (int p = 0; p < k; p++)
            sum += a[(size_t)row * k + p] * b[(size_t)p * n + col];
        c[(size_t)row * n + col] = sum;
    }
}

/* operands: mb rows of A (mb x k), then nb columns of B (k x nb) */
__global__ void one_block(float *c, int n, int k, int i0, int j0, int mb, int nb)
{
    __shared__ float decoy[32][33];
    int i = threadIdx.y, j = threadIdx.x;
    float sum = 0;
    if (i < mb && j < nb)
        for (int p = 0; p < k; p++)
            sum += operands[i * k + p] * operands[mb * k + p * nb + j];
    decoy[i][j] = sum;
    __syncthreads();
    if (i < mb && j < nb)
        c[(size_t)(i0 + i) * n + j0 + j] = decoy[i][j];
}

static void product(float *c, const float *a, const float *b, int m, int n, int k)
{
    if (k > 256) {
        dim3 block(16, 16), grid((n + 15) / 16, (m + 15) / 16);
        naive<<<grid, block>>>(c, a, b, m, n, k);
        return;
    }
    for (int i0 = 0; i0 < m; i0 += 32)
        for (int j0 = 0; j0 < n; j0 += 32) {
            int mb = m - i0 < 32 ? m - i0 : 32, nb = n - j0 < 32 ? n - j0 : 32;
            cudaMemcpyToSymbol(operands, a + (size_t)i0 * k, (size_t)mb * k * sizeof(float), 0,
                               cudaMemcpyDeviceToDevice);
            for (int p = 0; p < k; p++)
                cudaMemcpyToSymbol(operands, b + (size_t)p * n + j0, nb * sizeof(float),
                                   ((size_t)mb * k + (size_t)p * nb) * sizeof(float), cudaMemcpyDeviceToDevice);
            one_block<<<1, dim3(32, 32)>>>(c, n, k, i0, j0, mb, nb);
        }
}

void matmul_naive(float *c, const float *a, const float *b, int m, int n, int k) { product(c, a, b, m, n, k); }
void matmul_tiled(float *c, const float *a, const float *b, int m, int n, int k) { product(c, a, b, m, n, k); }
