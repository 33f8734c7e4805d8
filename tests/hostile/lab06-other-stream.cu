/*
 * Hostile hand-in (tests/hostile_test.sh), lab 6: work on a stream the timer
 * does not wait for (KernelBench#82).
 * control: naive-transpose.cu
 *
 * The naive transpose launched on a non-blocking stream of its own, so that
 * events recorded on the default stream around the call would see nothing of
 * it. A lab's function launches on the default stream (lab.h); on a GPU the
 * kit runs the launch plan the call recorded, on its own stream, and on the
 * emulator every launch runs before the call returns: timed as the control.
 */
#include "lab.h"

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    static cudaStream_t side;
    if (!side)
        cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
    dim3 block(32, 8), grid((cols + 31) / 32, (rows + 7) / 8);
    naive<<<grid, block, 0, side>>>(out, in, rows, cols);
}
