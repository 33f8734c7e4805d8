// expect: pass
// emulator: build-error inline assembly
// A load written in inline PTX (ld.global.nc.f32): valid CUDA, which a GPU
// runs. The emulator sees memory only through the compiler's
// instrumentation, which PTX it does not compile would bypass, so it
// refuses to build it (harness/emu/README.md, known limits).
#include "lab.h"

__device__ __forceinline__ float load_nc(const float *p)
{
    float v;
    asm volatile("ld.global.nc.f32 %0, [%1];" : "=f"(v) : "l"(p));
    return v;
}

__global__ void naive_ptx(float *out, const float *in, int rows, int cols)
{
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    int r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols)
        out[(size_t)c * rows + r] = load_nc(&in[(size_t)r * cols + c]);
}

void transpose(float *out, const float *in, int rows, int cols)
{
    naive_ptx<<<dim3((cols + 31) / 32, (rows + 7) / 8), dim3(32, 8)>>>(out, in, rows, cols);
}
