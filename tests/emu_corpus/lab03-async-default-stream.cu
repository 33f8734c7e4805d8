// expect: pass
// The stream argument left out, as CUDA allows: cudaMemsetAsync,
// cudaMemcpyAsync and cudaEventRecord default it to 0.
#include "lab.h"

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start);
    size_t bytes = (size_t)rows * cols * sizeof(float);
    cudaMemsetAsync(out, 0, bytes);
    if (rows == 1 && cols == 1) {
        /* One element is its own transpose. */
        cudaMemcpyAsync(out, in, bytes, cudaMemcpyDeviceToDevice);
    } else {
        dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
        naive<<<grid, block>>>(out, in, rows, cols);
    }
    cudaEventRecord(stop);
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
}
