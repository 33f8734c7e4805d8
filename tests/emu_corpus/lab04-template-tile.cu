// expect: pass
// The tile's side and type as template parameters, the tile inside.
#include "lab.h"

template <typename T, int TILE>
__global__ void coalesced(T *out, const T *in, int rows, int cols)
{
    __shared__ T tile[TILE][TILE];
    int c = blockIdx.x * TILE + threadIdx.x, r = blockIdx.y * TILE + threadIdx.y;
    if (r < rows && c < cols)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];
    __syncthreads();
    c = blockIdx.y * TILE + threadIdx.x, r = blockIdx.x * TILE + threadIdx.y;
    if (r < cols && c < rows)
        out[(size_t)r * rows + c] = tile[threadIdx.x][threadIdx.y];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    constexpr int T = 32;
    coalesced<float, T><<<dim3((cols + T - 1) / T, (rows + T - 1) / T), dim3(T, T)>>>(out, in, rows, cols);
}
