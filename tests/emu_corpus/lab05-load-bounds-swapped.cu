// expect: fail
// emulator-says: The load's bounds test stops short
// expect-not: a missing __syncthreads()?
// The load tests its row against cols and its column against rows (the
// store's bounds, copied up): on a tall matrix the tile's last rows are
// never loaded, and the store reads them. The barrier is fine; the message
// must not call it missing. The emulator sees the shared memory nobody
// wrote at the matrix's end and names the load's bounds; on a GPU the
// unloaded elements hold whatever the shared memory held.
#include "lab.h"

#define TILE 32

__global__ void bank_free(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[TILE][TILE + 1];
    int c = blockIdx.x * TILE + threadIdx.x, r = blockIdx.y * TILE + threadIdx.y;
    if (r < cols && c < rows)
        tile[threadIdx.y][threadIdx.x] = in[(size_t)r * cols + c];
    __syncthreads();
    c = blockIdx.y * TILE + threadIdx.x, r = blockIdx.x * TILE + threadIdx.y;
    if (r < cols && c < rows)
        out[(size_t)r * rows + c] = tile[threadIdx.x][threadIdx.y];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    bank_free<<<dim3((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE), dim3(TILE, TILE)>>>(out, in, rows, cols);
}
