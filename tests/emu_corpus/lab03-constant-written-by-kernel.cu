// expect: build-error Cannot store to pointer that points to constant memory space
// without-nvcc: builds
// A kernel that writes a __constant__ variable: constant memory is the
// host's to write (cudaMemcpyToSymbol) and the kernels' to read. nvcc
// warns, and the kit's GPU build makes its warnings errors. Without nvcc
// the emulator builds it and faults at the write (a known limit).
#include "lab.h"

__constant__ int done_rows[1];

__global__ void naive(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
    if (c == 0 && r < rows)
        done_rows[0] = r;
}

void transpose(float *out, const float *in, int rows, int cols)
{
    naive<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8)>>>(out, in, rows, cols);
}
