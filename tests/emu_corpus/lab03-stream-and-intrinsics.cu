// expect: pass
// What Visual Studio's CUDA template writes: device_launch_parameters.h,
// an explicit stream, __ldg and bit-exact intrinsics.
#include <cuda_runtime.h>
#include <device_launch_parameters.h>
#include <cstdio>

#include "lab.h"

__global__ void naive(float *__restrict__ out, const float *__restrict__ in, int rows, int cols)
{
    const int c = (int)floorf((float)(blockIdx.x * blockDim.x + threadIdx.x));
    const int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) {
        int bits = __float_as_int(__ldg(&in[(size_t)r * cols + c]));
        out[(size_t)c * rows + r] = __int_as_float(bits);
    }
}

void transpose(float *out, const float *in, int rows, int cols)
{
    cudaStream_t stream;
    if (cudaStreamCreate(&stream) != cudaSuccess) {
        fprintf(stderr, "cudaStreamCreate failed\n");
        return;
    }
    dim3 block(32, 8, 1), grid((cols + 31) / 32, (rows + 7) / 8, 1);
    naive<<<grid, block, 0, stream>>>(out, in, rows, cols);
    cudaStreamSynchronize(stream);
    cudaStreamDestroy(stream);
}
