// session 14 microbenchmark (not committed into the kit's code): lab 9's in-place pairs against the
// same schedule writing a second matrix, and lab 6's reference, under the bench's conditions.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#include <stddef.h>
#include <stdint.h>
#define transpose_inplace real_reference
#include "lab.h"
namespace realref {
#include "../../../solutions/09-gpu-inplace/transpose.cu"
}
#undef transpose_inplace
#define transpose lab6_reference
namespace lab6 {
#include "../../../solutions/06-gpu-unrolled/transpose.cu"
}
#undef transpose
#define CK(x) do { cudaError_t ck_ = (x); if (ck_ != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(ck_)); exit(1); } } while (0)

// The reference's pair kernel (whole pairs only: n a multiple of TD), reading from in, writing to out.
// in == out: the reference. LOADS: 0 = both tiles' loads, 1 = stores only (shared garbage), 2 = loads only.
template <int TD, int ROWS, int MODE, int HINT = 0>
__global__ void __launch_bounds__(TD * ROWS) pairs(float *out, const float *in, int n) {
    __shared__ float a[TD][TD + 1], b[TD][TD + 1];
    int T = n / TD, S = T - 1, W = S + 1, H = (S + 1) / 2, s = blockIdx.x, R, C;
    if (s >= W * H) { R = C = s - W * H; }
    else {
        int x = s % W, y = s / W;
        R = y; C = y + 1 + x;
        if (x >= S - y) { R = S - 1 - y; C = R + 1 + (x - (S - y)); if (R == y) return; }
    }
    int r0 = R * TD, c0 = C * TD, tx = threadIdx.x, ty = threadIdx.y;
    const float *ia = in + (size_t)(r0 + ty) * n + c0 + tx, *ib = in + (size_t)(c0 + ty) * n + r0 + tx;
    float *oa = out + (size_t)(r0 + ty) * n + c0 + tx, *ob = out + (size_t)(c0 + ty) * n + r0 + tx;
    if (MODE != 1) {
#pragma unroll
        for (int j = 0; j < TD; j += ROWS) a[ty + j][tx] = HINT == 1 ? __ldcs(ia + j * n) : HINT == 2 ? __ldlu(ia + j * n) : HINT == 3 ? __ldcg(ia + j * n) : ia[j * n];
        if (R != C) {
#pragma unroll
            for (int j = 0; j < TD; j += ROWS) b[ty + j][tx] = HINT == 1 ? __ldcs(ib + j * n) : HINT == 2 ? __ldlu(ib + j * n) : HINT == 3 ? __ldcg(ib + j * n) : ib[j * n];
        }
    }
    __syncthreads();
    if (MODE == 2) { if (a[tx][ty] == 12345.f && b[ty][tx] == 54321.f) out[0] = 1; return; }
    if (R == C) {
#pragma unroll
        for (int j = 0; j < TD; j += ROWS) { float v_ = a[tx][ty + j]; if (HINT == 1) __stcs(oa + j * n, v_); else if (HINT == 3) __stcg(oa + j * n, v_); else oa[j * n] = v_; }
        return;
    }
#pragma unroll
    for (int j = 0; j < TD; j += ROWS) { float v_ = b[tx][ty + j]; if (HINT == 1) __stcs(oa + j * n, v_); else if (HINT == 3) __stcg(oa + j * n, v_); else oa[j * n] = v_; }
#pragma unroll
    for (int j = 0; j < TD; j += ROWS) { float v_ = a[tx][ty + j]; if (HINT == 1) __stcs(ob + j * n, v_); else if (HINT == 3) __stcg(ob + j * n, v_); else ob[j * n] = v_; }
}

// One tile a block (lab 6's shape: TD x ROWS threads, one tile), blocks in the reference's order of pairs:
// block 2p does tile (R, C) of pair p, block 2p + 1 its mirror (C, R); the diagonal's tiles after. Out of place.
template <int TD, int ROWS>
__global__ void __launch_bounds__(TD * ROWS) pairorder(float *out, const float *in, int n) {
    __shared__ float a[TD][TD + 1];
    int T = n / TD, S = T - 1, W = S + 1, H = (S + 1) / 2, R, C;
    int s = blockIdx.x >> 1, which = blockIdx.x & 1;
    if (s >= W * H) { s = blockIdx.x - 2 * W * H; if (s >= T) return; R = C = s; }
    else {
        int x = s % W, y = s / W;
        R = y; C = y + 1 + x;
        if (x >= S - y) { R = S - 1 - y; C = R + 1 + (x - (S - y)); if (R == y) return; }
        if (which) { int t = R; R = C; C = t; }
    }
    int r0 = R * TD, c0 = C * TD, tx = threadIdx.x, ty = threadIdx.y;
    const float *ia = in + (size_t)(r0 + ty) * n + c0 + tx;
    float *oa = out + (size_t)(c0 + ty) * n + r0 + tx;
#pragma unroll
    for (int j = 0; j < TD; j += ROWS) a[ty + j][tx] = ia[j * n];
    __syncthreads();
#pragma unroll
    for (int j = 0; j < TD; j += ROWS) oa[j * n] = a[tx][ty + j];
}
static int slots(int T) { int S = T - 1; return (S + 1) * ((S + 1) / 2) + T; }

