// expect: fail your code called cudaCreateTextureObject
// emulator: build-error the tilelab CPU emulator does not provide
// The input read through a texture object over linear memory (tex1Dfetch),
// made in the lab's call and destroyed after the launch (student16, session
// 16). A GPU runs it as a program of its own; the kit runs a lab's kernels
// after its call returns, in its own process, where the object is gone: on
// the H200 every element read 0 and the tests said only that out was wrong.
// The kit's GPU path now refuses the call, saying why; the emulator has no
// texture objects (its limit, harness/emu/README.md), and says so.
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

__global__ void transpose_tex(float *out, cudaTextureObject_t tex, int rows, int cols)
{
    int c = blockIdx.x * TILE_DIM + threadIdx.x;
    int r = blockIdx.y * BLOCK_ROWS + threadIdx.y;
    if (c < cols && r < rows)
        out[(size_t)c * rows + r] = tex1Dfetch<float>(tex, r * cols + c);
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeLinear;
    res.res.linear.devPtr = (void *)d_in;
    res.res.linear.desc = cudaCreateChannelDesc<float>();
    res.res.linear.sizeInBytes = (size_t)rows * cols * sizeof(float);
    cudaTextureDesc td = {};
    td.readMode = cudaReadModeElementType;
    cudaTextureObject_t tex = 0;
    cudaCreateTextureObject(&tex, &res, &td, NULL);
    dim3 block(TILE_DIM, BLOCK_ROWS);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + BLOCK_ROWS - 1) / BLOCK_ROWS);
    transpose_tex<<<grid, block>>>(d_out, tex, rows, cols);
    cudaDestroyTextureObject(tex);
}
