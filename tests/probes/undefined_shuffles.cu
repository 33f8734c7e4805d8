// A probe of what the H100 gives a shuffle that reads a lane taking no part
// in it (CUDA leaves the value undefined): an exited lane, a lane outside
// the mask, a lane past the block's last. Run on the H100 as
//
//   nvcc -arch=sm_90 tests/probes/undefined_shuffles.cu -o build/undefined-shuffles && build/undefined-shuffles
//
// and compare with plots/data/undefined-shuffles-h100.txt (0, each time).
#include <cstdio>

__global__ void k(unsigned *o)
{
    unsigned l = threadIdx.x, v = 1000 + l;
    if (l == 5 || l == 6)
        return; /* exited lanes */
    o[l] = __shfl_sync(0xffffffffu, v, 5); /* read an exited lane */
}

__global__ void h(unsigned *o)
{
    unsigned l = threadIdx.x, v = 2000 + l;
    if (l < 16)
        o[l] = __shfl_sync(0x0000ffffu, v, 20); /* a lane out of the mask */
    else
        o[l] = __shfl_sync(0xffff0000u, v, 3);
}

__global__ void p(unsigned *o)
{
    unsigned v = 3000 + threadIdx.x;
    v = __shfl_down_sync(0xffffffffu, v, 16);
    o[threadIdx.x] = v; /* block of 20: lanes 4..19 read absent lanes */
}

int main()
{
    unsigned *d, x[32];
    cudaMalloc(&d, sizeof x);
    cudaMemset(d, 0xff, sizeof x);
    k<<<1, 32>>>(d);
    cudaMemcpy(x, d, sizeof x, cudaMemcpyDeviceToHost);
    printf("exited lane 5 read by all:");
    for (int i = 0; i < 32; i++)
        printf(" %u", x[i]);
    printf("\n");
    cudaMemset(d, 0xff, sizeof x);
    h<<<1, 32>>>(d);
    cudaMemcpy(x, d, sizeof x, cudaMemcpyDeviceToHost);
    printf("lane outside the mask:");
    for (int i = 0; i < 32; i++)
        printf(" %u", x[i]);
    printf("\n");
    cudaMemset(d, 0xff, sizeof x);
    p<<<1, 20>>>(d);
    cudaMemcpy(x, d, sizeof x, cudaMemcpyDeviceToHost);
    printf("absent lanes (block of 20):");
    for (int i = 0; i < 20; i++)
        printf(" %u", x[i]);
    printf("\n");
    return 0;
}
