// expect: pass
// float4 loads where rows are 16-byte aligned (template<bool>), scalar
// zero-filled loads otherwise; __ldg, reinterpret_cast, __align__: valid.
// Written by a new student who had never read the emulator (issue 35).
#include "lab.h"
#include <cstdint>

namespace {
constexpr int BM = 64, BN = 64, BK = 16, TM = 4, TN = 4;
constexpr int NT = (BM / TM) * (BN / TN);   // 256
}

template <bool VEC>
__global__ void __launch_bounds__(NT)
sgemm_kernel(float *__restrict__ C, const float *__restrict__ A, const float *__restrict__ B,
             int M, int N, int K)
{
    __shared__ __align__(16) float As[BK][BM];   // transposed: As[p][i]
    __shared__ __align__(16) float Bs[BK][BN];

    const int tid = threadIdx.x;
    const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    const int tr = tid / (BN / TN), tc = tid % (BN / TN);

    // one float4 of A (64 x 16) and one of B (16 x 64) per thread
    const int a_r = tid / (BK / 4), a_c = (tid % (BK / 4)) * 4;
    const int b_r = tid / (BN / 4), b_c = (tid % (BN / 4)) * 4;

    float acc[TM][TN] = {};

    for (int k0 = 0; k0 < K; k0 += BK) {
        {
            const int r = row0 + a_r, c = k0 + a_c;
            float4 v;
            if (VEC && r < M && c + 3 < K) {
                v = __ldg(reinterpret_cast<const float4 *>(A + (size_t)r * K + c));
            } else {
                v.x = (r < M && c + 0 < K) ? A[(size_t)r * K + c + 0] : 0.0f;
                v.y = (r < M && c + 1 < K) ? A[(size_t)r * K + c + 1] : 0.0f;
                v.z = (r < M && c + 2 < K) ? A[(size_t)r * K + c + 2] : 0.0f;
                v.w = (r < M && c + 3 < K) ? A[(size_t)r * K + c + 3] : 0.0f;
            }
            As[a_c + 0][a_r] = v.x;
            As[a_c + 1][a_r] = v.y;
            As[a_c + 2][a_r] = v.z;
            As[a_c + 3][a_r] = v.w;
        }
        {
            const int r = k0 + b_r, c = col0 + b_c;
            float4 v;
            if (VEC && r < K && c + 3 < N) {
                v = __ldg(reinterpret_cast<const float4 *>(B + (size_t)r * N + c));
            } else {
                v.x = (r < K && c + 0 < N) ? B[(size_t)r * N + c + 0] : 0.0f;
                v.y = (r < K && c + 1 < N) ? B[(size_t)r * N + c + 1] : 0.0f;
                v.z = (r < K && c + 2 < N) ? B[(size_t)r * N + c + 2] : 0.0f;
                v.w = (r < K && c + 3 < N) ? B[(size_t)r * N + c + 3] : 0.0f;
            }
            *reinterpret_cast<float4 *>(&Bs[b_r][b_c]) = v;
        }
        __syncthreads();

#pragma unroll
        for (int p = 0; p < BK; ++p) {
            const float4 a4 = *reinterpret_cast<const float4 *>(&As[p][tr * TM]);
            const float4 b4 = *reinterpret_cast<const float4 *>(&Bs[p][tc * TN]);
            const float a[TM] = {a4.x, a4.y, a4.z, a4.w};
            const float b[TN] = {b4.x, b4.y, b4.z, b4.w};
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
        __syncthreads();
    }

#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int r = row0 + tr * TM + i;
        const int c = col0 + tc * TN;
        if (r >= M) continue;
        if (VEC && c + 3 < N) {
            *reinterpret_cast<float4 *>(C + (size_t)r * N + c) =
                make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]);
        } else {
#pragma unroll
            for (int j = 0; j < TN; ++j)
                if (c + j < N) C[(size_t)r * N + c + j] = acc[i][j];
        }
    }
}

static bool aligned16(const void *p) { return (reinterpret_cast<uintptr_t>(p) & 15u) == 0; }

void sgemm(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    const dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM);
    const bool vec = k % 4 == 0 && n % 4 == 0 && aligned16(d_a) && aligned16(d_b) && aligned16(d_c);
    if (vec)
        sgemm_kernel<true><<<grid, NT>>>(d_c, d_a, d_b, m, n, k);
    else
        sgemm_kernel<false><<<grid, NT>>>(d_c, d_a, d_b, m, n, k);
}
