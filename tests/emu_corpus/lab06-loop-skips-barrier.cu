// expect: fail
// gpu-tool: synccheck
// A __syncthreads() inside the copy-in loop, whose trip count differs
// between the threads of a block on the matrix's edge: some threads wait
// at it while the others wait at the one after the loop. The emulator
// names both barriers; on the H100 (2026-11-24) the edge blocks hang, so
// the tests time out, and synccheck's run hangs too: "fail" is all the
// two have in common.
#include "lab.h"

#define TD 32
#define BR 8

__global__ void unrolled(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TD][TD + 1];
    int x = blockIdx.x * TD + threadIdx.x;
    int y = blockIdx.y * TD + threadIdx.y;
    for (int j = 0; j < TD && x < cols && y + j < rows; j += BR) {
        tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
        __syncthreads();
    }
    __syncthreads();
    x = blockIdx.y * TD + threadIdx.x;
    y = blockIdx.x * TD + threadIdx.y;
    for (int j = 0; j < TD; j += BR)
        if (x < rows && y + j < cols)
            out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    unrolled<<<dim3((cols + TD - 1) / TD, (rows + TD - 1) / TD), dim3(TD, BR)>>>(out, in, rows, cols);
}
