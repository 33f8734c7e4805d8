// expect: pass
// What tuning guides add before a launch: prefer shared memory over L1
// (cudaFuncSetCacheConfig) and ask for the largest shared-memory carveout
// (cudaFuncAttributePreferredSharedMemoryCarveout). Hints only: the
// results do not change.
#include "lab.h"

#define TILE 32
#define ROWS 8

__global__ void coalesced(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE][TILE];
    int c = blockIdx.x * TILE + threadIdx.x, r = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (r + j < rows && c < cols)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(r + j) * cols + c];
    __syncthreads();
    c = blockIdx.y * TILE + threadIdx.x, r = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (r + j < cols && c < rows)
            out[(size_t)(r + j) * rows + c] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    cudaFuncSetCacheConfig(coalesced, cudaFuncCachePreferShared);
    cudaFuncSetAttribute(coalesced, cudaFuncAttributePreferredSharedMemoryCarveout, cudaSharedmemCarveoutMaxShared);
    coalesced<<<dim3((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE), dim3(TILE, ROWS)>>>(out, in, rows, cols);
}
