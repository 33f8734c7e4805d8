// expect: pass
// Blocks draw their tile from a __device__ counter with atomicAdd, which
// the host sets to 0 before each launch with cudaMemcpyToSymbol, and the
// last block's ticket is copied out of it into a device buffer with
// cudaMemcpyFromSymbol (device to device) -- here into out's first element
// before the kernel writes it, so nothing of it stays.
#include "lab.h"

__device__ unsigned int next_ticket;

__global__ void naive_tickets(float *out, const float *in, int rows, int cols)
{
    __shared__ unsigned int ticket;
    if (threadIdx.x == 0 && threadIdx.y == 0)
        ticket = atomicAdd(&next_ticket, 1u);
    __syncthreads();
    unsigned bx = ticket % gridDim.x, by = ticket / gridDim.x;
    int c = bx * blockDim.x + threadIdx.x;
    int r = by * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    const unsigned int zero = 0;
    cudaMemcpyFromSymbol(out, next_ticket, sizeof zero, 0, cudaMemcpyDeviceToDevice);
    cudaMemcpyToSymbol(next_ticket, &zero, sizeof zero);
    naive_tickets<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8)>>>(out, in, rows, cols);
}
