// expect: fail at most 65535 blocks
// Blocks of 256 x 1 threads, one block row per matrix row: gridDim.y is
// the number of rows, and a GPU refuses a grid with more than 65535 blocks
// in y. Right for every matrix of up to 65535 rows; a tall thin one
// (65536 x 2) is refused.
#include "lab.h"

__global__ void naive_rows(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y;
    if (c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    naive_rows<<<dim3((cols + 255) / 256, rows), dim3(256, 1)>>>(out, in, rows, cols);
}
