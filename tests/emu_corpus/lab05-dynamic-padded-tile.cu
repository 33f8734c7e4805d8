// expect: pass
// The padded tile in dynamic shared memory: extern __shared__, sized by the
// launch's third argument (TILE x (TILE + 1) floats), indexed by hand.
#include "lab.h"

#define TILE 32
#define PITCH (TILE + 1)

__global__ void bank_free(float *out, const float *in, int rows, int cols)
{
    extern __shared__ float tile[]; /* TILE rows of PITCH floats */
    int c = blockIdx.x * TILE + threadIdx.x, r = blockIdx.y * TILE + threadIdx.y;
    if (r < rows && c < cols)
        tile[threadIdx.y * PITCH + threadIdx.x] = in[(size_t)r * cols + c];
    __syncthreads();
    c = blockIdx.y * TILE + threadIdx.x, r = blockIdx.x * TILE + threadIdx.y;
    if (r < cols && c < rows)
        out[(size_t)r * rows + c] = tile[threadIdx.x * PITCH + threadIdx.y];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    size_t bytes = TILE * PITCH * sizeof(float);
    bank_free<<<dim3((cols + TILE - 1) / TILE, (rows + TILE - 1) / TILE), dim3(TILE, TILE), bytes>>>(out, in, rows, cols);
}