// Plain read-only and write-only streams for the ceiling's halves.
__global__ void readonly(const float4 *in, size_t n4, float *sink) {
    float4 acc = make_float4(0, 0, 0, 0);
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n4; i += (size_t)gridDim.x * blockDim.x) {
        float4 v = in[i]; acc.x += v.x; acc.y += v.y; acc.z += v.z; acc.w += v.w;
    }
    if (acc.x + acc.y + acc.z + acc.w == 1234.5f) sink[0] = 1;
}

static float median(std::vector<float> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }

int main(int argc, char **argv) {
    std::vector<int> sizes;
    for (int i = 1; i < argc; i++) sizes.push_back(atoi(argv[i]));
    cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
    printf("# %s, %d SMs, L2 %d MB\n", p.name, p.multiProcessorCount, p.l2CacheSize >> 20);
    for (int n : sizes) {
        size_t N = (size_t)n * n, bytes = N * 4;
        float *d, *e; CK(cudaMalloc(&d, bytes)); CK(cudaMalloc(&e, bytes));
        std::vector<float> h(N), g(N);
        for (size_t i = 0; i < N; i++) h[i] = (float)(i % 1000003);
        cudaEvent_t t0, t1; cudaEventCreate(&t0); cudaEventCreate(&t1);
        float *src, *flush; size_t fb = 2 * (size_t)p.l2CacheSize; CK(cudaMalloc(&src, bytes)); CK(cudaMalloc(&flush, fb));
        auto bench = [&](const char *name, int kind, double moved, auto launch) { // kind 0 oop, 1 in place, 2 unchecked
            CK(cudaMemcpy(d, h.data(), bytes, cudaMemcpyHostToDevice)); CK(cudaMemcpy(src, h.data(), bytes, cudaMemcpyHostToDevice));
            launch(); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
            bool ok = true;
            if (kind != 2) {
                CK(cudaMemcpy(g.data(), kind == 1 ? d : e, bytes, cudaMemcpyDeviceToHost));
                for (size_t r = 0; r < (size_t)n && ok; r++)
                    for (size_t c = 0; c < (size_t)n; c++)
                        if (g[r * n + c] != h[c * n + r]) { ok = false; printf("  %s wrong at (%zu,%zu)\n", name, r, c); break; }
            }
            std::vector<float> ts;
            for (int k = 0; k < 20; k++) {
                CK(cudaMemcpyAsync(d, src, bytes, cudaMemcpyDeviceToDevice)); CK(cudaMemsetAsync(e, 0xff, bytes));
                CK(cudaMemsetAsync(flush, k & 0xff, fb));
                cudaEventRecord(t0); launch(); cudaEventRecord(t1); cudaEventSynchronize(t1);
                float ms; cudaEventElapsedTime(&ms, t0, t1); ts.push_back(ms);
            }
            float m = median(ts), lo = *std::min_element(ts.begin(), ts.end());
            printf("%6d %-18s %9.4f ms (min %9.4f) %8.1f GB/s %s\n", n, name, m, lo, moved * bytes / (m * 1e-3) / 1e9, ok ? "" : "WRONG");
            return m;
        };
        int T64 = n / 64, T32 = n / 32;
        bench("copy", 2, 2, [&] { cudaMemcpyAsync(e, src, bytes, cudaMemcpyDeviceToDevice); });
        bench("lab6_reference", 0, 2, [&] { lab6::lab6_reference(e, d, n, n); });
        bench("lab9_reference", 1, 2, [&] { realref::real_reference(d, n); });
        bench("pairorder64x8_oop", 0, 2, [&] { pairorder<64, 8><<<2 * slots(T64), dim3(64, 8)>>>(e, d, n); });
        bench("pairorder64x16_oop", 0, 2, [&] { pairorder<64, 16><<<2 * slots(T64), dim3(64, 16)>>>(e, d, n); });
        bench("pairs64_inplace", 1, 2, [&] { pairs<64, 16, 0><<<slots(T64), dim3(64, 16)>>>(d, d, n); });
        bench("pairs64_oop", 0, 2, [&] { pairs<64, 16, 0><<<slots(T64), dim3(64, 16)>>>(e, d, n); });
        bench("pairs32_inplace", 1, 2, [&] { pairs<32, 8, 0><<<slots(T32), dim3(32, 8)>>>(d, d, n); });
        bench("pairs32_oop", 0, 2, [&] { pairs<32, 8, 0><<<slots(T32), dim3(32, 8)>>>(e, d, n); });
        bench("pairs64_cs", 1, 2, [&] { pairs<64, 16, 0, 1><<<slots(T64), dim3(64, 16)>>>(d, d, n); });
        bench("pairs64_lu", 1, 2, [&] { pairs<64, 16, 0, 2><<<slots(T64), dim3(64, 16)>>>(d, d, n); });
        bench("pairs64_cg", 1, 2, [&] { pairs<64, 16, 0, 3><<<slots(T64), dim3(64, 16)>>>(d, d, n); });
        bench("pairs64_storeonly", 2, 1, [&] { pairs<64, 16, 1><<<slots(T64), dim3(64, 16)>>>(d, d, n); });
        bench("pairs64_loadonly", 2, 1, [&] { pairs<64, 16, 2><<<slots(T64), dim3(64, 16)>>>(d, d, n); });
        bench("read_stream", 2, 1, [&] { readonly<<<p.multiProcessorCount * 8, 256>>>((const float4 *)d, N / 4, e); });
        bench("memset", 2, 1, [&] { cudaMemsetAsync(e, 0, bytes); });
        cudaFree(d); cudaFree(e); cudaFree(src); cudaFree(flush);
    }
}
