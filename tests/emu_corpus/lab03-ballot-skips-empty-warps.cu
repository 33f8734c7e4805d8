// expect: pass
// Warp votes in the naive transpose. Each warp is one row of 32 threads
// (blocks of 32 x 8): __ballot_sync tells it whether any lane is on the
// matrix, and a warp with none leaves; __all_sync picks a path without the
// bounds test for warps wholly inside. The whole warp votes every time.
#include "lab.h"

#define FULL_MASK 0xffffffffu

__global__ void naive_votes(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    bool inside = r < rows && c < cols;
    if (__ballot_sync(FULL_MASK, inside) == 0)
        return; /* the whole warp is past the edge */
    if (__all_sync(FULL_MASK, inside))
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
    else if (inside)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    dim3 block(32, 8);
    naive_votes<<<dim3((cols + 31) / 32, (rows + 7) / 8), block>>>(out, in, rows, cols);
}
