// expect: pass
// The launch sits in a closure that captures the arguments by reference:
// CUDA evaluates them once, on the host, before the kernel runs.
#include <functional>

#include "lab.h"

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

static void run(const std::function<void()> &launch)
{
    launch();
}

void transpose(float *out, const float *in, int rows, int cols)
{
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    run([&] { naive<<<grid, block>>>(out, in, rows, cols); });
}
