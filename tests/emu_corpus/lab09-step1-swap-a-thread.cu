// expect: fail made no shared-memory access at all
// expect-not: none of your kernels' work reached the output
// gpu-expect: pass
// Step 1 of the handout, right: one thread an element below the diagonal,
// swapped with its mirror (t = m[a]; m[a] = m[b]; m[b] = t). Its tests pass
// and the technique check fails, as for any kernel without tiles. gcc checks
// each address once, as a read, and leaves both stores unchecked: the
// emulator saw no store of the kernel, and the check said "none of your
// kernels' work reached the output" of work that made all of it (a
// student's step 1, 2026-11-28). It now sees them by the bytes they changed.
#include "lab.h"

__global__ void swap_below_diagonal(float *m, int n)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < n && c < n && r > c) {
        float t = m[(size_t)r * n + c];
        m[(size_t)r * n + c] = m[(size_t)c * n + r];
        m[(size_t)c * n + r] = t;
    }
}

void transpose_inplace(float *d_mat, int n)
{
    dim3 block(32, 8), grid((n + 31) / 32, (n + 7) / 8);
    swap_below_diagonal<<<grid, block>>>(d_mat, n);
}
