// expect: fail the launch's y must cover the rows
// expect-not: blocks of 1 threads are
// One thread an element, but the block is one row of 256 threads that the
// kernel spreads over 8 rows of the matrix itself (warp = threadIdx.x /
// warpSize), the grid's y counting blocks of 8 rows. The values are right;
// the technique check reads a launch as x over the columns and y over the
// rows (README.md), and fails it. It said "in y, 5 blocks of 1 threads are 5
// threads for 33 rows, where ... 33 blocks are needed", which asks for a
// grid that would be wrong for this kernel; it now says what it reads.
#include "lab.h"

__global__ void by_warps(float *out, const float *in, int rows, int cols)
{
    int lane = threadIdx.x % warpSize;
    int warp = threadIdx.x / warpSize;
    int warps = blockDim.x / warpSize;
    int c = blockIdx.x * warpSize + lane;
    int r = blockIdx.y * warps + warp;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 grid((cols + 31) / 32, (rows + 7) / 8);
    by_warps<<<grid, 256>>>(d_out, d_in, rows, cols);
}
