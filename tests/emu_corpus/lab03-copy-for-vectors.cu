// expect: fail your call, transpose() of a 1 x 1000 matrix, launched no kernel
// A 1 x N or N x 1 matrix is its own transpose in memory: a cudaMemcpyAsync, no
// kernel. Right values; the launch check names the shape with no launch and says
// the output was right (stud8, bug 8: it ended in a dangling ": ").
/* Clever student: a vector's transpose is the same bytes, so skip the kernel. */
#include "lab.h"
#include <stddef.h>

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

__global__ void transpose_naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * TILE_DIM + threadIdx.x;
    int r = blockIdx.y * BLOCK_ROWS + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    if (rows == 1 || cols == 1) {
        cudaMemcpyAsync(d_out, d_in, (size_t)rows * cols * sizeof(float),
                        cudaMemcpyDeviceToDevice, 0);
        return;
    }
    dim3 block(TILE_DIM, BLOCK_ROWS);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + BLOCK_ROWS - 1) / BLOCK_ROWS);
    transpose_naive<<<grid, block>>>(d_out, d_in, rows, cols);
}
