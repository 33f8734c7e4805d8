// expect: pass
// A templated grid-stride kernel with __ldg, __restrict__, a CUDA_CHECK
// macro and static_assert: valid.
// Written by a new student who had never read the emulator (issue 35).
#include "lab.h"
#include <cstdio>
#include <cstdlib>

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

static_assert(TILE_DIM * BLOCK_ROWS <= 1024, "a block holds at most 1024 threads");

#define CUDA_CHECK(call)                                                        \
    do {                                                                        \
        cudaError_t err_ = (call);                                              \
        if (err_ != cudaSuccess) {                                              \
            fprintf(stderr, "CUDA error %s at %s:%d: %s\n", #call, __FILE__,    \
                    __LINE__, cudaGetErrorString(err_));                        \
        }                                                                       \
    } while (0)

template <typename T>
__global__ void transpose_naive(T *__restrict__ out, const T *__restrict__ in,
                                int rows, int cols)
{
    for (int r = blockIdx.y * blockDim.y + threadIdx.y; r < rows; r += blockDim.y * gridDim.y) {
        for (int c = blockIdx.x * blockDim.x + threadIdx.x; c < cols; c += blockDim.x * gridDim.x) {
            out[static_cast<size_t>(c) * rows + r] = __ldg(&in[static_cast<size_t>(r) * cols + c]);
        }
    }
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE_DIM, BLOCK_ROWS);
    unsigned gx = (cols + TILE_DIM - 1) / TILE_DIM;
    unsigned gy = (rows + BLOCK_ROWS - 1) / BLOCK_ROWS;
    if (gy > 65535) gy = 65535;   // the grid-stride loop picks up the rest
    dim3 grid(gx, gy);
    transpose_naive<float><<<grid, block>>>(d_out, d_in, rows, cols);
    CUDA_CHECK(cudaGetLastError());
}
