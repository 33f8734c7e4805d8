// expect: fail cannot cover
// The handout's hint, min(start + BLOCK, size), with unsigned block
// indices and an int size: CUDA has min(unsigned int, int). Right, but a
// block walks 32 rows, where lab 3 asks for a thread per element.
#include "lab.h"

#define BLOCK 32

__global__ void rows_of_a_block(float *out, const float *in, int rows, int cols)
{
    unsigned start = blockIdx.y * BLOCK;
    unsigned end = min(start + BLOCK, rows);
    unsigned c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= (unsigned)cols)
        return;
    for (unsigned r = start; r < end; r++)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    dim3 grid((cols + 31) / 32, (rows + BLOCK - 1) / BLOCK);
    rows_of_a_block<<<grid, 32>>>(out, in, rows, cols);
}
