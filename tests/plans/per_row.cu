// One launch a row: more steps than a plan holds, refused with why.
#include "lab.h"

__global__ void row(float *out, const float *in, int r, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    for (int r = 0; r < rows; r++)
        row<<<(cols + 255) / 256, 256>>>(out, in, r, rows, cols);
}
