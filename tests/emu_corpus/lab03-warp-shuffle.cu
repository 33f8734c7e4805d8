// expect: pass
// A warp shuffle in which each lane reads its own value back: the lanes of
// each warp meet at it, on the emulator as on a GPU.
#include "lab.h"

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    float v = r < rows && c < cols ? in[(size_t)r * cols + c] : 0.0f;
    v = __shfl_sync(0xffffffffu, v, threadIdx.x % 32);
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = v;
}

void transpose(float *out, const float *in, int rows, int cols)
{
    naive<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8)>>>(out, in, rows, cols);
}
