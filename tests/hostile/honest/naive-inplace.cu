/* Honest control (tests/hostile_test.sh): lab 9 in place, one thread a pair
 * (r, c) with r < c swapped with its mirror. */
#include "lab.h"

__global__ void swap_pairs(float *m, int n)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < n && c < n && r < c) {
        float t = m[(size_t)r * n + c];
        m[(size_t)r * n + c] = m[(size_t)c * n + r];
        m[(size_t)c * n + r] = t;
    }
}

void transpose_inplace(float *m, int n)
{
    dim3 block(32, 8), grid((n + 31) / 32, (n + 7) / 8);
    swap_pairs<<<grid, block>>>(m, n);
}
