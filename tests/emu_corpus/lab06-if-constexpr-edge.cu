// expect: pass
// Correct: one template kernel, template <bool Edge>, whose bounds tests
// are under if constexpr (Edge); the host launches the interior tiles with
// Edge = false and the right and bottom bands with Edge = true, each band a
// launch of its own with a block offset.
// Its verdict on a lent H200, as above (student17, session 17).
#include "lab.h"

#ifndef TILE_DIM
#define TILE_DIM 32
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

template <bool Edge>
__global__ void transpose_part(float *out, const float *in, int rows, int cols, int bx0, int by0)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    const int bx = bx0 + blockIdx.x, by = by0 + blockIdx.y;
    int x = bx * TILE_DIM + threadIdx.x;
    int y = by * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        if constexpr (Edge) {
            if (x >= cols || y + j >= rows) continue;
        }
        tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
    }
    __syncthreads();
    x = by * TILE_DIM + threadIdx.x;
    y = bx * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS) {
        if constexpr (Edge) {
            if (x >= rows || y + j >= cols) continue;
        }
        out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
    }
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE_DIM, BLOCK_ROWS);
    int full_x = cols / TILE_DIM, full_y = rows / TILE_DIM;
    int all_x = (cols + TILE_DIM - 1) / TILE_DIM, all_y = (rows + TILE_DIM - 1) / TILE_DIM;
    if (full_x > 0 && full_y > 0)
        transpose_part<false><<<dim3(full_x, full_y), block>>>(d_out, d_in, rows, cols, 0, 0);
    if (all_x > full_x)   /* the right band, every row of tiles */
        transpose_part<true><<<dim3(all_x - full_x, all_y), block>>>(d_out, d_in, rows, cols, full_x, 0);
    if (all_y > full_y && full_x > 0)   /* the bottom band, left of the right band */
        transpose_part<true><<<dim3(full_x, all_y - full_y), block>>>(d_out, d_in, rows, cols, 0, full_y);
}
