/*
 * Lab 8, the extension: sgemm, past shared-memory tiling.
 *
 *   void sgemm(float *d_c, const float *d_a, const float *d_b, int m, int n, int k);
 *
 * The contract of lab 7: C = A B, row-major on the GPU; A is m x k, B is
 * k x n, C is m x n; A[i][p] is d_a[(size_t)i * k + p], B[p][j] is
 * d_b[(size_t)p * n + j], C[i][j] is d_c[(size_t)i * n + j]. Launch on the
 * default stream and return without synchronising.
 *
 * Start from your lab 7 tiled kernel, then go past it one step at a time,
 * measuring each with make lab8 bench (README.md walks through them):
 *  1. register blocking: each thread computes a small tile of C (e.g. 8 x 8)
 *     in registers, from a larger block tile (e.g. 128 x 128);
 *  2. vectorised loads: float4 from global and from shared memory, where
 *     the rows are 16-byte aligned;
 *  3. double buffering: load the next tiles while multiplying the current.
 *
 * Sizes: as lab 7, any m, n, k >= 1, not only multiples of your tiles.
 * Rules: CUDA C, no libraries; one kernel and its helpers.
 * Graded by: make lab8 test (correctness, and each thread must compute a
 *        tile of C) and make lab8 bench (GFLOP/s beside cuBLAS SGEMM).
 * Read README.md in this folder first.
 */
#include "lab.h"

void sgemm(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    TODO("copy your lab 7 tiled kernel here and launch it (README.md, step 0): the value tests "
         "pass, and the technique test asks for what step 1 brings, a tile of C a thread; then "
         "make it faster, one step at a time");
    (void)d_c, (void)d_a, (void)d_b, (void)m, (void)n, (void)k;
}
