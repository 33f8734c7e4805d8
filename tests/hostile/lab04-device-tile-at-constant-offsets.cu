/*
 * Hostile hand-in (tests/hostile_test.sh), lab 4: the tile in a __device__
 * array of global memory that every block shares, each element written and
 * read at a constant offset (a switch, a case an element), no __shared__.
 * gcc leaves out the check of an access to a static at a constant offset it
 * can prove in bounds, and the emulator reached only __shared__ variables
 * through a reference: it saw none of the array's traffic, neither the race
 * between blocks (the emulator runs them one after another, so each found its
 * own values) nor the cost, and scored it as a coalesced copy: 7.00 of 10 in
 * labs 4 and 5 where the naive kernel scored 5.00 (2 of 2 performance points;
 * found by a cheating helper, 2026-11-28). On a GPU the blocks run at once and
 * overwrite each other's tile: the output is wrong.
 * control: naive-transpose.cu
 */
#include "lab.h"

#define T 32

__device__ float scratch[T * T];

#define PUT1(i) case (i): scratch[(i)] = v; break;
#define PUT4(i) PUT1(i) PUT1((i) + 1) PUT1((i) + 2) PUT1((i) + 3)
#define PUT16(i) PUT4(i) PUT4((i) + 4) PUT4((i) + 8) PUT4((i) + 12)
#define PUT64(i) PUT16(i) PUT16((i) + 16) PUT16((i) + 32) PUT16((i) + 48)
#define PUT256(i) PUT64(i) PUT64((i) + 64) PUT64((i) + 128) PUT64((i) + 192)
#define GET1(i) case (i): v = scratch[(i)]; break;
#define GET4(i) GET1(i) GET1((i) + 1) GET1((i) + 2) GET1((i) + 3)
#define GET16(i) GET4(i) GET4((i) + 4) GET4((i) + 8) GET4((i) + 12)
#define GET64(i) GET16(i) GET16((i) + 16) GET16((i) + 32) GET16((i) + 48)
#define GET256(i) GET64(i) GET64((i) + 64) GET64((i) + 128) GET64((i) + 192)

__device__ void put(int idx, float v)
{
    switch (idx) {
        PUT256(0) PUT256(256) PUT256(512) PUT256(768)
    }
}

__device__ float get(int idx)
{
    float v = 0.0f;
    switch (idx) {
        GET256(0) GET256(256) GET256(512) GET256(768)
    }
    return v;
}

__global__ void transpose_scratch(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * T + threadIdx.x;
    int r = blockIdx.y * T + threadIdx.y;
    if (r < rows && c < cols)
        put(threadIdx.y * T + threadIdx.x, in[(size_t)r * cols + c]);
    __syncthreads();
    c = blockIdx.y * T + threadIdx.x;
    r = blockIdx.x * T + threadIdx.y;
    if (r < cols && c < rows)
        out[(size_t)r * rows + c] = get(threadIdx.x * T + threadIdx.y);
    __syncthreads();
}

void transpose(float *d_out, const float *d_in, int rows, int cols)
{
    dim3 block(T, T);
    dim3 grid((cols + T - 1) / T, (rows + T - 1) / T);
    transpose_scratch<<<grid, block>>>(d_out, d_in, rows, cols);
}
