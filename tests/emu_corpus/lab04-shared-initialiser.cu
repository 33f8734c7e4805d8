// expect: build-error initializer not allowed for __shared__ variable
// A __shared__ counter given an initialiser, as a static would be: CUDA
// does not initialise shared memory, and nvcc refuses the initialiser.
// Without nvcc the emulator built it (g++ took it as a static's initialiser,
// set once for the program) and ran it (student17, session 17).
#include "lab.h"

#define TILE_DIM 32

__global__ void transpose_coalesced(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM];
    __shared__ int loaded = 0;
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    if (x < cols && y < rows) {
        tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
        atomicAdd(&loaded, 1);
    }
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x;
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    if (loaded > 0 && x < rows && y < cols)
        out[(size_t)y * rows + x] = tile[threadIdx.x][threadIdx.y];
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE_DIM, TILE_DIM);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    transpose_coalesced<<<grid, block>>>(d_out, d_in, rows, cols);
}
