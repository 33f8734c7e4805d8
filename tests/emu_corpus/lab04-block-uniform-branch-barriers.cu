// expect: pass
// Correct: interior blocks take a path without bounds tests and edge blocks
// one with them; each path has its own __syncthreads(). The branch depends
// only on blockIdx, so every thread of a block takes the same side: both
// barriers are reached by whole blocks, which CUDA allows.
#include "lab.h"

#define T 32

__global__ void split_paths(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[T][T];
    int bx = blockIdx.x * T, by = blockIdx.y * T;
    int tx = threadIdx.x, ty = threadIdx.y;
    bool interior = bx + T <= cols && by + T <= rows;
    if (interior) {
        tile[ty][tx] = in[(size_t)(by + ty) * cols + bx + tx];
        __syncthreads();
        out[(size_t)(bx + ty) * rows + by + tx] = tile[tx][ty];
    } else {
        if (by + ty < rows && bx + tx < cols)
            tile[ty][tx] = in[(size_t)(by + ty) * cols + bx + tx];
        __syncthreads();
        if (bx + ty < cols && by + tx < rows)
            out[(size_t)(bx + ty) * rows + by + tx] = tile[tx][ty];
    }
}

void transpose(float *out, const float *in, int rows, int cols)
{
    split_paths<<<dim3((cols + T - 1) / T, (rows + T - 1) / T), dim3(T, T)>>>(out, in, rows, cols);
}
