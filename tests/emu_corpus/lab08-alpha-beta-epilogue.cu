// expect: fail with beta = 0
// A register-tiled kernel (4 x 4 a thread, 64 x 64 tiles in dynamic shared
// memory) with the epilogue of BLAS and of public SGEMM walk-throughs,
// C = alpha A B + beta C, called with alpha = 1 and beta = 0: it reads C
// before writing it, and C holds NaN before the call (0 x NaN is NaN). On
// the emulator C keeps the harness's NaN bit for bit, which once read as "C
// was not written at all. Is the kernel implemented and launched?"; on a GPU
// every NaN is the same one. A tester's adaptation (2026-11-29).
#include "lab.h"

template <int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN))
sgemm_tmpl(float *__restrict__ c, const float *__restrict__ a,
           const float *__restrict__ b, int m, int n, int k, float alpha, float beta)
{
    extern __shared__ float smem[];
    float *as = smem;              /* BM x BK */
    float *bs = smem + BM * BK;    /* BK x BN */
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int nthreads = blockDim.x * blockDim.y;
    const int tid = ty * blockDim.x + tx;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;

    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
            acc[i][j] = 0.0f;

    for (int p0 = 0; p0 < k; p0 += BK) {
        for (int e = tid; e < BM * BK; e += nthreads) {
            int r = e / BK, q = e % BK;
            int gr = row0 + r, gq = p0 + q;
            as[r * BK + q] = (gr < m && gq < k) ? a[(size_t)gr * k + gq] : 0.0f;
        }
        for (int e = tid; e < BK * BN; e += nthreads) {
            int q = e / BN, cc = e % BN;
            int gq = p0 + q, gc = col0 + cc;
            bs[q * BN + cc] = (gq < k && gc < n) ? b[(size_t)gq * n + gc] : 0.0f;
        }
        __syncthreads();
#pragma unroll
        for (int q = 0; q < BK; q++) {
            float ra[TM], rb[TN];
#pragma unroll
            for (int i = 0; i < TM; i++)
                ra[i] = as[(ty * TM + i) * BK + q];
#pragma unroll
            for (int j = 0; j < TN; j++)
                rb[j] = bs[q * BN + tx * TN + j];
#pragma unroll
            for (int i = 0; i < TM; i++)
#pragma unroll
                for (int j = 0; j < TN; j++)
                    acc[i][j] += ra[i] * rb[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; i++) {
        int r = row0 + ty * TM + i;
#pragma unroll
        for (int j = 0; j < TN; j++) {
            int cc = col0 + tx * TN + j;
            if (r < m && cc < n)
                c[(size_t)r * n + cc] = alpha * acc[i][j] + beta * c[(size_t)r * n + cc];
        }
    }
}

void sgemm(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    const int BM = 64, BN = 64, BK = 16, TM = 4, TN = 4;
    dim3 block(BN / TN, BM / TM);
    dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM);
    size_t shmem = (size_t)(BM * BK + BK * BN) * sizeof(float);
    sgemm_tmpl<BM, BN, BK, TM, TN><<<grid, block, shmem>>>(d_c, d_a, d_b, m, n, k, 1.0f, 0.0f);
}
