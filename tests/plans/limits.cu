// CUDA's limits on a launch, one a call (rows picks which), and what the
// lab's code gets: the error, as a byte memset into out for the test to
// read from the plan, then the error again (cleared: 0).
#include "lab.h"

__global__ void plain(float *p) { p[threadIdx.x] = 1.0f; }
__global__ void __launch_bounds__(256) bounded(float *p) { p[threadIdx.x] = 1.0f; }
__global__ void heavy(float *p) { p[threadIdx.x] = 2.0f; }
__global__ void dyn(float *p)
{
    extern __shared__ float s[];
    s[threadIdx.x] = p[threadIdx.x];
    __syncthreads();
    p[threadIdx.x] = s[threadIdx.x ^ 1];
}

void transpose(float *out, const float *in, int rows, int cols)
{
    (void)in, (void)cols;
    cudaError_t said = cudaSuccess;
    switch (rows) {
    case 1: bounded<<<1, 512>>>(out); break;               /* past __launch_bounds__ */
    case 2: heavy<<<1, 1024>>>(out); break;                /* registers x threads past 65536 */
    case 3: dyn<<<1, 64, 48 * 1024 + 4>>>(out); break;     /* past the 48 KiB without opting in */
    case 4: /* opted in: then it may */
        said = cudaFuncSetAttribute(dyn, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024);
        dyn<<<1, 64, 100 * 1024>>>(out);
        break;
    case 5: /* past what a block may opt in to */
        said = cudaFuncSetAttribute(dyn, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024 + 4);
        break;
    case 6: plain<<<dim3(1, 65536), 32>>>(out); break;     /* a grid's y past 65535 */
    case 7: heavy<<<1, 384>>>(out); break;                 /* as many as its registers allow */
    }
    cudaMemset(out, (int)said, 1);
    cudaMemset(out, (int)cudaGetLastError(), 1);
    cudaMemset(out, (int)cudaGetLastError(), 1);
}
