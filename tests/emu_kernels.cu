/*
 * Kernels with a known flaw or a known access pattern, for the emulator's
 * own tests (tests/emu_test.c). Each launcher has C linkage.
 */
#include "lab.h"

#define N 32

__global__ void race(float *out, const float *in)
{
    __shared__ float tile[N];
    tile[threadIdx.x] = in[threadIdx.x];
    out[threadIdx.x] = tile[N - 1 - threadIdx.x]; /* no __syncthreads() between */
}

__global__ void synced(float *out, const float *in)
{
    __shared__ float tile[N];
    tile[threadIdx.x] = in[threadIdx.x];
    __syncthreads();
    out[threadIdx.x] = tile[N - 1 - threadIdx.x];
}

__global__ void no_bounds_check(float *out)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}

__global__ void shared_off_by_one(float *out)
{
    __shared__ float s[N];
    s[threadIdx.x + 1] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}

/* One block of 32 x 32 threads over a 32 x 32 matrix: 32 warps, one row each. */
__global__ void copy_rows(float *out, const float *in)
{
    out[threadIdx.y * N + threadIdx.x] = in[threadIdx.y * N + threadIdx.x];
}

__global__ void store_columns(float *out, const float *in)
{
    out[threadIdx.x * N + threadIdx.y] = in[threadIdx.y * N + threadIdx.x];
}

__global__ void shared_columns(float *out, const float *in)
{
    __shared__ float tile[N][N];
    tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * N + threadIdx.x];
    __syncthreads();
    out[threadIdx.y * N + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void shared_columns_padded(float *out, const float *in)
{
    __shared__ float tile[N][N + 1];
    tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * N + threadIdx.x];
    __syncthreads();
    out[threadIdx.y * N + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

/* 32 threads, a float4 each: one 16-byte access per thread, as on a GPU. */
__global__ void copy_float4(float *out, const float *in)
{
    ((float4 *)out)[threadIdx.x] = ((const float4 *)in)[threadIdx.x];
}

extern "C" {
void launch_copy_float4(float *out, const float *in) { copy_float4<<<1, N>>>(out, in); }
void launch_race(float *out, const float *in) { race<<<1, N>>>(out, in); }
void launch_synced(float *out, const float *in) { synced<<<1, N>>>(out, in); }
void launch_no_bounds_check(float *out, int blocks, int threads)
{
    no_bounds_check<<<blocks, threads>>>(out);
}
void launch_shared_off_by_one(float *out) { shared_off_by_one<<<1, N>>>(out); }
void launch_too_many_threads(float *out) { no_bounds_check<<<1, 1025>>>(out); }
void launch_grid_too_tall(float *out) { no_bounds_check<<<dim3(1, 65536), 1>>>(out); }
void launch_pattern(int which, float *out, const float *in)
{
    dim3 block(N, N);
    switch (which) {
    case 0: copy_rows<<<1, block>>>(out, in); break;
    case 1: store_columns<<<1, block>>>(out, in); break;
    case 2: shared_columns<<<1, block>>>(out, in); break;
    default: shared_columns_padded<<<1, block>>>(out, in); break;
    }
}
}
