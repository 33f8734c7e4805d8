/*
 * Lab 7: matrix multiplication, naive and tiled.
 *
 *   void matmul_naive(float *d_c, const float *d_a, const float *d_b, int m, int n, int k);
 *   void matmul_tiled(float *d_c, const float *d_a, const float *d_b, int m, int n, int k);
 *
 * C = A B, all row-major on the GPU: A is m x k, B is k x n, C is m x n.
 *   C[i][j] = sum over p < k of A[i][p] * B[p][j]
 *   A[i][p] is d_a[(size_t)i * k + p], B[p][j] is d_b[(size_t)p * n + j],
 *   C[i][j] is d_c[(size_t)i * n + j]
 *
 * Write two kernels and their launches:
 *  1. matmul_naive: one thread per element of C. Its thread reads a whole
 *     row of A and a whole column of B from global memory.
 *  2. matmul_tiled: blocks of TILE_WIDTH x TILE_WIDTH threads, each thread
 *     still one element of C. The block walks along k one tile at a time:
 *     it loads a TILE_WIDTH x TILE_WIDTH tile of A and one of B into
 *     __shared__ arrays, waits, multiplies them, waits again, moves on.
 *     Each element loaded from global memory is then used TILE_WIDTH times.
 * Both launch on the default stream and return without synchronising.
 *
 * Sizes: m, n and k are independent, any value >= 1: 1x1x1, k = 1, sizes
 *        that are not multiples of TILE_WIDTH, tall, wide and large. Tiles
 *        hanging over an edge must load 0.0f outside the matrices: the
 *        tests put NaN right after A and B, so a load past the end shows.
 * Rules: TILE_WIDTH may change (make lab7 test TILE_WIDTH=16); a block of
 *        TILE_WIDTH x TILE_WIDTH threads must stay within 1024.
 * Graded by: make lab7 test (correctness of both; the tiled kernel must use
 *        shared tiles of A and B) and make lab7 bench (GFLOP/s beside the
 *        reference and cuBLAS).
 * Read README.md in this folder first.
 */
#include "lab.h"

#ifndef TILE_WIDTH
#define TILE_WIDTH 32
#endif

__global__ void matmul_naive_kernel(float *c, const float *a,
                                    const float *b,
                                    int m, int n, int k)
{
    /* TODO: row and col of this thread's element of C; the dot
     * product of that row of A and that column of B. */
    (void)c, (void)a, (void)b, (void)m, (void)n, (void)k;
}

__global__ void matmul_tiled_kernel(float *c, const float *a,
                                    const float *b,
                                    int m, int n, int k)
{
    /* TODO: two __shared__ tiles; for each tile along k: load,
     * __syncthreads(), multiply, __syncthreads(). */
    (void)c, (void)a, (void)b, (void)m, (void)n, (void)k;
}

void matmul_naive(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    TODO("write matmul_naive_kernel (one thread per element of C) and launch it here with "
         "TILE_WIDTH x TILE_WIDTH blocks and a grid that covers n (x) and m (y), rounding up "
         "(README.md, step 1)");
    (void)d_c, (void)d_a, (void)d_b, (void)m, (void)n, (void)k;
}

void matmul_tiled(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    TODO("write matmul_tiled_kernel (shared TILE_WIDTH x TILE_WIDTH tiles of A and B, walked "
         "along k) and launch it like the naive one (README.md, step 2)");
    (void)d_c, (void)d_a, (void)d_b, (void)m, (void)n, (void)k;
}
