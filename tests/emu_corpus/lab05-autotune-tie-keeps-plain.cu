// expect: fail shared
// gpu-expect: pass
// An autotuner in the call: a plain kernel (no shared memory) and the padded
// tiled one, each timed with CUDA events, the tiled kept only where it was
// faster. Inside a lab's call the kit's events see no work on a GPU (the
// lab process records the call's launches as a plan and runs them after
// it: harness/gpu/plan_record.c), so both read 0 ms and the plain kernel
// is kept (an H200, 2026-11-28: plots/data/session15-h200-2026-11-28/
// autotuners-on-the-gpu.txt); correct, and the technique check (the
// emulator's counts, skipped on a GPU) fails it. The emulator's events had
// read the host's time, then a model of the GPU's, and kept the tiled
// kernel: technique passed on the emulator where a GPU grading gives none.
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif

__global__ void transpose_plain(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * TILE_DIM + threadIdx.x, r = blockIdx.y * TILE_DIM + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

__global__ void transpose_padded(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int x = blockIdx.x * TILE_DIM + threadIdx.x, y = blockIdx.y * TILE_DIM + threadIdx.y;
    if (x < cols && y < rows)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)y * cols + x];
    __syncthreads();
    x = blockIdx.y * TILE_DIM + threadIdx.x, y = blockIdx.x * TILE_DIM + threadIdx.y;
    if (x < rows && y < cols)
        out[(size_t)y * rows + x] = tile[threadIdx.x][threadIdx.y];
}

static float timed(int tiled, float *out, const float *in, int rows, int cols)
{
    dim3 block(TILE_DIM, TILE_DIM), grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    cudaEvent_t start, stop;
    float ms = 0;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start);
    if (tiled)
        transpose_padded<<<grid, block>>>(out, in, rows, cols);
    else
        transpose_plain<<<grid, block>>>(out, in, rows, cols);
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    cudaEventElapsedTime(&ms, start, stop);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return ms;
}

void transpose(float *out, const float *in, int rows, int cols)
{
    float plain = timed(0, out, in, rows, cols), tiled = timed(1, out, in, rows, cols);
    if (!(tiled < plain))
        timed(0, out, in, rows, cols); /* the plain kernel's output, last */
}
