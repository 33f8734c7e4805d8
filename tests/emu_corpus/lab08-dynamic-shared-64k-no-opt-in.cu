// expect: fail cudaFuncSetAttribute
// 64 KiB of dynamic shared memory without cudaFuncSetAttribute: a launch
// gets 48 KiB unless the kernel opted in to more, so a GPU refuses it
// (cudaErrorInvalidValue): what the kit says must name the opt-in, the
// block (16 x 16 threads) being fine.
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
    size_t bytes = 2 * 128 * BT * sizeof(float);
    deep_tiles<BT, TT, 128><<<dim3((n + BT - 1) / BT, (m + BT - 1) / BT), dim3(BT / TT, BT / TT), bytes>>>(c, a, b, m, n, k);
}
