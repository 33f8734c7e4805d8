// session 13 (not committed): lab 8's split product at 512^3 and 1024^3, with and without its cudaMemsetAsync.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <algorithm>
#include <stddef.h>
#include <cuda_runtime.h>
#include <cublas_v2.h>
#define sgemm ref_sgemm
#include "lab.h"
namespace withset {
#include "../../solutions/08-gpu-sgemm/steps/step7.cu"
}
namespace step8 {
#include "../../solutions/08-gpu-sgemm/sgemm.cu"
}
static float median(std::vector<float> v) { std::sort(v.begin(), v.end()); return v[v.size() / 2]; }
int main() {
    cudaDeviceProp p; cudaGetDeviceProperties(&p, 0);
    printf("# %s\n", p.name);
    cublasHandle_t h; cublasCreate(&h);
    size_t fb = 2 * (size_t)p.l2CacheSize; void *flush; cudaMalloc(&flush, fb);
    for (int n : {512, 768, 1024, 2048}) {
        size_t N = (size_t)n * n * 4;
        float *a, *b, *c; cudaMalloc(&a, N); cudaMalloc(&b, N); cudaMalloc(&c, N);
        { std::vector<float> h((size_t)n * n); unsigned x = 12345; for (auto &v : h) { x = x * 1664525u + 1013904223u; v = (float)(x >> 8) / (1 << 24) - 0.5f; }
          cudaMemcpy(a, h.data(), N, cudaMemcpyHostToDevice); cudaMemcpy(b, h.data(), N, cudaMemcpyHostToDevice); }
        for (int which = 0; which < 2; which++) { /* the same bits in every run? */
            std::vector<float> first((size_t)n * n), again((size_t)n * n); int differ = 0;
            for (int r = 0; r < 20; r++) {
                if (which) step8::ref_sgemm(c, a, b, n, n, n); else withset::ref_sgemm(c, a, b, n, n, n);
                cudaMemcpy(r ? again.data() : first.data(), c, N, cudaMemcpyDeviceToHost);
                if (r && memcmp(first.data(), again.data(), N)) differ++;
            }
            printf("%5d %s: %d of 19 runs differ from the first in some bit\n", n, which ? "step8" : "step7", differ);
        }
        cudaEvent_t t0, t1; cudaEventCreate(&t0); cudaEventCreate(&t1);
        auto bench = [&](const char *name, auto f) {
            for (int i = 0; i < 10; i++) f();
            std::vector<float> ts;
            for (int k = 0; k < 40; k++) {
                cudaMemsetAsync(c, 0xff, N); cudaMemsetAsync(flush, k & 0xff, fb);
                cudaEventRecord(t0); f(); cudaEventRecord(t1); cudaEventSynchronize(t1);
                float ms; cudaEventElapsedTime(&ms, t0, t1); ts.push_back(ms);
            }
            float m = median(ts);
            printf("%5d %-10s %8.2f us %8.1f GFLOP/s\n", n, name, m * 1e3, 2.0 * n * n * n / (m * 1e-3) / 1e9);
        };
        float one = 1, zero = 0;
        bench("cublas", [&] { cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b, n, a, n, &zero, c, n); });
        bench("reference", [&] { withset::ref_sgemm(c, a, b, n, n, n); });
        bench("step8", [&] { step8::ref_sgemm(c, a, b, n, n, n); });
        bench("memset", [&] { cudaMemsetAsync(c, 0, N); });
        cudaFree(a); cudaFree(b); cudaFree(c);
    }
    printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
