// expect: fail
// emulator-says: the host function wmemcpy, which is not a __device__ function of your file
// The naive transpose with its store made by the C library's wmemcpy, handed
// to the kernel as a function pointer from host code. nvcc builds it; a GPU
// cannot run a host function's address and fails the kernel. The emulator
// would have run it as the CPU's own code, the store unchecked and
// uncounted (tests/hostile/lab05-host-function-pointer.cu); it refuses the
// call, naming the function (harness/emu/indirect.c).
#include "lab.h"
#include <wchar.h>

typedef wchar_t *(*copy_fn)(wchar_t *, const wchar_t *, size_t);

__global__ void naive(float *out, const float *in, int rows, int cols, copy_fn copy)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        copy((wchar_t *)&out[(size_t)c * rows + r], (const wchar_t *)&in[(size_t)r * cols + c], 1);
}

void transpose(float *out, const float *in, int rows, int cols)
{
    naive<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8)>>>(out, in, rows, cols, wmemcpy);
}
