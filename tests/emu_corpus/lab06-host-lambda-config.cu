// expect: pass
// C++ on the host side: the tunables as constexpr values checked by
// static_assert, the grid from a lambda, the block's height from std::min
// (host code: <algorithm> is not for kernels).
#include <algorithm>

#include "lab.h"

constexpr int kTile = 32;
constexpr int kRows = 8;
static_assert(kTile % kRows == 0, "each thread moves kTile / kRows elements");

__global__ void unrolled(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[kTile][kTile + 1];
    int c = blockIdx.x * kTile + threadIdx.x, r = blockIdx.y * kTile + threadIdx.y;
    for (int j = 0; j < kTile; j += kRows)
        if (r + j < rows && c < cols)
            tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(r + j) * cols + c];
    __syncthreads();
    c = blockIdx.y * kTile + threadIdx.x, r = blockIdx.x * kTile + threadIdx.y;
    for (int j = 0; j < kTile; j += kRows)
        if (r + j < cols && c < rows)
            out[(size_t)(r + j) * rows + c] = tile[threadIdx.x][threadIdx.y + j];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    auto blocks = [](int n, int per) { return (n + per - 1) / per; };
    const dim3 block(kTile, std::min(kRows, kTile));
    unrolled<<<dim3(blocks(cols, kTile), blocks(rows, kTile)), block>>>(out, in, rows, cols);
}
