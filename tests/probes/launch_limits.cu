// A probe of what CUDA answers on a GPU for the launch limits the emulator
// enforces (harness/emu/README.md): run on the H100 as
//
//   nvcc -arch=sm_90 -Xptxas -v tests/probes/launch_limits.cu -o build/launch-limits && build/launch-limits
//
// and compare with plots/data/launch-limits-h100.txt. Each line: the case,
// then the error the launch (or call) gave, by name.
#include <cstdio>
#include <cuda_runtime.h>

#define SAY(what, call)                                                                   \
    do {                                                                                  \
        cudaError_t e_ = (call);                                                          \
        cudaError_t s_ = cudaDeviceSynchronize();                                         \
        printf("%-62s %s%s%s\n", what, cudaGetErrorName(e_), s_ ? " then " : "",          \
               s_ ? cudaGetErrorName(s_) : "");                                           \
        cudaGetLastError();                                                               \
    } while (0)

#define LAUNCH(what, ...)                                                                 \
    SAY(what, (__VA_ARGS__, cudaGetLastError()))

__global__ void __launch_bounds__(256) bounded(float *out) { out[threadIdx.x] = 1.0f; }
__global__ void __launch_bounds__(256, 4) bounded_min_blocks(float *out) { out[threadIdx.x] = 1.0f; }
__global__ void plain(float *out) { if (out) out[threadIdx.x] = 1.0f; }

// Many values live at once: ptxas needs far more than 64 registers a thread.
__global__ void register_hungry(float *out, const float *in, int n)
{
    float acc[96];
#pragma unroll
    for (int i = 0; i < 96; i++)
        acc[i] = in[(threadIdx.x + i * 7) % n];
    for (int k = 0; k < n; k++) {
#pragma unroll
        for (int i = 0; i < 96; i++)
            acc[i] = acc[i] * acc[(i + 1) % 96] + in[k];
    }
    float s = 0;
#pragma unroll
    for (int i = 0; i < 96; i++)
        s += acc[i];
    out[threadIdx.x] = s;
}

__global__ void dynamic_shared(float *out)
{
    extern __shared__ float s[];
    s[threadIdx.x] = 1.0f;
    __syncthreads();
    if (out) out[threadIdx.x] = s[0];
}

__global__ void static_and_dynamic(float *out)
{
    __shared__ float t[4096]; // 16 KiB
    extern __shared__ float s[];
    t[threadIdx.x] = 1.0f;
    s[threadIdx.x] = t[threadIdx.x];
    __syncthreads();
    if (out) out[threadIdx.x] = s[0] + t[1];
}

static void attributes(const char *name, const void *k)
{
    cudaFuncAttributes a;
    cudaError_t e = cudaFuncGetAttributes(&a, k);
    printf("cudaFuncGetAttributes(%s): %s maxThreadsPerBlock %d numRegs %d sharedSizeBytes %zu "
           "maxDynamicSharedSizeBytes %d localSizeBytes %zu constSizeBytes %zu ptxVersion %d binaryVersion %d\n",
           name, cudaGetErrorName(e), a.maxThreadsPerBlock, a.numRegs, a.sharedSizeBytes,
           a.maxDynamicSharedSizeBytes, a.localSizeBytes, a.constSizeBytes, a.ptxVersion, a.binaryVersion);
}

