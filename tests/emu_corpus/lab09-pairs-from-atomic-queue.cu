// expect: pass
// Persistent blocks take tile pairs from a __device__ counter (atomicAdd),
// reset each call with cudaMemcpyToSymbolAsync: valid.
// Written by a new student who had never read the emulator (issue 35).
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

__device__ unsigned int g_next_pair;

__global__ void transpose_tile_pairs(float *mat, int n, int T, int pairs)
{
    __shared__ float a[TILE_DIM][TILE_DIM + 1];
    __shared__ float b[TILE_DIM][TILE_DIM + 1];
    __shared__ int s_pair;
    const int tx = threadIdx.x, ty = threadIdx.y;

    for (;;) {
        if (tx == 0 && ty == 0)
            s_pair = (int)atomicAdd(&g_next_pair, 1u);
        __syncthreads();
        int p = s_pair;
        if (p >= pairs) break;          // the same for the whole block

        int R = 0;                      // row R of the upper triangle holds T - R pairs
        while (p >= T - R) { p -= T - R; ++R; }
        const int C = R + p;

        for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
            int y = R * TILE_DIM + ty + j, x = C * TILE_DIM + tx;
            if (y < n && x < n) a[ty + j][tx] = mat[(size_t)y * n + x];
            y = C * TILE_DIM + ty + j; x = R * TILE_DIM + tx;
            if (R != C && y < n && x < n) b[ty + j][tx] = mat[(size_t)y * n + x];
        }
        __syncthreads();
        for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
            int y = C * TILE_DIM + ty + j, x = R * TILE_DIM + tx;
            if (y < n && x < n) mat[(size_t)y * n + x] = a[tx][ty + j];
            y = R * TILE_DIM + ty + j; x = C * TILE_DIM + tx;
            if (R != C && y < n && x < n) mat[(size_t)y * n + x] = b[tx][ty + j];
        }
        __syncthreads();                // tiles and s_pair are reused
    }
}

void transpose_inplace(float *d_mat, int n)
{
    static int sms = 0;
    if (sms == 0) {
        cudaDeviceProp prop;
        cudaGetDeviceProperties(&prop, 0);
        sms = prop.multiProcessorCount > 0 ? prop.multiProcessorCount : 1;
    }
    const int T = (n + TILE_DIM - 1) / TILE_DIM;
    const int pairs = T * (T + 1) / 2;
    const unsigned zero = 0;
    cudaMemcpyToSymbolAsync(g_next_pair, &zero, sizeof zero, 0, cudaMemcpyHostToDevice, 0);
    int blocks = 4 * sms;
    if (blocks > pairs) blocks = pairs;
    transpose_tile_pairs<<<blocks, dim3(TILE_DIM, BLOCK_ROWS)>>>(d_mat, n, T, pairs);
}
