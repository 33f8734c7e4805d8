// Session 15: the emulator's clock against the GPU's events. For kernels whose sectors are known by
// construction, the median of 20 single launches timed with events, beside the emulator's model:
// 2 us + sectors * 32 B / bandwidth (bandwidth from the device's memory clock and bus width).
#include <cstdio>
#include <algorithm>
#include <vector>
#define T 32
#define R 8
__global__ void copy_rows(float *out, const float *in, int n)
{ for (int c = threadIdx.x; c < n; c += blockDim.x) out[(size_t)blockIdx.x * n + c] = in[(size_t)blockIdx.x * n + c]; }
__global__ void copy_columns(float *out, const float *in, int n)
{ for (int r = threadIdx.x; r < n; r += blockDim.x) out[(size_t)r * n + blockIdx.x] = in[(size_t)r * n + blockIdx.x]; }
__global__ void plain(float *out, const float *in, int n)
{ int c = blockIdx.x * T + threadIdx.x, r = blockIdx.y * T + threadIdx.y;
  for (int j = 0; j < T; j += R) out[(size_t)c * n + r + j] = in[(size_t)(r + j) * n + c]; }
__global__ void tiled(float *out, const float *in, int n)
{ __shared__ float t[T][T + 1]; int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
  for (int j = 0; j < T; j += R) t[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * n + x];
  __syncthreads(); x = blockIdx.y * T + threadIdx.x; y = blockIdx.x * T + threadIdx.y;
  for (int j = 0; j < T; j += R) out[(size_t)(y + j) * n + x] = t[threadIdx.x][threadIdx.y + j]; }
int main()
{
    int khz = 0, bits = 0;
    cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, 0);
    cudaDeviceGetAttribute(&bits, cudaDevAttrGlobalMemoryBusWidth, 0);
    double bw = 2.0 * khz * 1e3 * (bits / 8) / 1e9; // bytes a ns
    printf("memory clock %d kHz, bus %d bits: %.0f GB/s\n", khz, bits, bw);
    printf("%-12s %6s %12s %12s %8s\n", "kernel", "n", "gpu_us", "model_us", "ratio");
    int sizes[] = {256, 512, 1024, 2048, 4096, 8192};
    for (int n : sizes) {
        float *a, *b; size_t bytes = (size_t)n * n * 4;
        cudaMalloc(&a, bytes); cudaMalloc(&b, bytes); cudaMemset(a, 1, bytes);
        double elems = (double)n * n, base = 2.0 * elems * 4 / 32; // sectors, both sides coalesced
        struct { const char *name; int k; double sectors; } ks[] = {
            {"copy_rows", 0, base}, {"copy_columns", 1, 8 * base}, {"plain", 2, elems * 4 / 32 * (1 + 8)},
            {"tiled", 3, base + 2 * elems / 32 / 8}};
        for (auto &k : ks) {
            std::vector<float> t;
            cudaEvent_t s, e; cudaEventCreate(&s); cudaEventCreate(&e);
            for (int i = 0; i < 21; i++) {
                cudaEventRecord(s);
                if (k.k == 0) copy_rows<<<n, 256>>>(b, a, n);
                else if (k.k == 1) copy_columns<<<n, 256>>>(b, a, n);
                else if (k.k == 2) plain<<<dim3(n / T, n / T), dim3(T, R)>>>(b, a, n);
                else tiled<<<dim3(n / T, n / T), dim3(T, R)>>>(b, a, n);
                cudaEventRecord(e); cudaEventSynchronize(e);
                float ms; cudaEventElapsedTime(&ms, s, e); if (i) t.push_back(ms);
            }
            std::sort(t.begin(), t.end());
            double gpu = t[t.size() / 2] * 1e3, model = (2000 + k.sectors * 32 / bw) / 1e3;
            printf("%-12s %6d %12.2f %12.2f %8.2f\n", k.name, n, gpu, model, model / gpu);
        }
        cudaFree(a); cudaFree(b);
    }
    return 0;
}
