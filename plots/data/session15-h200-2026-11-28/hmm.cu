#include <cstdio>
static float table[1024];
__global__ void k(float *out, const float *t) { out[threadIdx.x] = t[threadIdx.x] * 2; }
int main()
{
    int pma = -1, hmm = -1, concurrent = -1;
    cudaDeviceGetAttribute(&pma, cudaDevAttrPageableMemoryAccess, 0);
    cudaDeviceGetAttribute(&hmm, cudaDevAttrPageableMemoryAccessUsesHostPageTables, 0);
    cudaDeviceGetAttribute(&concurrent, cudaDevAttrConcurrentManagedAccess, 0);
    printf("pageableMemoryAccess %d, usesHostPageTables %d, concurrentManagedAccess %d\n", pma, hmm, concurrent);
    for (int i = 0; i < 1024; i++) table[i] = i;
    float *d; cudaMalloc(&d, 4096);
    k<<<1, 256>>>(d, table);
    cudaError_t e = cudaDeviceSynchronize();
    float h[4] = {0};
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("kernel reading a static host array: %s, out[3] = %g\n", cudaGetErrorString(e), h[3]);
    return 0;
}
