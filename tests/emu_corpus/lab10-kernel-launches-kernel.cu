// expect: build-error separate compilation
// A kernel that launches a kernel (dynamic parallelism): nvcc needs -rdc=true
// for it, which the lab's build does not pass. Without nvcc the emulator
// built it, and the lab process died of SIGSEGV, which the tests put down to
// "an index out of bounds, or a bad pointer" (session 16).
#include "lab.h"

__global__ void child(float *out, const float *in, size_t n)
{
    __shared__ float s[256];
    size_t i = (size_t)blockIdx.x * 256 + threadIdx.x;
    s[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (int k = 128; k > 0; k >>= 1) {
        if ((int)threadIdx.x < k)
            s[threadIdx.x] += s[threadIdx.x + k];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        atomicAdd(out, s[0]);
}

__global__ void parent(float *out, const float *in, size_t n)
{
    if (threadIdx.x == 0 && n > 0)
        child<<<(unsigned)((n + 255) / 256), 256>>>(out, in, n);
}

void reduce(float *d_out, const float *d_in, size_t n)
{
    cudaMemset(d_out, 0, sizeof(float));
    parent<<<1, 32>>>(d_out, d_in, n);
}
