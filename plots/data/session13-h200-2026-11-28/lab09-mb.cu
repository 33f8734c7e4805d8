// session 13 microbenchmark (not committed): where lab 9's in-place transpose loses against the copy.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#include <stddef.h>
#define transpose_inplace real_reference
#include "lab.h"
namespace realref {
#include "../../solutions/09-gpu-inplace/transpose.cu"
}
#undef transpose_inplace
#define CK(x) do { cudaError_t ck_ = (x); if (ck_ != cudaSuccess) { printf("%s:%d %s\n", __FILE__, __LINE__, cudaGetErrorString(ck_)); exit(1); } } while (0)

// ---- out of place, 32x32 tiles, 32x8 threads; ROWFIRST: blockIdx.x walks the input's tile columns
template <bool ROWFIRST>
__global__ void oop(float *out, const float *in, int n) {
    __shared__ float t[32][33];
    int tx = ROWFIRST ? blockIdx.x : blockIdx.y, ty = ROWFIRST ? blockIdx.y : blockIdx.x;
    int c = tx * 32 + threadIdx.x, r = ty * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) if (c < n && r + j < n) t[threadIdx.y + j][threadIdx.x] = in[(size_t)(r + j) * n + c];
    __syncthreads();
    c = ty * 32 + threadIdx.x; r = tx * 32 + threadIdx.y;
    for (int j = 0; j < 32; j += 8) if (c < n && r + j < n) out[(size_t)(r + j) * n + c] = t[threadIdx.x][threadIdx.y + j];
}

// ---- the lab 9 reference of session 12 (64x64 pairs, 64x16 threads, folded triangle), no strips
template <int TD, int ROWS, bool WHOLE>
__device__ void load_tile(float (*t)[TD + 1], const float *mat, int n, int r0, int c0) {
    int r = r0 + threadIdx.y, c = c0 + threadIdx.x;
    const float *at = WHOLE ? mat + (size_t)r * n + c : mat;
#pragma unroll
    for (int j = 0; j < TD; j += ROWS) {
        if (WHOLE) t[threadIdx.y + j][threadIdx.x] = at[j * n];
        else if (r + j < n && c < n) t[threadIdx.y + j][threadIdx.x] = mat[(size_t)(r + j) * n + c];
    }
}
template <int TD, int ROWS, bool WHOLE>
__device__ void store_tile(float *mat, int n, int r0, int c0, const float (*t)[TD + 1]) {
    int r = r0 + threadIdx.y, c = c0 + threadIdx.x;
    float *at = WHOLE ? mat + (size_t)r * n + c : mat;
#pragma unroll
    for (int j = 0; j < TD; j += ROWS) {
        if (WHOLE) at[j * n] = t[threadIdx.x][threadIdx.y + j];
        else if (r + j < n && c < n) mat[(size_t)(r + j) * n + c] = t[threadIdx.x][threadIdx.y + j];
    }
}
__device__ inline bool fold(int s, int T, int &R, int &C) {
    int S = T - 1, W = S + 1, H = (S + 1) / 2;
    if (s >= W * H) { R = C = s - W * H; return true; }
    int x = s % W, y = s / W;
    R = y; C = y + 1 + x;
    if (x >= S - y) { R = S - 1 - y; C = R + 1 + (x - (S - y)); if (R == y) return false; }
    return true;
}
__host__ __device__ inline int fold_slots(int T) { int S = T - 1; return (S + 1) * ((S + 1) / 2) + T; }

template <int TD, int ROWS>
__global__ void __launch_bounds__(TD * ROWS) ref(float *mat, int n) {
    __shared__ float a[TD][TD + 1], b[TD][TD + 1];
    int T = (n + TD - 1) / TD, R, C;
    if (!fold(blockIdx.x, T, R, C)) return;
    int r0 = R * TD, c0 = C * TD;
    bool whole = c0 + TD <= n;
    if (whole) { load_tile<TD, ROWS, true>(a, mat, n, r0, c0); if (R != C) load_tile<TD, ROWS, true>(b, mat, n, c0, r0); }
    else { load_tile<TD, ROWS, false>(a, mat, n, r0, c0); if (R != C) load_tile<TD, ROWS, false>(b, mat, n, c0, r0); }
    __syncthreads();
    if (R == C) { if (whole) store_tile<TD, ROWS, true>(mat, n, r0, r0, a); else store_tile<TD, ROWS, false>(mat, n, r0, r0, a); return; }
    if (whole) { store_tile<TD, ROWS, true>(mat, n, r0, c0, b); store_tile<TD, ROWS, true>(mat, n, c0, r0, a); }
    else { store_tile<TD, ROWS, false>(mat, n, r0, c0, b); store_tile<TD, ROWS, false>(mat, n, c0, r0, a); }
}

