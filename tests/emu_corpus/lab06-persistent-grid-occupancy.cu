// expect: pass
// A persistent grid sized by cudaOccupancyMaxActiveBlocksPerMultiprocessor
// times the SMs, each block looping over tiles: valid.
// Written by a new student who had never read the emulator (issue 35).
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

__global__ void transpose_unrolled(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    const int tiles_x = (cols + TILE_DIM - 1) / TILE_DIM;
    const int tiles_y = (rows + TILE_DIM - 1) / TILE_DIM;
    const long long ntiles = (long long)tiles_x * tiles_y;

    for (long long t = blockIdx.x; t < ntiles; t += gridDim.x) {
        const int bx = (int)(t % tiles_x), by = (int)(t / tiles_x);
        int x = bx * TILE_DIM + threadIdx.x;
        int y = by * TILE_DIM + threadIdx.y;
        for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
            if (x < cols && y + j < rows)
                tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
        __syncthreads();
        x = by * TILE_DIM + threadIdx.x;
        y = bx * TILE_DIM + threadIdx.y;
        for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
            if (x < rows && y + j < cols)
                out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
        __syncthreads();   // before the next tile overwrites this one
    }
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    static int max_blocks = 0;
    if (max_blocks == 0) {
        int dev, sms, per_sm;
        cudaGetDevice(&dev);
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, transpose_unrolled,
                                                      TILE_DIM * BLOCK_ROWS, 0);
        max_blocks = sms * per_sm;
        if (max_blocks < 1) max_blocks = 1;
    }
    long long ntiles = (long long)((cols + TILE_DIM - 1) / TILE_DIM) * ((rows + TILE_DIM - 1) / TILE_DIM);
    int blocks = ntiles < max_blocks ? (int)ntiles : max_blocks;
    transpose_unrolled<<<blocks, dim3(TILE_DIM, BLOCK_ROWS)>>>(d_out, d_in, rows, cols);
}
