// expect: pass
// B's tile read four floats at a time through the read-only path,
// __ldg(const float4 *), where that is legal: when n is a multiple of 4
// every row of B starts on 16 bytes; otherwise one float at a time.
#include "lab.h"

#define BT 64
#define BK 16
#define TT 4

__global__ void tiled_ldg(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float as[BK][BT], bs[BK][BT];
    int tid = threadIdx.y * (BT / TT) + threadIdx.x;
    int row0 = blockIdx.y * BT, col0 = blockIdx.x * BT;
    bool vec = n % 4 == 0;
    float acc[TT][TT] = {};
    for (int p0 = 0; p0 < k; p0 += BK) {
        for (int i = tid; i < BK * BT; i += (BT / TT) * (BT / TT)) {
            int r = i / BK, q = i % BK;
            as[q][r] = row0 + r < m && p0 + q < k ? __ldg(&a[(size_t)(row0 + r) * k + p0 + q]) : 0.0f;
        }
        for (int i = tid; i < BK * BT / 4; i += (BT / TT) * (BT / TT)) {
            int br = i / (BT / 4), bc = i % (BT / 4) * 4, row = p0 + br, col = col0 + bc;
            float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            if (row < k && vec && col + 3 < n) {
                v = __ldg(reinterpret_cast<const float4 *>(&b[(size_t)row * n + col]));
            } else if (row < k) {
                v.x = col < n ? __ldg(&b[(size_t)row * n + col]) : 0.0f;
                v.y = col + 1 < n ? __ldg(&b[(size_t)row * n + col + 1]) : 0.0f;
                v.z = col + 2 < n ? __ldg(&b[(size_t)row * n + col + 2]) : 0.0f;
                v.w = col + 3 < n ? __ldg(&b[(size_t)row * n + col + 3]) : 0.0f;
            }
            bs[br][bc] = v.x, bs[br][bc + 1] = v.y, bs[br][bc + 2] = v.z, bs[br][bc + 3] = v.w;
        }
        __syncthreads();
        for (int q = 0; q < BK; q++)
            for (int i = 0; i < TT; i++)
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

void sgemm(float *c, const float *a, const float *b, int m, int n, int k)
{
    tiled_ldg<<<dim3((n + BT - 1) / BT, (m + BT - 1) / BT), dim3(BT / TT, BT / TT)>>>(c, a, b, m, n, k);
}