// ---- one warp per pair of 32x32 tiles: 64 loads in registers, a warp's own shared tiles, no block barrier
template <int WARPS, int MINB>
__global__ void __launch_bounds__(32 * WARPS, MINB) warp_pairs(float *mat, int n) {
    __shared__ float sh[WARPS][2][32][33];
    int w = threadIdx.x >> 5, lane = threadIdx.x & 31;
    int T = (n + 31) / 32, s = blockIdx.x * WARPS + w, R, C;
    if (s >= fold_slots(T) || !fold(s, T, R, C)) return;
    float (*a)[33] = sh[w][0], (*b)[33] = sh[w][1];
    int r0 = R * 32, c0 = C * 32;
    if (c0 + 32 <= n) {
        float ra[32];
        const float *pa = mat + (size_t)r0 * n + c0 + lane, *pb = mat + (size_t)c0 * n + r0 + lane;
#pragma unroll
        for (int i = 0; i < 32; i++) ra[i] = pa[i * n];
#pragma unroll
        for (int i = 0; i < 32; i++) a[i][lane] = ra[i];
        if (R != C) {
#pragma unroll
            for (int i = 0; i < 32; i++) ra[i] = pb[i * n];
#pragma unroll
            for (int i = 0; i < 32; i++) b[i][lane] = ra[i];
        }
        __syncwarp();
        float *qa = mat + (size_t)r0 * n + c0 + lane, *qb = mat + (size_t)c0 * n + r0 + lane;
        if (R == C) {
#pragma unroll
            for (int i = 0; i < 32; i++) qa[i * n] = a[lane][i];
            return;
        }
#pragma unroll
        for (int i = 0; i < 32; i++) qa[i * n] = b[lane][i];
#pragma unroll
        for (int i = 0; i < 32; i++) qb[i * n] = a[lane][i];
    } else {
        for (int i = 0; i < 32; i++) {
            if (r0 + i < n && c0 + lane < n) a[i][lane] = mat[(size_t)(r0 + i) * n + c0 + lane];
            if (R != C && c0 + i < n && r0 + lane < n) b[i][lane] = mat[(size_t)(c0 + i) * n + r0 + lane];
        }
        __syncwarp();
        for (int i = 0; i < 32; i++) {
            if (R == C) { if (r0 + i < n && c0 + lane < n) mat[(size_t)(r0 + i) * n + c0 + lane] = a[lane][i]; continue; }
            if (r0 + i < n && c0 + lane < n) mat[(size_t)(r0 + i) * n + c0 + lane] = b[lane][i];
            if (c0 + i < n && r0 + lane < n) mat[(size_t)(c0 + i) * n + r0 + lane] = a[lane][i];
        }
    }
}

// ---- 2x2 super-tiles of 32x32 pairs, one warp per tile pair: the block covers 64x64 on both sides
template <int MINB, bool STORE_MIRROR_FIRST>
__global__ void __launch_bounds__(128, MINB) warp_sq(float *mat, int n) {
    __shared__ float sh[4][2][32][33];
    int w = threadIdx.x >> 5, lane = threadIdx.x & 31;
    int T = (n + 31) / 32, TK = (T + 1) / 2, I, J;
    if (!fold(blockIdx.x, TK, I, J)) return;
    int R = I * 2 + (w >> 1), C = J * 2 + (w & 1);
    if (R > C || C >= T) return; /* below the diagonal in a diagonal super-tile, or past the edge */
    float (*a)[33] = sh[w][0], (*b)[33] = sh[w][1];
    int r0 = R * 32, c0 = C * 32;
    if (c0 + 32 <= n) {
        float ra[32];
        const float *pa = mat + (size_t)r0 * n + c0 + lane, *pb = mat + (size_t)c0 * n + r0 + lane;
#pragma unroll
        for (int i = 0; i < 32; i++) ra[i] = pa[i * n];
#pragma unroll
        for (int i = 0; i < 32; i++) a[i][lane] = ra[i];
        if (R != C) {
#pragma unroll
            for (int i = 0; i < 32; i++) ra[i] = pb[i * n];
#pragma unroll
            for (int i = 0; i < 32; i++) b[i][lane] = ra[i];
        }
        __syncwarp();
        float *qa = mat + (size_t)r0 * n + c0 + lane, *qb = mat + (size_t)c0 * n + r0 + lane;
        if (R == C) {
#pragma unroll
            for (int i = 0; i < 32; i++) qa[i * n] = a[lane][i];
            return;
        }
        if (STORE_MIRROR_FIRST) {
#pragma unroll
            for (int i = 0; i < 32; i++) qb[i * n] = a[lane][i];
#pragma unroll
            for (int i = 0; i < 32; i++) qa[i * n] = b[lane][i];
        } else {
#pragma unroll
            for (int i = 0; i < 32; i++) qa[i * n] = b[lane][i];
#pragma unroll
            for (int i = 0; i < 32; i++) qb[i * n] = a[lane][i];
        }
    } else {
        for (int i = 0; i < 32; i++) {
            if (r0 + i < n && c0 + lane < n) a[i][lane] = mat[(size_t)(r0 + i) * n + c0 + lane];
            if (R != C && c0 + i < n && r0 + lane < n) b[i][lane] = mat[(size_t)(c0 + i) * n + r0 + lane];
        }
        __syncwarp();
        for (int i = 0; i < 32; i++) {
            if (R == C) { if (r0 + i < n && c0 + lane < n) mat[(size_t)(r0 + i) * n + c0 + lane] = a[lane][i]; continue; }
            if (r0 + i < n && c0 + lane < n) mat[(size_t)(r0 + i) * n + c0 + lane] = b[lane][i];
            if (c0 + i < n && r0 + lane < n) mat[(size_t)(c0 + i) * n + r0 + lane] = a[lane][i];
        }
    }
}

