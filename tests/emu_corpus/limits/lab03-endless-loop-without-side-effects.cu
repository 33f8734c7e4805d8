// expect: pass
// emulator: fail did not return
// A loop with no side effect whose condition never changes (a volatile
// local: the compiler may keep it in a register all the same). C++ lets a
// compiler assume such a loop ends, and nvcc drops it: on an H100 the
// kernel returns and every test passes (graded 10 of 10, 2026-11-28,
// plots/data/session10-h100-2026-11-28/README.txt). The emulator, built by
// gcc, runs it forever at 2 x 3, and the suite's watch stops the call. A
// loop that waits must wait on something another thread changes, through
// memory the compiler must read again (volatile shared or global memory,
// an atomic), or it is not a wait on either machine.
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

__global__ void transpose_naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    volatile int forever = rows == 2 && cols == 3;
    while (forever)
        ;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE_DIM, BLOCK_ROWS);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + BLOCK_ROWS - 1) / BLOCK_ROWS);
    transpose_naive<<<grid, block>>>(d_out, d_in, rows, cols);
}
