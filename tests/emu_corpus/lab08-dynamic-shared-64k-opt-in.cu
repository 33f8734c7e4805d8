// expect: pass
// 64 KiB of dynamic shared memory a block, past the 48 KiB a launch gets
// by default: the function asks the device how much a block may opt in to
// (cudaDevAttrMaxSharedMemoryPerBlockOptin), raises the kernel's limit
// with cudaFuncSetAttribute(..., cudaFuncAttributeMaxDynamicSharedMemorySize,
// ...), and falls back to shallower tiles on a device that allows less.
#include "lab.h"

/* A BT x BT tile of C a block, TT x TT a thread, through BK-deep tiles of A and
 * B in dynamic shared memory: 2 x BK x BT floats, 64 KiB for BK = 128. */
template <int BT, int TT, int BK>
__global__ void deep_tiles(float *c, const float *a, const float *b, int m, int n, int k)
{
    constexpr int SIDE = BT / TT, THREADS = SIDE * SIDE;
    extern __shared__ float smem[];
    float (*as)[BT] = reinterpret_cast<float (*)[BT]>(smem);          /* [BK][BT] */
    float (*bs)[BT] = reinterpret_cast<float (*)[BT]>(smem + BK * BT); /* [BK][BT] */
    int tid = threadIdx.y * SIDE + threadIdx.x;
    int row0 = blockIdx.y * BT, col0 = blockIdx.x * BT;
    float acc[TT][TT] = {};
    for (int p0 = 0; p0 < k; p0 += BK) {
        for (int i = tid; i < BK * BT; i += THREADS) {
            int r = i / BK, q = i % BK;
            as[q][r] = row0 + r < m && p0 + q < k ? a[(size_t)(row0 + r) * k + p0 + q] : 0.0f;
            int br = i / BT, bc = i % BT;
            bs[br][bc] = p0 + br < k && col0 + bc < n ? b[(size_t)(p0 + br) * n + col0 + bc] : 0.0f;
        }
        __syncthreads();
        for (int q = 0; q < BK; q++)
#pragma unroll
            for (int i = 0; i < TT; i++)
#pragma unroll
                for (int j = 0; j < TT; j++)
                    acc[i][j] += as[q][threadIdx.y * TT + i] * bs[q][threadIdx.x * TT + j];
        __syncthreads();
    }
    for (int i = 0; i < TT; i++)
        for (int j = 0; j < TT; j++) {
            int r = row0 + threadIdx.y * TT + i, col = col0 + threadIdx.x * TT + j;
            if (r < m && col < n)
                c[(size_t)r * n + col] = acc[i][j];
        }
}

#define BT 64
#define TT 4

void sgemm(float *c, const float *a, const float *b, int m, int n, int k)
{
    dim3 grid((n + BT - 1) / BT, (m + BT - 1) / BT), block(BT / TT, BT / TT);
    int device = 0, optin = 0;
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
    size_t deep = 2 * 128 * BT * sizeof(float), shallow = 2 * 16 * BT * sizeof(float);
    if ((size_t)optin >= deep) {
        cudaFuncSetAttribute(deep_tiles<BT, TT, 128>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)deep);
        deep_tiles<BT, TT, 128><<<grid, block, deep>>>(c, a, b, m, n, k);
    } else {
        deep_tiles<BT, TT, 16><<<grid, block, shallow>>>(c, a, b, m, n, k);
    }
}
