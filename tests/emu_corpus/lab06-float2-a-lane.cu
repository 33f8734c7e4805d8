// expect: fail cudaErrorMisalignedAddress
// emulator-says: lanes 2 floats apart use half of each sector
// expect-not: as lab 3's writes are
// Two floats a lane, loaded as a float2 (misaligned where cols is odd) and stored
// by two instructions whose lanes write every other float: 8 sectors a request,
// not lab 3's 32 (stud8, bug 3).
/* Each thread loads two neighbouring floats with one float2: a 64-wide tile
 * read by 32 threads in x. */
#include "lab.h"
#include <stddef.h>

#ifndef TILE_DIM
#define TILE_DIM 64
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif

__global__ void transpose_unrolled(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + 1];
    int tx = threadIdx.x, ty = threadIdx.y;          /* tx < TILE_DIM / 2 */
    int r0 = blockIdx.y * TILE_DIM, c0 = blockIdx.x * TILE_DIM;
    for (int j = ty; j < TILE_DIM; j += BLOCK_ROWS) {
        int r = r0 + j, c = c0 + 2 * tx;
        if (r < rows && c + 1 < cols) {
            float2 v = *reinterpret_cast<const float2 *>(&in[(size_t)r * cols + c]);
            tile[j][2 * tx] = v.x;
            tile[j][2 * tx + 1] = v.y;
        } else if (r < rows && c < cols) {
            tile[j][2 * tx] = in[(size_t)r * cols + c];
        }
    }
    __syncthreads();
    for (int j = ty; j < TILE_DIM; j += BLOCK_ROWS) {
        int orow = c0 + j;
        for (int h = 0; h < 2; h++) {
            int ocol = r0 + 2 * tx + h;
            if (orow < cols && ocol < rows)
                out[(size_t)orow * rows + ocol] = tile[2 * tx + h][j];
        }
    }
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(TILE_DIM / 2, BLOCK_ROWS);
    dim3 grid((cols + TILE_DIM - 1) / TILE_DIM, (rows + TILE_DIM - 1) / TILE_DIM);
    transpose_unrolled<<<grid, block>>>(d_out, d_in, rows, cols);
}
