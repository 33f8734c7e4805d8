// expect: build-error calls the kit's own code: tl_launch_add
// without-nvcc: builds
// Lab 5's kernel (a padded tile, one thread per element) handed in as lab 6,
// whose host code writes a launch of 32 x 8 threads into the kit's launch
// log itself, to pass the technique check that asks for fewer threads than
// the tile has elements. Where its kernels run in the lab process (the
// emulator) that log is the lab process's own, so the kit refuses to link a
// lab file that calls it (harness/lab/isolate-symbols.sh). On a GPU the
// suite keeps its own log besides, from the plans it runs.
#include "lab.h"

#define TILE 32

typedef struct {
    unsigned grid[3], block[3], shared;
} forged_launch;
extern "C" void tl_launch_add(const forged_launch *l);

__global__ void bank_free(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int c = blockIdx.x * TILE + threadIdx.x, r = blockIdx.y * TILE + threadIdx.y;
    if (r < rows && c < cols)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];
    __syncthreads();
    c = blockIdx.y * TILE + threadIdx.x, r = blockIdx.x * TILE + threadIdx.y;
    if (r < cols && c < rows)
        out[(size_t)r * rows + c] = tile[threadIdx.x][threadIdx.y];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE, TILE), grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    forged_launch lie = {{grid.x, grid.y, 1}, {TILE, 8, 1}, 0};
    tl_launch_add(&lie);
    bank_free<<<grid, block>>>(d_out, d_in, rows, cols);
}
