// A probe of what CUDA gives on a GPU for what tests/emu_cuda_test.c holds
// the emulator to: the integer and floating intrinsics of
// tests/emu_cuda_kernels.cu (the same kernels), __trap()'s error, the pitch of
// cudaMallocPitch, and cudaEventElapsedTime of an event never recorded. Run on
// the H100 as
//
//   nvcc -arch=sm_90 tests/probes/intrinsics.cu -o build/intrinsics && build/intrinsics
//
// and compare with plots/data/intrinsics-h100.txt.
#include <cstdio>
#include <cuda_runtime.h>
#include <math_constants.h>

__global__ void integer_intrinsics(unsigned *out)
{
    int k = 0;
    out[k++] = __brev(1u);
    out[k++] = (unsigned)(__brevll(1ull) >> 32);
    out[k++] = __byte_perm(0x03020100u, 0x07060504u, 0x7531u);
    out[k++] = (unsigned)__clz(0) * 100 + (unsigned)__clz(1);
    out[k++] = (unsigned)__clzll(1ll);
    out[k++] = (unsigned)__ffs(0) * 100 + (unsigned)__ffs(8);
    out[k++] = (unsigned)__ffsll(1ll << 40);
    out[k++] = (unsigned)__popc(0xffu) * 100 + (unsigned)__popcll(~0ull);
    out[k++] = __funnelshift_l(0x80000000u, 1u, 1u);
    out[k++] = __funnelshift_lc(5u, 7u, 40u);
    out[k++] = __funnelshift_r(1u, 1u, 1u);
    out[k++] = __funnelshift_rc(5u, 7u, 40u);
    out[k++] = (unsigned)__hadd(-3, -4);
    out[k++] = (unsigned)__rhadd(3, 4);
    out[k++] = __uhadd(0xffffffffu, 1u);
    out[k++] = (unsigned)__mul24(0x01000003, 2);
    out[k++] = __umul24(0xff000002u, 3u);
    out[k++] = (unsigned)__mulhi(0x40000000, 8);
    out[k++] = __umulhi(0x80000000u, 4u);
    out[k++] = (unsigned)__umul64hi(1ull << 63, 4ull);
    out[k++] = (unsigned)__mul64hi(-(1ll << 62), 8ll);
    out[k++] = __sad(1, 5, 10u);
    out[k++] = __usad(9u, 5u, 1u);
    out[k++] = (unsigned)__dp4a(0x01020304, 0x01010101, 10);
    out[k++] = __fns(0xf0u, 0u, 2);
    out[k++] = __fns(0xf0u, 7u, -3);
    out[k++] = (unsigned)__mul24(-2, 3);
}

__global__ void float_intrinsics(unsigned *out)
{
    int k = 0;
    out[k++] = __float_as_uint(__fadd_rd(1.0f, 1e-8f));
    out[k++] = __float_as_uint(__fadd_ru(1.0f, 1e-8f));
    out[k++] = __float_as_uint(__fmul_ru(1.0f + 1.1920929e-7f, 1.0f - 5.9604645e-8f));
    out[k++] = __float_as_uint(__fdiv_rn(1.0f, 3.0f));
    out[k++] = __float_as_uint(__fsqrt_rd(2.0f));
    out[k++] = __float_as_uint(__fsqrt_ru(2.0f));
    out[k++] = (unsigned)__float2int_rn(2.5f);
    out[k++] = (unsigned)__float2int_rn(3.5f);
    out[k++] = (unsigned)__float2int_rd(-1.5f);
    out[k++] = (unsigned)__float2int_ru(1.2f);
    out[k++] = (unsigned)__float2int_rz(-1.7f);
    out[k++] = (unsigned)__float2int_rn(1e10f);
    out[k++] = __float2uint_rn(-3.0f);
    out[k++] = (unsigned)__float2int_rn(CUDART_NAN_F);
    out[k++] = __float_as_uint(__int2float_rd(16777217));
    out[k++] = __float_as_uint(__int2float_ru(16777217));
    out[k++] = __float_as_uint(__double2float_rd(1.0 + 1e-12));
    out[k++] = __float_as_uint(__double2float_ru(1.0 + 1e-12));
    out[k++] = (unsigned)__double2hiint(1.0);
    out[k++] = __float_as_uint((float)__hiloint2double(0x3ff00000, 0));
    out[k++] = __float_as_uint(__saturatef(2.0f)) ^ __float_as_uint(__saturatef(-1.0f));
    out[k++] = __float_as_uint(rsqrtf(4.0f));
    out[k++] = (unsigned)__double2ll_rz(-7.9);
    out[k++] = __float_as_uint(__dadd_rd(1.0, 1e-30) == 1.0 ? 1.0f : 0.0f);
}

__global__ void traps(float *out)
{
    if (threadIdx.x == 3)
        __trap();
    out[threadIdx.x] = 1.0f;
}

int main()
{
    unsigned *d, h[64];
    cudaMalloc(&d, sizeof h);
    integer_intrinsics<<<1, 1>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("integer:");
    for (int i = 0; i < 27; i++)
        printf(" 0x%x", h[i]);
    float_intrinsics<<<1, 1>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("\nfloat:");
    for (int i = 0; i < 24; i++)
        printf(" 0x%x", h[i]);
    size_t widths[] = {4, 20, 100, 512, 513, 4096}, pitch;
    printf("\npitch:");
    for (int i = 0; i < 6; i++) {
        void *p;
        cudaMallocPitch(&p, &pitch, widths[i], 3);
        printf(" %zu->%zu", widths[i], pitch);
        cudaFree(p);
    }
    cudaEvent_t a, b;
    float ms;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    cudaEventRecord(a);
    printf("\nelapsed to an event never recorded: %s\n", cudaGetErrorName(cudaEventElapsedTime(&ms, a, b)));
    cudaGetLastError();
    traps<<<1, 32>>>((float *)d);
    printf("__trap(): launch %s, then %s\n", cudaGetErrorName(cudaGetLastError()),
           cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
