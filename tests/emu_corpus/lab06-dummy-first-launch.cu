// expect: fail elements each, one thread per element
// gpu-expect: pass
// Lab 5's kernel (a padded tile, one thread per element) handed in as lab 6,
// after a first launch of 32 x 8 threads that does nothing: the technique
// counts every thread the call ran, so the idle launch cannot stand for the
// kernel that does the work, whose 32 x 32 blocks fail "several elements
// per thread".
#include "lab.h"

#define TILE 32

__global__ void idle(void) {}

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
    idle<<<grid, dim3(TILE, 8)>>>();
    bank_free<<<grid, block>>>(d_out, d_in, rows, cols);
}
