/*
 * Hostile hand-in (tests/hostile_test.sh), lab 8: results replayed from a file
 * (reference-kernels#142: outputs kept from an earlier phase and replayed).
 * control: naive-sgemm.cu
 *
 * The naive product, which saves each C it computes in a file named by the
 * call's sizes and, when the file is there, copies it into C instead of
 * computing. The emulator's lab process may open no file; on a GPU a lab's
 * function may not copy from the host (its plan refuses it): the replay
 * path fails, the computing path is the control.
 */
#include "lab.h"
#include <stdio.h>
#include <stdlib.h>

__global__ void naive(float *c, const float *a, const float *b, int m, int n, int k)
{
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < m && col < n) {
        float sum = 0;
        for (int p = 0; p < k; p++)
            sum += a[(size_t)row * k + p] * b[(size_t)p * n + col];
        c[(size_t)row * n + col] = sum;
    }
}

void sgemm(float *c, const float *a, const float *b, int m, int n, int k)
{
    char path[128];
    size_t count = (size_t)m * n;
    snprintf(path, sizeof path, "/tmp/sgemm-%dx%dx%d", m, n, k);
    float *h = (float *)malloc(count * sizeof *h);
    FILE *f = fopen(path, "rb");
    if (h && f && fread(h, sizeof *h, count, f) == count) {
        cudaMemcpy(c, h, count * sizeof *h, cudaMemcpyHostToDevice);
    } else {
        dim3 block(16, 16), grid((n + 15) / 16, (m + 15) / 16);
        naive<<<grid, block>>>(c, a, b, m, n, k);
        if (h && cudaMemcpy(h, c, count * sizeof *h, cudaMemcpyDeviceToHost) == cudaSuccess &&
            (f = fopen(path, "wb")))
            fwrite(h, sizeof *h, count, f);
    }
    if (f)
        fclose(f);
    free(h);
}
