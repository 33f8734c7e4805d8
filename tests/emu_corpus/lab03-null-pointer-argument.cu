// expect: pass
// A kernel with an optional pointer, given NULL at one launch and 0 at
// another (through a pointer to the kernel), as C code passes "no buffer":
// nvcc converts each to a null float * where the launch is written. The
// emulator once refused the file: invalid conversion from 'long int' to
// 'float*'.
#include "lab.h"
#include <stddef.h>

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

/* counts: where not null, one count per element moved */
__global__ void transpose_naive(float *out, const float *in, int rows, int cols, unsigned *counts)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) {
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
        if (counts)
            atomicAdd(counts, 1u);
    }
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE_DIM, BLOCK_ROWS);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + BLOCK_ROWS - 1) / BLOCK_ROWS);
    if (rows % 2)
        transpose_naive<<<grid, block>>>(d_out, d_in, rows, cols, NULL);
    else {
        void (*kernel)(float *, const float *, int, int, unsigned *) = transpose_naive;
        kernel<<<grid, block>>>(d_out, d_in, rows, cols, 0);
    }
}
