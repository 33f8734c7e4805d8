// expect: build-error calling a __host__ function
// Step 1 with std::swap from <utility> on the two elements: std::swap is a
// host function (constexpr only from C++20), so nvcc refuses it in a kernel.
// The kit's GPU build (make GPU=cuda emu-corpus, nvcc 13) refuses it so (student17, session 17).
#include <utility>
#include "lab.h"

__global__ void swap_mirror(float *mat, int n)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < n && c < r)
        std::swap(mat[(size_t)r * n + c], mat[(size_t)c * n + r]);
}

void transpose_inplace(float *d_mat, int n)
{
    dim3 block(32, 8);
    dim3 grid((n + 31) / 32, (n + 7) / 8);
    swap_mirror<<<grid, block>>>(d_mat, n);
}
