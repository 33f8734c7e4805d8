// expect: pass
// Operator overloading on CUDA's float4, as C++-minded code does: a thread
// keeps its 4 x 4 tile of C as four float4 rows and updates each with
// acc[i] += a * b4, reading B's tile four floats at a time from shared
// memory (each row of the tile starts on 16 bytes).
#include "lab.h"

#define BT 64
#define BK 16
#define TT 4

__device__ __forceinline__ float4 operator*(float s, float4 v)
{
    return make_float4(s * v.x, s * v.y, s * v.z, s * v.w);
}

__device__ __forceinline__ float4 &operator+=(float4 &acc, float4 v)
{
    acc.x += v.x, acc.y += v.y, acc.z += v.z, acc.w += v.w;
    return acc;
}

__global__ void tiled_float4(float *c, const float *a, const float *b, int m, int n, int k)
{
    __shared__ float as[BK][BT];
    __shared__ __align__(16) float bs[BK][BT];
    int tx = threadIdx.x, ty = threadIdx.y, tid = ty * (BT / TT) + tx;
    int row0 = blockIdx.y * BT, col0 = blockIdx.x * BT;
    float4 acc[TT];
    for (int i = 0; i < TT; i++)
        acc[i] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int p0 = 0; p0 < k; p0 += BK) {
        for (int i = tid; i < BK * BT; i += (BT / TT) * (BT / TT)) {
            int r = i / BK, q = i % BK;
            as[q][r] = row0 + r < m && p0 + q < k ? a[(size_t)(row0 + r) * k + p0 + q] : 0.0f;
            int br = i / BT, bc = i % BT;
            bs[br][bc] = p0 + br < k && col0 + bc < n ? b[(size_t)(p0 + br) * n + col0 + bc] : 0.0f;
        }
        __syncthreads();
        for (int q = 0; q < BK; q++) {
            const float4 b4 = *reinterpret_cast<const float4 *>(&bs[q][tx * TT]);
            for (int i = 0; i < TT; i++)
                acc[i] += as[q][ty * TT + i] * b4;
        }
        __syncthreads();
    }
    for (int i = 0; i < TT; i++) {
        int r = row0 + ty * TT + i, col = col0 + tx * TT;
        const float v[TT] = {acc[i].x, acc[i].y, acc[i].z, acc[i].w};
        for (int j = 0; j < TT; j++)
            if (r < m && col + j < n)
                c[(size_t)r * n + col + j] = v[j];
    }
}

void sgemm(float *c, const float *a, const float *b, int m, int n, int k)
{
    tiled_float4<<<dim3((n + BT - 1) / BT, (m + BT - 1) / BT), dim3(BT / TT, BT / TT)>>>(c, a, b, m, n, k);
}
