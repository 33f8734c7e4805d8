// expect: pass
// A kernel templated on its block shape, launched as kern<T, B><<<g, b>>>.
#include "lab.h"

template <typename T, int BX, int BY>
__global__ void tiled(T *out, const T *in, int rows, int cols)
{
    int c = blockIdx.x * BX + threadIdx.x;
    int r = blockIdx.y * BY + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    const int bx = 32, by = 8;
    dim3 grid((cols + bx - 1) / bx, (rows + by - 1) / by);
    tiled<float, bx, by><<<grid, dim3(bx, by)>>>(out, in, rows, cols);
}
