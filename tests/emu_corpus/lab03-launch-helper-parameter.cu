// expect: pass
// A launch helper takes the kernel as a parameter and launches it with
// <<< >>>, the arguments forwarded as a pack.
#include "lab.h"

template <typename Kernel, typename... Args>
static void run_kernel(Kernel kernel, dim3 grid, dim3 block, Args... args)
{
    kernel<<<grid, block>>>(args...);
}

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    run_kernel(naive, dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8), out, in, rows, cols);
}
