// expect: fail
// emulator-says: a race on shared memory
// expect-not: or, as they are lanes of one warp, a __syncwarp()
// expect-not: unspecified launch failure
// Double buffering through registers with one barrier a step, but the
// prefetched tile is stored into the buffer still being read: a race
// between warps.
// Written by a new student who had never read the emulator (issue 35).
#include "lab.h"

#define BM 64
#define BN 64
#define BK 8
#define TM 4
#define TN 4
#define NT 256

__global__ void sgemm_dbuf(float *C, const float *A, const float *B, int M, int N, int K)
{
    __shared__ float As[2][BK][BM];
    __shared__ float Bs[2][BK][BN];
    const int tid = threadIdx.x;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    const int tr = tid / (BN / TN), tc = tid % (BN / TN);
    // each thread carries 2 floats of A and 2 of B per step
    float ra[2], rb[2];
    float acc[TM][TN] = {};

    auto fetch = [&](int k0) {
        for (int q = 0; q < 2; ++q) {
            int e = tid + q * NT;
            int ar = e / BK, ac = e % BK;
            ra[q] = (row0 + ar < M && k0 + ac < K) ? A[(size_t)(row0 + ar) * K + k0 + ac] : 0.0f;
            int br = e / BN, bc = e % BN;
            rb[q] = (k0 + br < K && col0 + bc < N) ? B[(size_t)(k0 + br) * N + col0 + bc] : 0.0f;
        }
    };
    auto stash = [&](int buf) {
        for (int q = 0; q < 2; ++q) {
            int e = tid + q * NT;
            As[buf][e % BK][e / BK] = ra[q];
            Bs[buf][e / BN][e % BN] = rb[q];
        }
    };

    fetch(0);
    stash(0);
    __syncthreads();
    int buf = 0;
    for (int k0 = 0; k0 < K; k0 += BK) {
        const bool more = k0 + BK < K;
        if (more) fetch(k0 + BK);
        for (int p = 0; p < BK; ++p)
            for (int i = 0; i < TM; ++i)
                for (int j = 0; j < TN; ++j)
                    acc[i][j] += As[buf][p][tr * TM + i] * Bs[buf][p][tc * TN + j];
        if (more) stash(buf);
        __syncthreads();
        buf ^= 1;
    }
    for (int i = 0; i < TM; ++i)
        for (int j = 0; j < TN; ++j) {
            int r = row0 + tr * TM + i, c = col0 + tc * TN + j;
            if (r < M && c < N) C[(size_t)r * N + c] = acc[i][j];
        }
}

void sgemm(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM);
    sgemm_dbuf<<<grid, NT>>>(d_c, d_a, d_b, m, n, k);
}