int main()
{
    cudaDeviceProp p;
    cudaGetDeviceProperties(&p, 0);
    printf("device %s, cc %d.%d, regsPerBlock %d, regsPerMultiprocessor %d, sharedMemPerBlock %zu, "
           "sharedMemPerBlockOptin %zu, sharedMemPerMultiprocessor %zu, reservedSharedMemPerBlock %zu, "
           "totalConstMem %zu, warpSize %d, maxThreadsPerBlock %d, multiProcessorCount %d, "
           "maxThreadsPerMultiProcessor %d, maxBlocksPerMultiProcessor %d, l2CacheSize %d, memoryBusWidth %d, "
           "clockRate %d, memoryClockRate %d, concurrentKernels %d, asyncEngineCount %d, unifiedAddressing %d, "
           "managedMemory %d, computeMode %d, integrated %d, canMapHostMemory %d, ECCEnabled %d, "
           "pciBusID %d, pciDeviceID %d, textureAlignment %zu, memPitch %zu, totalGlobalMem %zu\n",
           p.name, p.major, p.minor, p.regsPerBlock, p.regsPerMultiprocessor, p.sharedMemPerBlock,
           p.sharedMemPerBlockOptin, p.sharedMemPerMultiprocessor, p.reservedSharedMemPerBlock, p.totalConstMem,
           p.warpSize, p.maxThreadsPerBlock, p.multiProcessorCount, p.maxThreadsPerMultiProcessor,
           p.maxBlocksPerMultiProcessor, p.l2CacheSize, p.memoryBusWidth, 0, 0, p.concurrentKernels,
           p.asyncEngineCount, p.unifiedAddressing, p.managedMemory, 0, p.integrated, p.canMapHostMemory,
           p.ECCEnabled, p.pciBusID, p.pciDeviceID, p.textureAlignment, p.memPitch, p.totalGlobalMem);
    int v;
    cudaDeviceGetAttribute(&v, cudaDevAttrClockRate, 0); printf("cudaDevAttrClockRate %d\n", v);
    cudaDeviceGetAttribute(&v, cudaDevAttrMemoryClockRate, 0); printf("cudaDevAttrMemoryClockRate %d\n", v);
    cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0); printf("cudaDevAttrMaxSharedMemoryPerBlockOptin %d\n", v);
    cudaDeviceGetAttribute(&v, cudaDevAttrMaxRegistersPerBlock, 0); printf("cudaDevAttrMaxRegistersPerBlock %d\n", v);
    float *out;
    cudaMalloc(&out, 1 << 20);
    attributes("bounded", (const void *)bounded);
    attributes("bounded_min_blocks", (const void *)bounded_min_blocks);
    attributes("plain", (const void *)plain);
    attributes("register_hungry", (const void *)register_hungry);
    attributes("dynamic_shared", (const void *)dynamic_shared);
    attributes("static_and_dynamic", (const void *)static_and_dynamic);

    LAUNCH("__launch_bounds__(256), 256 threads", bounded<<<1, 256>>>(out));
    LAUNCH("__launch_bounds__(256), 257 threads", bounded<<<1, 257>>>(out));
    LAUNCH("__launch_bounds__(256), 1024 threads", bounded<<<1, 1024>>>(out));
    LAUNCH("__launch_bounds__(256, 4), 512 threads", bounded_min_blocks<<<1, 512>>>(out));
    LAUNCH("__launch_bounds__(256), dim3(16, 17) threads", bounded<<<1, dim3(16, 17)>>>(out));
    LAUNCH("register_hungry, 256 threads", register_hungry<<<1, 256>>>(out, out, 4));
    LAUNCH("register_hungry, 512 threads", register_hungry<<<1, 512>>>(out, out, 4));
    LAUNCH("register_hungry, 1024 threads", register_hungry<<<1, 1024>>>(out, out, 4));
    void *args[] = {&out};
    SAY("cudaLaunchKernel bounded, 512 threads", cudaLaunchKernel((const void *)bounded, 1, 512, args, 0, 0));
    SAY("cudaLaunchKernel plain, 1025 threads", cudaLaunchKernel((const void *)plain, 1, 1025, args, 0, 0));

    LAUNCH("dynamic_shared, 48 KiB", dynamic_shared<<<1, 32, 48 << 10>>>(out));
    LAUNCH("dynamic_shared, 48 KiB + 1", dynamic_shared<<<1, 32, (48 << 10) + 1>>>(out));
    LAUNCH("dynamic_shared, 100 KiB", dynamic_shared<<<1, 32, 100 << 10>>>(out));
    LAUNCH("static 16 KiB + dynamic 32 KiB", static_and_dynamic<<<1, 32, 32 << 10>>>(out));
    LAUNCH("static 16 KiB + dynamic 32 KiB + 4", static_and_dynamic<<<1, 32, (32 << 10) + 4>>>(out));
    SAY("cudaFuncSetAttribute(dynamic_shared, MaxDynamic, 100 KiB)",
        cudaFuncSetAttribute((const void *)dynamic_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 << 10));
    attributes("dynamic_shared after opt-in", (const void *)dynamic_shared);
    LAUNCH("dynamic_shared opted in to 100 KiB, 100 KiB", dynamic_shared<<<1, 32, 100 << 10>>>(out));
    LAUNCH("dynamic_shared opted in to 100 KiB, 100 KiB + 4", dynamic_shared<<<1, 32, (100 << 10) + 4>>>(out));
    LAUNCH("dynamic_shared opted in to 100 KiB, 48 KiB + 4", dynamic_shared<<<1, 32, (48 << 10) + 4>>>(out));
    SAY("cudaFuncSetAttribute(dynamic_shared, MaxDynamic, 227 KiB)",
        cudaFuncSetAttribute((const void *)dynamic_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 << 10));
    LAUNCH("dynamic_shared opted in to 227 KiB, 227 KiB", dynamic_shared<<<1, 32, 227 << 10>>>(out));
    SAY("cudaFuncSetAttribute(dynamic_shared, MaxDynamic, 227 KiB + 4)",
        cudaFuncSetAttribute((const void *)dynamic_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, (227 << 10) + 4));
    SAY("cudaFuncSetAttribute(static_and_dynamic, MaxDynamic, 227 KiB - 16 KiB)",
        cudaFuncSetAttribute((const void *)static_and_dynamic, cudaFuncAttributeMaxDynamicSharedMemorySize, (227 - 16) << 10));
    SAY("cudaFuncSetAttribute(static_and_dynamic, MaxDynamic, 227 KiB - 16 KiB + 4)",
        cudaFuncSetAttribute((const void *)static_and_dynamic, cudaFuncAttributeMaxDynamicSharedMemorySize, ((227 - 16) << 10) + 4));
    SAY("cudaFuncSetAttribute(plain, MaxDynamic, -1)",
        cudaFuncSetAttribute((const void *)plain, cudaFuncAttributeMaxDynamicSharedMemorySize, -1));
    SAY("cudaFuncSetAttribute(plain, PreferredSharedMemoryCarveout, 50)",
        cudaFuncSetAttribute((const void *)plain, cudaFuncAttributePreferredSharedMemoryCarveout, 50));
    SAY("cudaFuncSetAttribute(plain, PreferredSharedMemoryCarveout, 101)",
        cudaFuncSetAttribute((const void *)plain, cudaFuncAttributePreferredSharedMemoryCarveout, 101));
    SAY("cudaFuncSetCacheConfig(plain, PreferShared)", cudaFuncSetCacheConfig((const void *)plain, cudaFuncCachePreferShared));
    SAY("cudaFuncSetAttribute(host pointer, MaxDynamic, 1 KiB)",
        cudaFuncSetAttribute((const void *)&p, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024));
    int grid = -1, block = -1;
    SAY("cudaOccupancyMaxPotentialBlockSize(plain)", cudaOccupancyMaxPotentialBlockSize(&grid, &block, plain, 0, 0));
    printf("  grid %d block %d\n", grid, block);
    SAY("cudaOccupancyMaxPotentialBlockSize(bounded)", cudaOccupancyMaxPotentialBlockSize(&grid, &block, bounded, 0, 0));
    printf("  grid %d block %d\n", grid, block);
    SAY("cudaOccupancyMaxPotentialBlockSize(register_hungry)", cudaOccupancyMaxPotentialBlockSize(&grid, &block, register_hungry, 0, 0));
    printf("  grid %d block %d\n", grid, block);
    SAY("cudaOccupancyMaxPotentialBlockSize(dynamic_shared, 40 KiB)", cudaOccupancyMaxPotentialBlockSize(&grid, &block, dynamic_shared, 40 << 10, 0));
    printf("  grid %d block %d\n", grid, block);
    SAY("cudaOccupancyMaxPotentialBlockSize(plain, 0, limit 100)", cudaOccupancyMaxPotentialBlockSize(&grid, &block, plain, 0, 100));
    printf("  grid %d block %d\n", grid, block);
    int blocks = -1;
    SAY("cudaOccupancyMaxActiveBlocksPerMultiprocessor(register_hungry, 256)", cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, register_hungry, 256, 0));
    printf("  blocks %d\n", blocks);
    SAY("cudaOccupancyMaxActiveBlocksPerMultiprocessor(bounded, 512)", cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, bounded, 512, 0));
    printf("  blocks %d\n", blocks);
    SAY("cudaOccupancyMaxActiveBlocksPerMultiprocessor(static_and_dynamic, 32, 0)", cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, static_and_dynamic, 32, 0));
    printf("  blocks %d\n", blocks);
    // The grid's own limits: x up to 2^31 - 1 blocks, y and z up to 65535.
    LAUNCH("grid (1, 65535)", plain<<<dim3(1, 65535), 1>>>(nullptr));
    LAUNCH("grid (1, 65536)", plain<<<dim3(1, 65536), 1>>>(nullptr));
    LAUNCH("grid (1, 1, 65536)", plain<<<dim3(1, 1, 65536), 1>>>(nullptr));
    LAUNCH("grid (2^31, 1)", plain<<<dim3(2147483648u, 1), 1>>>(nullptr));
    LAUNCH("grid (0, 1)", plain<<<dim3(0, 1), 1>>>(nullptr));
    LAUNCH("block (1024, 2)", plain<<<1, dim3(1024, 2)>>>(nullptr));
    LAUNCH("block (1, 1, 65)", plain<<<1, dim3(1, 1, 65)>>>(nullptr));

    return 0;
}
