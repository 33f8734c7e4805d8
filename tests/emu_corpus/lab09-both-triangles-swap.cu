// expect: fail
// The naive swap without the test that keeps one side of the diagonal:
// both (r, c) and (c, r) swap the pair. Where the two threads run one after
// the other the pair is swapped twice (back where it was); where both read
// before either writes it comes out right. On a GPU the outcome differs
// from pair to pair and run to run; on no run is it right everywhere for
// a matrix of many blocks.
// Which pairs a GPU gets right varies, and so the first mismatch it names:
// the expectation names no text (an H200 fails it, 2026-11-28).
#include "lab.h"

__global__ void swap_all(float *mat, int n)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < n && c < n && r != c) {
        float a = mat[(size_t)r * n + c], b = mat[(size_t)c * n + r];
        mat[(size_t)r * n + c] = b;
        mat[(size_t)c * n + r] = a;
    }
}

void transpose_inplace(float *d_mat, int n)
{
    swap_all<<<dim3((n + 15) / 16, (n + 15) / 16), dim3(16, 16)>>>(d_mat, n);
}
