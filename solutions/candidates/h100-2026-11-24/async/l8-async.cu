/* Candidate: lab 8's reference with cp.async multistage loads (A kept row-major in shared). */
#include "lab.h"

#include <stddef.h>
#include <stdint.h>

#ifndef BK
#define BK 16
#endif
#ifndef STAGES
#define STAGES 3
#endif
#ifndef MIN_BLOCKS
#define MIN_BLOCKS 2
#endif
#define BM 128
#define BN 128
#define WM 32
#define WN 64
#define TM 8
#define TN 8
#define THREADS (BM / WM * (BN / WN) * 32)
#define RUN_M (WM / (TM / 4))
#define RUN_N (WN / (TN / 4))
#define APAD 4
#define A_VECS (BM * BK / 4 / THREADS)
#define B_VECS (BK * BN / 4 / THREADS)
#define A_FLOATS (BM * (BK + APAD))
#define B_FLOATS (BK * BN)
#define STAGE_FLOATS (A_FLOATS + B_FLOATS)

__device__ static void copy16(float *dst, const float *src, int bytes)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(src), "r"(bytes));
}
__device__ static void copy4(float *dst, const float *src, int bytes)
{
    unsigned s = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4, %2;\n" ::"r"(s), "l"(src), "r"(bytes));
}

/* src + r * cols + c .. +3 into dst, zeros outside the rows x cols matrix */
__device__ static void load4(float *dst, const float *src, int r, int c, int rows, int cols, int vectors)
{
    if (vectors) {
        int in = r < rows && c < cols;
        copy16(dst, in ? src + (size_t)r * cols + c : src, in ? 16 : 0);
        return;
    }
#pragma unroll
    for (int i = 0; i < 4; i++) {
        int in = r < rows && c + i < cols;
        copy4(dst + i, in ? src + (size_t)r * cols + c + i : src, in ? 4 : 0);
    }
}

__device__ static void load_stage(float *st, const float *a, const float *b, int m, int n, int k, int row0,
                                  int col0, int p0, int va, int vb)
{
    float *as = st, *bs = st + A_FLOATS;
#pragma unroll
    for (int i = 0; i < A_VECS; i++) {
        int v = threadIdx.x + i * THREADS, r = v / (BK / 4), c = v % (BK / 4) * 4;
        load4(as + r * (BK + APAD) + c, a, row0 + r, p0 + c, m, k, va);
    }
#pragma unroll
    for (int i = 0; i < B_VECS; i++) {
        int v = threadIdx.x + i * THREADS, r = v / (BN / 4), c = v % (BN / 4) * 4;
        load4(bs + r * BN + c, b, p0 + r, col0 + c, k, n, vb);
    }
}

__global__ __launch_bounds__(THREADS, MIN_BLOCKS) void sgemm_kernel(float *c, const float *a, const float *b,
                                                                     int m, int n, int k)
{
    extern __shared__ __align__(16) float smem[];
    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int wr = warp / (BN / WN) * WM, wc = warp % (BN / WN) * WN;
    int lr = lane / (RUN_N / 4) * 4, lc = lane % (RUN_N / 4) * 4;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    int va = k % 4 == 0 && (uintptr_t)a % 16 == 0, vb = n % 4 == 0 && (uintptr_t)b % 16 == 0;
    int tiles = (k + BK - 1) / BK;
    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
            acc[i][j] = 0.0f;

#pragma unroll
    for (int s = 0; s < STAGES - 1; s++) {
        if (s < tiles)
            load_stage(smem + s * STAGE_FLOATS, a, b, m, n, k, row0, col0, s * BK, va, vb);
        asm volatile("cp.async.commit_group;\n" ::);
    }

    for (int t = 0; t < tiles; t++) {
        asm volatile("cp.async.wait_group %0;\n" ::"n"(STAGES - 2));
        __syncthreads();
        int next = t + STAGES - 1;
        if (next < tiles)
            load_stage(smem + next % STAGES * STAGE_FLOATS, a, b, m, n, k, row0, col0, next * BK, va, vb);
        asm volatile("cp.async.commit_group;\n" ::);

        const float *as = smem + t % STAGES * STAGE_FLOATS, *bs = as + A_FLOATS;
#pragma unroll
        for (int p = 0; p < BK; p += 4) {
            float4 ra[TM];
#pragma unroll
            for (int i = 0; i < TM; i++)
                ra[i] = *(const float4 *)&as[(wr + i / 4 * RUN_M + lr + i % 4) * (BK + APAD) + p];
#pragma unroll
            for (int q = 0; q < 4; q++) {
                float rb[TN];
#pragma unroll
                for (int s = 0; s < TN / 4; s++) {
                    float4 v = *(const float4 *)&bs[(p + q) * BN + wc + s * RUN_N + lc];
                    rb[4 * s] = v.x, rb[4 * s + 1] = v.y, rb[4 * s + 2] = v.z, rb[4 * s + 3] = v.w;
                }
#pragma unroll
                for (int i = 0; i < TM; i++) {
                    float x = q == 0 ? ra[i].x : q == 1 ? ra[i].y : q == 2 ? ra[i].z : ra[i].w;
#pragma unroll
                    for (int j = 0; j < TN; j++)
                        acc[i][j] += x * rb[j];
                }
            }
        }
    }

    int vectors = n % 4 == 0 && (uintptr_t)c % 16 == 0;
#pragma unroll
    for (int i = 0; i < TM; i++) {
        int row = row0 + wr + i / 4 * RUN_M + lr + i % 4;
        if (row >= m)
            continue;
#pragma unroll
        for (int s = 0; s < TN / 4; s++) {
            int col = col0 + wc + s * RUN_N + lc;
            float *out = c + (size_t)row * n + col;
            const float *v = &acc[i][4 * s];
            if (vectors && col + 4 <= n) {
                *(float4 *)out = make_float4(v[0], v[1], v[2], v[3]);
            } else {
#pragma unroll
                for (int j = 0; j < 4; j++)
                    if (col + j < n)
                        out[j] = v[j];
            }
        }
    }
}

void sgemm(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    int bytes = STAGES * STAGE_FLOATS * (int)sizeof(float);
    cudaFuncSetAttribute(sgemm_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes);
    dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM);
    sgemm_kernel<<<grid, THREADS, bytes>>>(d_c, d_a, d_b, m, n, k);
}
