// expect: pass
// expect-not: so no GPU
// __launch_bounds__(1024, 2): two blocks of 1024 threads an SM, which an
// H100 (sm_90, 2048 threads an SM) holds and a Turing GPU (sm_75, 1024)
// does not. The emulator's nvcc check builds for the GPU the kit builds
// for, sm_90 unless CUDA_ARCH says otherwise, and lets it through.
#include "lab.h"

__global__ void __launch_bounds__(1024, 2) rows_of_threads(float *out, const float *in, int rows, int cols)
{
    int r = blockIdx.y;
    for (int c = blockIdx.x * blockDim.x + threadIdx.x; c < cols; c += gridDim.x * blockDim.x)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    int across = (cols + 1023) / 1024;
    rows_of_threads<<<dim3(across < 4 ? across : 4, rows), 1024>>>(out, in, rows, cols);
}
