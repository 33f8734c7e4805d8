// expect: pass
// Indices carried in CUDA's vector types: the tile's corner as an int2 from
// make_int2, the thread's place as a uint3 from make_uint3, the two
// halves of the block's rows as a float2 from make_float2.
#include "lab.h"

#define TILE 32
#define ROWS 8

__global__ void unrolled_vec(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    const int2 corner = make_int2(blockIdx.x * TILE, blockIdx.y * TILE); /* x: column, y: row */
    const uint3 t = make_uint3(threadIdx.x, threadIdx.y, 0);
    for (int j = 0; j < TILE; j += 2 * ROWS) {
        int2 at = make_int2(corner.x + t.x, corner.y + t.y + j);
        float2 v = make_float2(0.0f, 0.0f);
        if (at.x < cols && at.y < rows)
            v.x = in[(size_t)at.y * cols + at.x];
        if (at.x < cols && at.y + ROWS < rows)
            v.y = in[(size_t)(at.y + ROWS) * cols + at.x];
        tile[t.y + j][t.x] = v.x;
        tile[t.y + j + ROWS][t.x] = v.y;
    }
    __syncthreads();
    for (int j = 0; j < TILE; j += ROWS) {
        int2 at = make_int2(corner.y + t.x, corner.x + t.y + j); /* x: column of out, y: its row */
        if (at.x < rows && at.y < cols)
            out[(size_t)at.y * rows + at.x] = tile[t.x][t.y + j];
    }
}

void transpose(float *out, const float *in, int rows, int cols)
{
    unrolled_vec<<<dim3((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE), dim3(TILE, ROWS)>>>(out, in, rows, cols);
}
