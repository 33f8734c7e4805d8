// expect: pass
// Index arithmetic by shifts, the shift found with __clz and checked
// with __popc and __ffs, and the value carried through its bits with
// __float_as_uint and __uint_as_float (bit-exact, NaN payloads included).
#include "lab.h"

#define TILE 32
#define ROWS 8

__global__ void coalesced_bits(float *out, const float *in, int rows, int cols)
{
    __shared__ unsigned tile[TILE][TILE];
    const int shift = 31 - __clz(TILE); /* log2(TILE) */
    if (__popc(TILE) != 1 || __ffs(TILE) - 1 != shift)
        return; /* not a power of two: never taken */
    int c = (blockIdx.x << shift) + threadIdx.x, r = (blockIdx.y << shift) + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (r + j < rows && c < cols)
            tile[threadIdx.y + j][threadIdx.x] = __float_as_uint(in[(size_t)(r + j) * cols + c]);
    __syncthreads();
    c = (blockIdx.y << shift) + threadIdx.x, r = (blockIdx.x << shift) + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        if (r + j < cols && c < rows)
            out[(size_t)(r + j) * rows + c] = __uint_as_float(tile[threadIdx.x][threadIdx.y + j]);
}

void transpose(float *out, const float *in, int rows, int cols)
{
    coalesced_bits<<<dim3((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE), dim3(TILE, ROWS)>>>(out, in, rows, cols);
}
