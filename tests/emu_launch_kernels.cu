/*
 * Kernels for the emulator's launch rules (tests/emu_launch_test.c):
 * dynamic shared memory, __launch_bounds__, registers, cudaLaunchKernel.
 * Launchers have C linkage and return the launch's own error.
 */
#include "lab.h"

/* Each thread writes its word of the dynamic shared memory, then reads its neighbour's. */
__global__ void dynamic_tile(float *out, int read_past)
{
    extern __shared__ float tile[];
    tile[threadIdx.x] = (float)threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = tile[(threadIdx.x + 1) % blockDim.x + read_past];
}

/* Two extern __shared__ arrays are one memory: the second sees the first's writes. */
__global__ void two_names(float *out)
{
    extern __shared__ float a[];
    extern __shared__ __align__(16) unsigned char bytes[];
    a[threadIdx.x] = 2.0f * (float)threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = ((float *)bytes)[threadIdx.x];
}

/* Only some of the words are written: the rest read the poison of unwritten shared memory. */
__global__ void half_written(float *out)
{
    extern __shared__ float tile[];
    if (threadIdx.x % 2 == 0)
        tile[threadIdx.x] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x];
}

/* A static tile of 16 KiB besides the dynamic memory. */
__global__ void static_and_dynamic(float *out)
{
    __shared__ float fixed[4096];
    extern __shared__ float more[];
    fixed[threadIdx.x] = 1.0f;
    more[threadIdx.x] = 2.0f;
    __syncthreads();
    out[threadIdx.x] = fixed[threadIdx.x] + more[threadIdx.x];
}

__global__ void __launch_bounds__(256) bounded(float *out)
{
    out[threadIdx.x] = 1.0f;
}

template <int THREADS> __global__ void __launch_bounds__(THREADS, 2) bounded_template(float *out)
{
    out[threadIdx.x] = (float)THREADS;
}

__global__ void plain(float *out)
{
    out[threadIdx.x] = 3.0f;
}

/* Many values live at once: ptxas gives it far more than 64 registers (128 for sm_90). */
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

__global__ void takes_a_mix(float *out, int n, double scale, char c)
{
    out[threadIdx.x] = (float)(n * scale) + (float)c;
}

/* Two instances of one template kernel, with 4 and 32 KiB of static shared memory. */
template <int N> __global__ void template_tiles(float *out)
{
    __shared__ float fixed[N];
    extern __shared__ float more[];
    fixed[threadIdx.x % N] = 1.0f;
    __syncthreads();
    more[threadIdx.x] = fixed[0];
    out[threadIdx.x] = more[threadIdx.x];
}

extern "C" {
cudaError_t launch_template_tiles(float *out, int big)
{
    if (big)
        template_tiles<8192><<<1, 32, 8 << 10>>>(out);
    else
        template_tiles<1024><<<1, 32, 40 << 10>>>(out);
    return cudaGetLastError();
}
cudaError_t launch_dynamic_tile(float *out, int threads, size_t bytes, int read_past)
{
    dynamic_tile<<<2, threads, bytes>>>(out, read_past);
    return cudaGetLastError();
}
cudaError_t launch_two_names(float *out)
{
    two_names<<<1, 32, 32 * sizeof(float)>>>(out);
    return cudaGetLastError();
}
cudaError_t launch_half_written(float *out)
{
    half_written<<<1, 32, 32 * sizeof(float)>>>(out);
    return cudaGetLastError();
}
cudaError_t launch_static_and_dynamic(float *out, size_t bytes)
{
    static_and_dynamic<<<1, 32, bytes>>>(out);
    return cudaGetLastError();
}
cudaError_t opt_in(size_t bytes)
{
    return cudaFuncSetAttribute(dynamic_tile, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)bytes);
}
cudaError_t launch_bounded(float *out, dim3 block)
{
    bounded<<<1, block>>>(out);
    return cudaGetLastError();
}
cudaError_t launch_bounded_template(float *out, int threads)
{
    bounded_template<64><<<1, threads>>>(out);
    return cudaGetLastError();
}
cudaError_t launch_register_hungry(float *out, int threads)
{
    register_hungry<<<1, threads>>>(out, out, 4);
    return cudaGetLastError();
}
cudaError_t attributes_of(int which, struct cudaFuncAttributes *a)
{
    switch (which) {
    case 0: return cudaFuncGetAttributes(a, bounded);
    case 1: return cudaFuncGetAttributes(a, register_hungry);
    case 2: return cudaFuncGetAttributes(a, static_and_dynamic);
    case 3: return cudaFuncGetAttributes(a, dynamic_tile);
    default: return cudaFuncGetAttributes(a, plain);
    }
}
cudaError_t launch_by_pointers(int form, float *out, int n, double scale, char c, unsigned threads)
{
    void *args[] = {&out, &n, &scale, &c};
    switch (form) {
    case 0: return cudaLaunchKernel(takes_a_mix, dim3(1), dim3(threads), args);
    case 1: return cudaLaunchKernel((const void *)takes_a_mix, dim3(1), dim3(threads), args, 0, 0);
    case 2: return cudaLaunchKernel((void *)bounded, dim3(1), dim3(threads), args, 0, 0);
    default: return cudaLaunchKernel((const void *)bounded_template<64>, dim3(1), dim3(threads), args, 0, 0);
    }
}
/* cudaLaunchKernelEx: its arguments converted to the kernel's parameters (a float for the
 * double, an int for the char), as CUDA's template converts them; with C's form through the
 * argument pointers; and with a launch attribute (0: none, 1: a priority, 2: clusters of 2). */
cudaError_t launch_ex(int form, float *out, int n, float scale, int c, unsigned threads, int attribute)
{
    cudaLaunchAttribute attr[1];
    attr[0].id = attribute == 2 ? cudaLaunchAttributeClusterDimension : cudaLaunchAttributePriority;
    if (attribute == 2)
        attr[0].val.clusterDim.x = 2, attr[0].val.clusterDim.y = 1, attr[0].val.clusterDim.z = 1;
    else
        attr[0].val.priority = 0;
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(2);
    config.blockDim = dim3(threads);
    config.attrs = attr;
    config.numAttrs = attribute ? 1 : 0;
    double wide = scale;
    char narrow = (char)c;
    void *args[] = {&out, &n, &wide, &narrow};
    if (form)
        return cudaLaunchKernelExC(&config, (const void *)takes_a_mix, args);
    return cudaLaunchKernelEx(&config, takes_a_mix, out, n, scale, c);
}
cudaError_t best_block(int which, int *grid, int *block, int limit)
{
    switch (which) {
    case 0: return cudaOccupancyMaxPotentialBlockSize(grid, block, plain, 0, limit);
    case 1: return cudaOccupancyMaxPotentialBlockSize(grid, block, bounded, 0, limit);
    default: return cudaOccupancyMaxPotentialBlockSize(grid, block, register_hungry, 0, limit);
    }
}
}
