// A probe of what a GPU gives for tests/half_precision_kernel.cuh, which
// tests/emu_cuda_test.c (emulator_cuda::half_and_bfloat16_round_as_cuda_does)
// holds the emulator to. Run on the H100 as
//
//   nvcc -arch=sm_90 -Itests tests/probes/half_precision.cu -o build/half && build/half
//
// and compare its lines with the values that test expects.
#include <cstdio>
#include <cuda_runtime.h>

#include "half_precision_kernel.cuh"

int main()
{
    unsigned *d, h[TL_HALF_RESULTS];
    cudaMalloc(&d, sizeof h);
    half_precision<<<1, 1>>>(d);
    cudaError_t e = cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        printf("%s\n", cudaGetErrorString(e));
        return 1;
    }
    for (int k = 0; k < TL_HALF_RESULTS; k++)
        printf("%d 0x%x\n", k, h[k]);
    return 0;
}
