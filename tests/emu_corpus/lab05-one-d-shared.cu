// expect: pass
// The padded tile as one flat array, indexed by hand.
#include "lab.h"

#define T 32
#define AT(r, c) ((r) * (T + 1) + (c))

__global__ void bank_free(float *out, const float *in, int rows, int cols)
{
    __shared__ float tile[T * (T + 1)];
    int tx = threadIdx.x, ty = threadIdx.y;
    int c = blockIdx.x * T + tx, r = blockIdx.y * T + ty;
    if (r < rows && c < cols)
        tile[AT(ty, tx)] = in[(size_t)r * cols + c];
    __syncthreads();
    c = blockIdx.y * T + tx, r = blockIdx.x * T + ty;
    if (r < cols && c < rows)
        out[(size_t)r * rows + c] = tile[AT(tx, ty)];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    bank_free<<<dim3((cols + T - 1) / T, (rows + T - 1) / T), dim3(T, T)>>>(out, in, rows, cols);
}
