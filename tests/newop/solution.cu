/* Row sums: a thread a row, its row's floats in order. */
#include "lab.h"

TILELAB_ENTRY void row_sum(float *d_out, const float *d_in, int rows, int cols);

#ifndef BLOCK_ROWS
#define BLOCK_ROWS 128
#endif

__global__ void row_sum_kernel(float *out, const float *in, int rows, int cols)
{
    int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows)
        return;
    float sum = 0.0f;
    for (int c = 0; c < cols; c++)
        sum += in[(size_t)r * cols + c];
    out[r] = sum;
}

void row_sum(float *d_out, const float *d_in, int rows, int cols)
{
    row_sum_kernel<<<(rows + BLOCK_ROWS - 1) / BLOCK_ROWS, BLOCK_ROWS>>>(d_out, d_in, rows, cols);
}
