// expect: pass
// A lambda and constexpr inside the kernel, make_int2, __umul24 and
// bit-cast copies: valid.
// Written by a new student who had never read the emulator (issue 35).
#include "lab.h"
#include <cstdint>

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

namespace {
constexpr int ceil_div(int a, int b) { return (a + b - 1) / b; }
}

__device__ __forceinline__ int2 my_coords()
{
    return make_int2(__umul24(blockIdx.x, blockDim.x) + threadIdx.x,
                     __umul24(blockIdx.y, blockDim.y) + threadIdx.y);
}

__global__ void transpose_naive(float *out, const float *in, int rows, int cols)
{
    const int2 rc = my_coords();
    const int c = rc.x, r = rc.y;
    auto at = [](int row, int col, int ld) -> std::size_t {
        return static_cast<std::size_t>(row) * ld + col;
    };
    if (r < rows && c < cols) {
        // copy the bits, not the value: NaN payloads survive any path
        const uint32_t bits = __float_as_uint(in[at(r, c, cols)]);
        out[at(c, r, rows)] = __uint_as_float(bits);
    }
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    constexpr int bx = TILE_DIM, by = BLOCK_ROWS;
    const dim3 block(bx, by);
    const dim3 grid(ceil_div(cols, bx), ceil_div(rows, by));
    transpose_naive<<<grid, block>>>(d_out, d_in, rows, cols);
}
