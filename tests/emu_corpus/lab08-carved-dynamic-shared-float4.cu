// expect: pass
// Correct: one extern __shared__ __align__(16) buffer carved into the tiles
// of A (stored transposed, BK rows of BT) and of B, read back as float4
// from shared memory (reinterpret_cast), a 4 x 4 tile of C a thread,
// __launch_bounds__(256, 2); the global loads are scalar with bounds, so
// any m, n, k works.
// Its verdict on a lent H200, as above (student17, session 17).
#include "lab.h"

#define BT 64
#define BK 16
#define TT 4
#define THREADS ((BT / TT) * (BT / TT))

__global__ void __launch_bounds__(THREADS, 2)
sgemm_carved(float *__restrict__ c, const float *__restrict__ a, const float *__restrict__ b,
             int m, int n, int k)
{
    extern __shared__ __align__(16) float smem[];
    float *as = smem;              /* [BK][BT] */
    float *bs = smem + BK * BT;    /* [BK][BT] */
    const int tx = threadIdx.x % (BT / TT), ty = threadIdx.x / (BT / TT);
    const int row0 = blockIdx.y * BT, col0 = blockIdx.x * BT;
    float acc[TT][TT] = {};
    for (int p0 = 0; p0 < k; p0 += BK) {
        for (int i = threadIdx.x; i < BK * BT; i += THREADS) {
            int r = i / BK, q = i % BK;
            as[q * BT + r] = row0 + r < m && p0 + q < k ? a[(size_t)(row0 + r) * k + p0 + q] : 0.0f;
            int br = i / BT, bc = i % BT;
            bs[br * BT + bc] = p0 + br < k && col0 + bc < n ? b[(size_t)(p0 + br) * n + col0 + bc] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int q = 0; q < BK; ++q) {
            float4 av = *reinterpret_cast<const float4 *>(&as[q * BT + ty * TT]);
            float4 bv = *reinterpret_cast<const float4 *>(&bs[q * BT + tx * TT]);
            float ar[TT] = {av.x, av.y, av.z, av.w}, br[TT] = {bv.x, bv.y, bv.z, bv.w};
#pragma unroll
            for (int i = 0; i < TT; ++i)
#pragma unroll
                for (int j = 0; j < TT; ++j)
                    acc[i][j] = fmaf(ar[i], br[j], acc[i][j]);
        }
        __syncthreads();
    }
    for (int i = 0; i < TT; ++i)
        for (int j = 0; j < TT; ++j) {
            int r = row0 + ty * TT + i, col = col0 + tx * TT + j;
            if (r < m && col < n)
                c[(size_t)r * n + col] = acc[i][j];
        }
}

void sgemm(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    dim3 grid((n + BT - 1) / BT, (m + BT - 1) / BT);
    size_t bytes = 2 * BK * BT * sizeof(float);
    sgemm_carved<<<grid, THREADS, bytes>>>(d_c, d_a, d_b, m, n, k);
}
