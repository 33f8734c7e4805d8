/*
 * Lab 7 reference: one thread per element of C, naive and tiled.
 *
 * The naive kernel reads 2k floats from global memory for each of the
 * m n elements. The tiled one stages TILE_WIDTH x TILE_WIDTH tiles of A and
 * B in shared memory, so each float it loads serves TILE_WIDTH threads:
 * global loads fall by a factor of TILE_WIDTH. Tiles that hang over the
 * edge of A or B load zeros, which add nothing to the sums.
 *
 * matmul_tiled_kernel is the handout's step 2, as a student writes it. On
 * an H100 it is bound by the L1 data pipe, which serves shared loads
 * (README.md, "What to expect"): each multiply-add costs 1.5 passes of it,
 * B's float always one. matmul_paired_kernel, which matmul_tiled launches
 * where TILE_WIDTH is a multiple of 8, is the same kernel one step further
 * (the handout's "One step further"): still one element of C per thread,
 * but it reads both tiles as float4s along k, so a thread's 4 multiply-adds
 * take 2 loads, and it orders a warp's lanes so that lanes in pairs want one
 * float4. A float4 load by unpaired lanes takes 4 passes; by paired ones, 2.
 * That is 1 pass a multiply-add.
 */
#include "lab.h"

#include <stddef.h>

/* 32: the fastest of 8, 16, 24 and 32 for both tiled kernels and the naive
 * one on the H100 (README.md, "What to expect"). */
#ifndef TILE_WIDTH
#define TILE_WIDTH 32
#endif
/* The paired kernel's tiles are laid out so that the float4s a half-warp
 * reads fall in different banks (8 banks' worth of float4s a pass):
 * B's, transposed, in rows of an odd number of float4s, TILE_WIDTH + 4
 * floats; A's in rows of TILE_WIDTH floats, but 36 at TILE_WIDTH 32, where
 * rows r and r + 1 would start in the same bank. */
#define ROW_B (TILE_WIDTH + 4)
#define ROW_A (TILE_WIDTH % 32 == 0 ? TILE_WIDTH + 4 : TILE_WIDTH)
/* Threads an SM holds at once: 2048 on the A100 and the H100, at least
 * 1024 on any GPU the kit builds for. The emulator's build and nvcc's host
 * pass know no architecture: they take the H100's, which the emulator
 * models (a lab file is one program for the emulator and for nvcc's passes
 * for the H100: harness/emu/emu-compile.sh). */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ != 800 && __CUDA_ARCH__ != 900
#define SM_THREADS 1024
#else
#define SM_THREADS 2048
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

__global__ void matmul_tiled_kernel(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float tile_a[TILE_WIDTH][TILE_WIDTH];
    __shared__ float tile_b[TILE_WIDTH][TILE_WIDTH];

    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE_WIDTH + ty;
    int col = blockIdx.x * TILE_WIDTH + tx;
    float sum = 0.0f;

    for (int p0 = 0; p0 < k; p0 += TILE_WIDTH) {
        /* Threads outside C still load: their block's other threads need the tiles. */
        tile_a[ty][tx] = row < m && p0 + tx < k ? a[(size_t)row * k + p0 + tx] : 0.0f;
        tile_b[ty][tx] = p0 + ty < k && col < n ? b[(size_t)(p0 + ty) * n + col] : 0.0f;
        __syncthreads();
        for (int p = 0; p < TILE_WIDTH; p++)
            sum += tile_a[ty][p] * tile_b[p][tx];
        __syncthreads();
    }
    if (row < m && col < n)
        c[(size_t)row * n + col] = sum;
}

#if TILE_WIDTH % 8 == 0
/*
 * The block's tile of C is cut into patches of 4 rows x 8 columns, one a
 * warp. Lane bits 1-3 pick the patch's column, bits 0 and 4 its row:
 *
 *   lane   0  1  2  3  4  5 ..  15 | 16 17 18 ..  31
 *   row    0  1  0  1  0  1 ..   1 |  2  3  2 ..   3
 *   col    0  0  1  1  2  2 ..   7 |  0  0  1 ..   7
 *
 * So lanes l and l ^ 1 share a column, and read one float4 of B's tile;
 * lanes l and l ^ 2 share a row, and read one float4 of A's. Both tiles
 * are kept with k along their rows (B's transposed, tile_bt[col][p]).
 *
 * __launch_bounds__ holds it to the registers that let as many threads be
 * resident as an SM holds, 32 each on an H100: left alone, nvcc gives it
 * 40, and a 32 x 32 block then has an SM to itself, idle at each barrier.
 */
__global__ __launch_bounds__(TILE_WIDTH * TILE_WIDTH, SM_THREADS / (TILE_WIDTH * TILE_WIDTH)) void
matmul_paired_kernel(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ __align__(16) float tile_a[TILE_WIDTH][ROW_A];
    __shared__ __align__(16) float tile_bt[TILE_WIDTH][ROW_B];

    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * TILE_WIDTH + tx;
    int warp = tid / 32, lane = tid % 32;
    int patch_row = warp / (TILE_WIDTH / 8) * 4, patch_col = warp % (TILE_WIDTH / 8) * 8;
    /* this thread's element of C, in the block's tile */
    int r = patch_row + (lane & 1) + (lane >> 4) * 2, cc = patch_col + (lane >> 1) % 8;
    /* the element of B's tile it loads: a warp loads 4 rows of 8, whose
     * transposed stores fall in 32 different banks */
    int br = patch_row + lane / 8, bc = patch_col + lane % 8;
    int row0 = blockIdx.y * TILE_WIDTH, col0 = blockIdx.x * TILE_WIDTH;
    float sum = 0.0f;

    for (int p0 = 0; p0 < k; p0 += TILE_WIDTH) {
        tile_a[ty][tx] = row0 + ty < m && p0 + tx < k ? a[(size_t)(row0 + ty) * k + p0 + tx] : 0.0f;
        tile_bt[bc][br] = p0 + br < k && col0 + bc < n ? b[(size_t)(p0 + br) * n + col0 + bc] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int p = 0; p < TILE_WIDTH; p += 4) {
            float4 x = *(const float4 *)&tile_a[r][p], y = *(const float4 *)&tile_bt[cc][p];
            sum += x.x * y.x;
            sum += x.y * y.y;
            sum += x.z * y.z;
            sum += x.w * y.w;
        }
        __syncthreads();
    }
    if (row0 + r < m && col0 + cc < n)
        c[(size_t)(row0 + r) * n + col0 + cc] = sum;
}
#endif

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
#if TILE_WIDTH % 8 == 0
    matmul_paired_kernel<<<grid_for(m, n), block>>>(d_c, d_a, d_b, m, n, k);
#else
    matmul_tiled_kernel<<<grid_for(m, n), block>>>(d_c, d_a, d_b, m, n, k);
#endif
}
