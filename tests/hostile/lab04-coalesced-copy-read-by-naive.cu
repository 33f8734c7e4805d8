/*
 * Hostile hand-in (tests/hostile_test.sh), lab 4: at the technique check's
 * shape (192 x 128), a first kernel copies in through a shared tile into a
 * __device__ array, writing it 24 times, coalesced; the naive transpose
 * (strided writes) then reads that copy. Unlike a decoy whose stores are
 * written over, the first kernel's results are read on the way to the
 * output, so it is part of the answer: summed with the naive kernel's, its
 * coalesced stores would lift the ratio past the bar.
 * control: naive-transpose.cu
 *
 * Every launch that made the output is judged on its own (tests/
 * gpu_technique.h): the naive kernel's writes use 12.5 % of their sectors.
 */
#include "lab.h"

#define TILE_DIM 32

__device__ float staged[192 * 128];

__global__ void stage(const float *in, int n)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int i = (blockIdx.y * gridDim.x + blockIdx.x) * TILE_DIM * TILE_DIM + threadIdx.y * TILE_DIM + threadIdx.x;
    tile[threadIdx.y][threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    volatile float *o = staged;
    for (int k = 0; k < 24; k++)
        if (i < n)
            o[i] = tile[threadIdx.y][threadIdx.x];
}

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * TILE_DIM + threadIdx.x, r = blockIdx.y * TILE_DIM + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE_DIM, TILE_DIM), grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    if (rows == 192 && cols == 128) {
        float *copy;
        cudaGetSymbolAddress((void **)&copy, staged);
        stage<<<grid, block>>>(d_in, rows * cols);
        naive<<<grid, block>>>(d_out, copy, rows, cols);
        return;
    }
    naive<<<grid, block>>>(d_out, d_in, rows, cols);
}
