// expect: fail
// emulator-says: outside the n x n matrix
// expect-not: x < cols && y < rows
// Step 1's kernel without its bounds test: the threads past the matrix's
// edge swap elements outside it. Where that faults, the cause speaks of
// the n x n matrix and its mirror, not of lab 3's rows and cols. (The
// emulator faults at once; a GPU only where the access leaves the
// allocation's pages, so what it says varies.)
#include "lab.h"

__global__ void swap_pairs(float *mat, int n)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < y) {
        float t = mat[(size_t)y * n + x];
        mat[(size_t)y * n + x] = mat[(size_t)x * n + y];
        mat[(size_t)x * n + y] = t;
    }
}

void transpose_inplace(float *mat, int n)
{
    swap_pairs<<<dim3((n + 31) / 32, (n + 31) / 32), dim3(32, 32)>>>(mat, n);
}
