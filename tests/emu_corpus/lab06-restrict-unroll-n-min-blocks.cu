// expect: pass
// Correct: the unrolled transpose with const float *__restrict__ in,
// __launch_bounds__(TILE_DIM * BLOCK_ROWS, 4) (a minimum of 4 blocks an
// SM), #pragma unroll with a count written as an expression, and the
// elements loaded with __ldg and stored with __stcs (streaming).
// Its verdict on a lent H200, as above (student17, session 17).
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

constexpr int kSteps = TILE_DIM / BLOCK_ROWS;

__global__ void __launch_bounds__(TILE_DIM * BLOCK_ROWS, 4)
transpose_unrolled(float *__restrict__ out, const float *__restrict__ in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    const int x = blockIdx.x * TILE_DIM + threadIdx.x;
    const int y = blockIdx.y * TILE_DIM + threadIdx.y;
#pragma unroll (kSteps)
    for (int s = 0; s < kSteps; ++s) {
        const int j = s * BLOCK_ROWS;
        if (x < cols && y + j < rows)
            tile[threadIdx.y + j][threadIdx.x] = __ldg(&in[(size_t)(y + j) * cols + x]);
    }
    __syncthreads();
    const int ox = blockIdx.y * TILE_DIM + threadIdx.x;
    const int oy = blockIdx.x * TILE_DIM + threadIdx.y;
#pragma unroll (kSteps)
    for (int s = 0; s < kSteps; ++s) {
        const int j = s * BLOCK_ROWS;
        if (ox < rows && oy + j < cols)
            __stcs(&out[(size_t)(oy + j) * rows + ox], tile[threadIdx.x][threadIdx.y + j]);
    }
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE_DIM, BLOCK_ROWS);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    transpose_unrolled<<<grid, block>>>(d_out, d_in, rows, cols);
}
