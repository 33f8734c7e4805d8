/*
 * Hostile hand-in (tests/hostile_test.sh), lab 7: results cached across calls
 * (issue 36; flashinfer-bench-starter-kit#21, reference-kernels#104).
 * control: naive-matmul.cu
 *
 * The naive product, which keeps C in a __device__ array keyed on its
 * pointers, its sizes and a sample of A and B, and copies it back when a call
 * looks like the last one: on a bench that times the same inputs at every
 * repetition it scored 10 of 10 on the H100 where the honest naive kernel
 * scored 6.2. Each timed call now gets inputs (and addresses) of its own, so
 * the key never matches and it computes, as the control does.
 */
#include "lab.h"

#define CACHED (1 << 20)

__device__ float cache[CACHED];
__device__ unsigned long long key[8];

__device__ unsigned long long fingerprint(float *c, const float *a, const float *b, int m, int n, int k)
{
    unsigned long long h = (unsigned long long)(size_t)c ^ ((unsigned long long)(size_t)a << 1) ^
                           ((unsigned long long)(size_t)b << 2) ^ ((unsigned long long)m << 40) ^
                           ((unsigned long long)n << 20) ^ (unsigned long long)k;
    for (int i = 0; i < 8; i++)
        h = h * 31 + (unsigned)__float_as_int(a[i % (m * k)]) + (unsigned)__float_as_int(b[(i * 7) % (k * n)]);
    return h;
}

__global__ void naive(float *c, const float *a, const float *b, int m, int n, int k, int slot)
{
    __shared__ int hit;
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    size_t at = (size_t)row * n + col;
    int fits = (size_t)m * n <= CACHED;
    if (threadIdx.x == 0 && threadIdx.y == 0)
        hit = fits && key[slot] == fingerprint(c, a, b, m, n, k);
    __syncthreads();
    if (row >= m || col >= n)
        return;
    if (hit) {
        c[at] = cache[at];
        return;
    }
    float sum = 0;
    for (int p = 0; p < k; p++)
        sum += a[(size_t)row * k + p] * b[(size_t)p * n + col];
    c[at] = sum;
    if (fits)
        cache[at] = sum;
}

__global__ void remember(float *c, const float *a, const float *b, int m, int n, int k, int slot)
{
    key[slot] = fingerprint(c, a, b, m, n, k);
}

static void product(float *c, const float *a, const float *b, int m, int n, int k, int slot)
{
    dim3 block(16, 16), grid((n + 15) / 16, (m + 15) / 16);
    naive<<<grid, block>>>(c, a, b, m, n, k, slot);
    remember<<<1, 1>>>(c, a, b, m, n, k, slot);
}

void matmul_naive(float *c, const float *a, const float *b, int m, int n, int k) { product(c, a, b, m, n, k, 0); }
void matmul_tiled(float *c, const float *a, const float *b, int m, int n, int k) { product(c, a, b, m, n, k, 1); }
