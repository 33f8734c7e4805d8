/*
 * Hostile hand-in (tests/hostile_test.sh), lab 5: one file, two programs
 * (issue 36): the emulator's build runs the padded tile, for its counts
 * (technique, and performance where there is no GPU); nvcc's device pass
 * gets the naive transpose, for the GPU.
 * control: naive-transpose.cu
 *
 * The emulator's build refuses a file whose preprocessed lines differ from
 * nvcc's (harness/emu/emu-compile.sh), and the grader refuses the lab with
 * the reason on every machine.
 */
#include "lab.h"

#define TILE 32

__global__ void kernel(float *out, const float *in, int rows, int cols)
{
#ifdef __CUDA_ARCH__
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
#else
    __shared__ float tile[TILE][TILE + 1];
    int c = blockIdx.x * TILE + threadIdx.x, r = blockIdx.y * TILE + threadIdx.y;
    if (r < rows && c < cols)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];
    __syncthreads();
    c = blockIdx.y * TILE + threadIdx.x, r = blockIdx.x * TILE + threadIdx.y;
    if (r < cols && c < rows)
        out[(size_t)r * rows + c] = tile[threadIdx.x][threadIdx.y];
#endif
}

void transpose(float *out, const float *in, int rows, int cols)
{
    dim3 block(TILE, TILE), grid((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE);
    kernel<<<grid, block>>>(out, in, rows, cols);
}
