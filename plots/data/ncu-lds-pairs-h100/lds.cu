// Passes (wavefronts) per shared load, by lane pattern (a float4 index per lane): ncu counts them
// per kernel. Built and run as: nvcc -arch=sm_90 -O3 -o lds lds.cu; ncu --metrics
// l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__inst_executed_op_shared_ld.sum --csv ./lds
#include <cstdio>
__device__ int pat(int p, int l)
{
    switch (p) {
    case 0: return l;                                   // 32 distinct consecutive
    case 1: return l >> 1;                              // pairs n, n^1 share
    case 2: return (l & 1) | ((l >> 2) << 1);           // pairs n, n^2 share
    case 3: return l & 7;                               // quarters read the same 8
    case 4: return l >> 3;                              // each quarter one address
    case 5: return 0;                                   // one address
    case 6: return l >> 2;                              // groups of 4 share, 8 distinct
    case 7: return (l >> 1) & 7;                        // pairs n^1, halves the same 8
    case 8: return ((l & 1) | ((l >> 4) << 1)) * 9;     // lab 7 A: rows stride 36 floats, pairs n^2
    case 9: return ((l >> 1) & 7) * 9;                  // lab 7 B^T: 8 rows stride 36, pairs n^1
    case 10: return (l & 1) | ((l >> 4) << 1);          // lab 8 A: 4 consecutive, pairs n^2
    case 11: return (l >> 2) & 7;                       // as 6 (a check that the mask changes nothing)
    }
    return 0;
}
template <int W> __global__ void k(float *out, int p, int iters)
{
    __shared__ __align__(16) float4 s[2048];
    for (int i = threadIdx.x; i < 2048; i += blockDim.x)
        s[i] = make_float4(i, i + 1, i + 2, i + 3);
    __syncthreads();
    unsigned a = (unsigned)__cvta_generic_to_shared(&s[pat(p, threadIdx.x % 32)]);
    float acc = 0;
    for (int it = 0; it < iters; it++) {
        float x, y, z, w;
        if (W == 16)
            asm volatile("ld.shared.v4.f32 {%0,%1,%2,%3}, [%4];" : "=f"(x), "=f"(y), "=f"(z), "=f"(w) : "r"(a));
        else if (W == 8) {
            asm volatile("ld.shared.v2.f32 {%0,%1}, [%2];" : "=f"(x), "=f"(y) : "r"(a)); z = w = 0;
        } else {
            asm volatile("ld.shared.f32 %0, [%1];" : "=f"(x) : "r"(a)); y = z = w = 0;
        }
        acc += x + y + z + w;
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
int main()
{
    float *o;
    cudaMalloc(&o, 132 * 256 * 4);
    for (int p = 0; p < 12; p++) {
        k<16><<<132, 256>>>(o, p, 256);
        k<8><<<132, 256>>>(o, p, 256);
        k<4><<<132, 256>>>(o, p, 256);
    }
    cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorString(cudaGetLastError()));
}
