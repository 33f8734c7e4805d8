// expect: pass
// The launch goes on a stream of its own, and an event recorded after it
// (cudaEventDisableTiming: used for ordering, not for time) makes the
// default stream wait for it (cudaStreamWaitEvent), so whatever the caller
// does next on the default stream comes after the transpose.
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
    cudaStream_t side;
    cudaEvent_t done;
    cudaStreamCreate(&side);
    cudaEventCreateWithFlags(&done, cudaEventDisableTiming);
    naive<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8), 0, side>>>(out, in, rows, cols);
    cudaEventRecord(done, side);
    cudaStreamWaitEvent(0, done, 0);
    cudaEventDestroy(done);
    cudaStreamDestroy(side);
}
