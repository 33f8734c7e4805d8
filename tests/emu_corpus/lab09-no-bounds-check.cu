// expect: fail
// emulator-says: came from outside the matrix: an index ran past its end (check the bounds test r < n && c < n
// expect-not: x < cols && y < rows
// Step 1's kernel without its bounds test: the threads past the matrix's
// edge swap elements outside it. What it says speaks of the n x n matrix
// and its mirror, not of lab 3's rows and cols. A GPU faults only where
// an access leaves the allocation's 2 MiB pages, and so, since 2026-11-28,
// does the emulator: here the reads past the end bring the margin's NaN
// into the matrix, which the checker names (on a GPU, only the reads that
// land in the kit's margin bring it, so what it says varies).
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
