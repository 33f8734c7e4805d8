// expect: fail cudaErrorMisalignedAddress
// float4 loads of B without checking that the row start is a multiple of
// 16 bytes: when n is not a multiple of 4, rows start misaligned.
#include "lab.h"

#define BT 32
#define TT 4

__global__ void vec4(float *c, const float *a, const float *b, int m, int n, int k)
{
    int col = (blockIdx.x * blockDim.x + threadIdx.x) * TT, row0 = (blockIdx.y * blockDim.y + threadIdx.y) * TT;
    float acc[TT][TT] = {};
    for (int p = 0; p < k; p++) {
        float4 bv = col + 3 < n ? *(const float4 *)&b[(size_t)p * n + col] : make_float4(0, 0, 0, 0);
        float bb[TT] = {bv.x, bv.y, bv.z, bv.w};
        for (int i = 0; i < TT; i++) {
            float av = row0 + i < m ? a[(size_t)(row0 + i) * k + p] : 0.0f;
            for (int j = 0; j < TT; j++)
                acc[i][j] += av * bb[j];
        }
    }
    for (int i = 0; i < TT; i++)
        for (int j = 0; j < TT; j++)
            if (row0 + i < m && col + j < n)
                c[(size_t)(row0 + i) * n + col + j] = acc[i][j];
}

void sgemm(float *c, const float *a, const float *b, int m, int n, int k)
{
    dim3 block(8, 8);
    vec4<<<dim3((n + BT - 1) / BT, (m + BT - 1) / BT), block>>>(c, a, b, m, n, k);
}
