/*
 * Lab 7 reference: one thread per element of C, naive and tiled.
 *
 * The naive kernel reads 2k floats from global memory for each of the
 * m n elements. The tiled one stages TILE_WIDTH x TILE_WIDTH tiles of A and
 * B in shared memory, so each float it loads serves TILE_WIDTH threads:
 * global loads fall by a factor of TILE_WIDTH. Tiles that hang over the
 * edge of A or B load zeros, which add nothing to the sums.
 */
#include "lab.h"

#include <stddef.h>

#ifndef TILE_WIDTH
#define TILE_WIDTH 16
#endif

__global__ void matmul_naive_kernel(float *c, const float *a, const float *b, int m, int n, int k)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= m || col >= n)
        return;
    float sum = 0.0f;
    for (int p = 0; p < k; p++)
        sum += a[(size_t)row * k + p] * b[(size_t)p * n + col];
    c[(size_t)row * n + col] = sum;
}

/*
 * The tiled kernel, laid out for shared memory's 128-byte wavefronts. A
 * warp computes a 4 x 8 patch of the block's tile of C (not a row of it),
 * and reads 4 neighbouring k at once from each tile as a float4: the A
 * tile by rows, the B tile stored transposed (tile_bt[col][p]), so a
 * thread's four values of its column sit side by side. Per 4 steps of p, a
 * warp then asks shared memory for one wavefront of A (4 rows x 16 bytes)
 * and one of B (8 columns x 16 bytes), where the plain layout needs 5.
 * Rows are padded by 4 floats, so the 4 rows, or 8 columns, of a warp's
 * float4s fall in different banks. Still one output per thread.
 */
#if TILE_WIDTH % 8 != 0
#error "this tiled kernel needs TILE_WIDTH a multiple of 8 (warps of 4 x 8 outputs)"
#endif
#define PAD 4

__global__ void matmul_tiled_kernel(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ __align__(16) float tile_a[TILE_WIDTH][TILE_WIDTH + PAD];
    __shared__ __align__(16) float tile_bt[TILE_WIDTH][TILE_WIDTH + PAD];

    /* The loads go by (tx, ty), along rows of A and B: coalesced. */
    int tx = threadIdx.x, ty = threadIdx.y;
    /* The output: warp w takes rows (w / (T/8)) * 4 .. +3, columns (w % (T/8)) * 8 .. +7. */
    int t = ty * TILE_WIDTH + tx, warp = t / 32, lane = t % 32;
    int out_r = warp / (TILE_WIDTH / 8) * 4 + lane / 8, out_c = warp % (TILE_WIDTH / 8) * 8 + lane % 8;
    int row = blockIdx.y * TILE_WIDTH + out_r, col = blockIdx.x * TILE_WIDTH + out_c;
    int load_row = blockIdx.y * TILE_WIDTH + ty, load_col = blockIdx.x * TILE_WIDTH + tx;
    float sum = 0.0f;

    for (int p0 = 0; p0 < k; p0 += TILE_WIDTH) {
        tile_a[ty][tx] = load_row < m && p0 + tx < k ? a[(size_t)load_row * k + p0 + tx] : 0.0f;
        tile_bt[tx][ty] = p0 + ty < k && load_col < n ? b[(size_t)(p0 + ty) * n + load_col] : 0.0f;
        __syncthreads();
        for (int p = 0; p < TILE_WIDTH; p += 4) {
            float4 x = *(const float4 *)&tile_a[out_r][p];
            float4 y = *(const float4 *)&tile_bt[out_c][p];
            sum += x.x * y.x;
            sum += x.y * y.y;
            sum += x.z * y.z;
            sum += x.w * y.w;
        }
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = sum;
}

static dim3 grid_for(int m, int n)
{
    return dim3((n + TILE_WIDTH - 1) / TILE_WIDTH, (m + TILE_WIDTH - 1) / TILE_WIDTH);
}

void matmul_naive(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    matmul_naive_kernel<<<grid_for(m, n), block>>>(d_c, d_a, d_b, m, n, k);
}

void matmul_tiled(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    matmul_tiled_kernel<<<grid_for(m, n), block>>>(d_c, d_a, d_b, m, n, k);
}