static float median(std::vector<float> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }

int main(int argc, char **argv) {
    std::vector<int> sizes;
    for (int i = 1; i < argc; i++) sizes.push_back(atoi(argv[i]));
    cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0));
    printf("# %s, %d SMs\n", p.name, p.multiProcessorCount);
    for (int n : sizes) {
        size_t N = (size_t)n * n, bytes = N * 4;
        float *d, *e; CK(cudaMalloc(&d, bytes)); CK(cudaMalloc(&e, bytes));
        std::vector<float> h(N), g(N);
        for (size_t i = 0; i < N; i++) h[i] = (float)(i % 1000003);
        cudaEvent_t t0, t1; cudaEventCreate(&t0); cudaEventCreate(&t1);
        float *src, *flush; size_t fb = 2 * (size_t)p.l2CacheSize; CK(cudaMalloc(&src, bytes)); CK(cudaMalloc(&flush, fb));
        auto bench = [&](const char *name, bool inplace, auto launch) {
            CK(cudaMemcpy(d, h.data(), bytes, cudaMemcpyHostToDevice)); CK(cudaMemcpy(src, h.data(), bytes, cudaMemcpyHostToDevice));
            launch(); CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
            bool ok = true;
            {
                CK(cudaMemcpy(g.data(), inplace ? d : e, bytes, cudaMemcpyDeviceToHost));
                for (size_t r = 0; r < (size_t)n && ok; r++)
                    for (size_t c = 0; c < (size_t)n; c++)
                        if (g[r * n + c] != h[c * n + r]) { ok = false; printf("  %s wrong at (%zu,%zu)\n", name, r, c); break; }
            }
            std::vector<float> ts;
            for (int k = 0; k < 20; k++) {
                if (inplace) CK(cudaMemcpyAsync(d, src, bytes, cudaMemcpyDeviceToDevice)); else CK(cudaMemsetAsync(e, 0xff, bytes));
                CK(cudaMemsetAsync(flush, k & 0xff, fb));
                cudaEventRecord(t0); launch(); cudaEventRecord(t1); cudaEventSynchronize(t1);
                float ms; cudaEventElapsedTime(&ms, t0, t1); ts.push_back(ms);
            }
            float m = median(ts);
            printf("%6d %-14s %9.4f ms %8.1f GB/s %s\n", n, name, m, 2.0 * bytes / (m * 1e-3) / 1e9, ok ? "" : "WRONG");
            return m;
        };
        int T32 = (n + 31) / 32, T64 = (n + 63) / 64;
        float cp = bench("copy", false, [&] { cudaMemcpyAsync(e, src, bytes, cudaMemcpyDeviceToDevice); });
        (void)cp;
        dim3 g32(T32, T32);
        bench("oop_rowfirst", false, [&] { oop<true><<<g32, dim3(32, 8)>>>(e, d, n); });
        bench("oop_colfirst", false, [&] { oop<false><<<g32, dim3(32, 8)>>>(e, d, n); });
        bench("reference", true, [&] { realref::real_reference(d, n); });
        int TK = (T32 + 1) / 2;
        bench("sq2", true, [&] { warp_sq<4, false><<<fold_slots(TK), 128>>>(d, n); });
        bench("sq2m", true, [&] { warp_sq<4, true><<<fold_slots(TK), 128>>>(d, n); });
        bench("sq2b5", true, [&] { warp_sq<5, false><<<fold_slots(TK), 128>>>(d, n); });
        bench("ref64x16", true, [&] { ref<64, 16><<<fold_slots(T64), dim3(64, 16)>>>(d, n); });
        bench("ref32x8", true, [&] { ref<32, 8><<<fold_slots(T32), dim3(32, 8)>>>(d, n); });
        bench("warp4", true, [&] { warp_pairs<4, 4><<<(fold_slots(T32) + 3) / 4, 128>>>(d, n); });
        bench("warp4b6", true, [&] { warp_pairs<4, 6><<<(fold_slots(T32) + 3) / 4, 128>>>(d, n); });
        bench("warp2", true, [&] { warp_pairs<2, 8><<<(fold_slots(T32) + 1) / 2, 64>>>(d, n); });
        cudaFree(d); cudaFree(e); cudaFree(src); cudaFree(flush);
    }
}
