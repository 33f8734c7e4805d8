/*
 * Lab 8, steps 1 to 3 (README.md), the reference until step 4 replaced it.
 * Kept to measure step 3's gain; the reference is ../sgemm.cu.
 *
 * 1. Register blocking. A block of 256 threads computes a BM x BN = 128 x 128
 *    tile of C, each thread an 8 x 8 piece of it kept in registers. Per step
 *    along k a thread reads 8 floats of A and 8 of B from shared memory and
 *    does 64 multiply-adds with them: 4 per float read, where the tiled
 *    kernel of lab 7 did one per two floats.
 * 2. Vectorised loads. Each thread fetches its part of the next tiles as
 *    float4 (16 bytes) from global memory, and reads its 8 + 8 floats from
 *    shared memory as float4 too, laid out so that a warp's reads fall in
 *    distinct banks. A is stored transposed in shared memory (as[p][row]),
 *    so a thread's rows of A are contiguous as well.
 * 3. Double buffering. Two copies of each shared tile: while the block
 *    multiplies one, the loads of the next are already in flight into
 *    registers, and land in the other copy; one barrier per step.
 *
 * Tiles that hang over the edge of the matrices, and matrices whose rows
 * are not a multiple of 4 floats (so float4 would be misaligned), take a
 * path with a bounds check on every element: zeros outside.
 */
#include "lab.h"

#include <stddef.h>
#include <stdint.h>

#define BM 128
#define BN 128
#define BK 8
#define TM 8
#define TN 8
#define THREADS ((BM / TM) * (BN / TN))

/* What one thread carries from global memory to shared memory per step. */
typedef struct {
    float a[4], b[4];
} staged;

/* This thread's 4 floats of the next A tile (one row, 4 along k) and of B (one row, 4 columns). */
__device__ static void load_tiles(staged *st, const float *a, const float *b, int m, int n, int k,
                                  int row0, int col0, int p0, int vectors)
{
    int t = threadIdx.x;
    int ar = row0 + t / 2, ac = p0 + (t % 2) * 4;
    int br = p0 + t / 32, bc = col0 + (t % 32) * 4;
    if (vectors) {
        float4 va = *(const float4 *)(a + (size_t)ar * k + ac);
        float4 vb = *(const float4 *)(b + (size_t)br * n + bc);
        st->a[0] = va.x, st->a[1] = va.y, st->a[2] = va.z, st->a[3] = va.w;
        st->b[0] = vb.x, st->b[1] = vb.y, st->b[2] = vb.z, st->b[3] = vb.w;
        return;
    }
    for (int i = 0; i < 4; i++) {
        st->a[i] = ar < m && ac + i < k ? a[(size_t)ar * k + ac + i] : 0.0f;
        st->b[i] = br < k && bc + i < n ? b[(size_t)br * n + bc + i] : 0.0f;
    }
}

__device__ static void store_tiles(const staged *st, float as[BK][BM], float bs[BK][BN])
{
    int t = threadIdx.x;
    for (int i = 0; i < 4; i++) {
        as[(t % 2) * 4 + i][t / 2] = st->a[i];
        bs[t / 32][(t % 32) * 4 + i] = st->b[i];
    }
}

/*
 * A thread's 8 rows of the block's tile are ty*4 .. ty*4+3 and 64+ty*4 ..
 * 64+ty*4+3, its 8 columns likewise with tx: neighbouring threads read
 * neighbouring float4s of shared memory.
 */
__global__ __launch_bounds__(THREADS) void sgemm_kernel(float *c, const float *a, const float *b,
                                                         int m, int n, int k)
{
    __shared__ __align__(16) float as[2][BK][BM];
    __shared__ __align__(16) float bs[2][BK][BN];

    int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    int aligned = k % 4 == 0 && n % 4 == 0 && (uintptr_t)a % 16 == 0 && (uintptr_t)b % 16 == 0;
    int inside = row0 + BM <= m && col0 + BN <= n;
    float acc[TM][TN];
    for (int i = 0; i < TM; i++)
        for (int j = 0; j < TN; j++)
            acc[i][j] = 0.0f;

    staged st;
    int buf = 0;
    load_tiles(&st, a, b, m, n, k, row0, col0, 0, aligned && inside && BK <= k);
    store_tiles(&st, as[0], bs[0]);
    __syncthreads();

    for (int p0 = 0; p0 < k; p0 += BK) {
        int next = p0 + BK < k;
        if (next)
            load_tiles(&st, a, b, m, n, k, row0, col0, p0 + BK,
                       aligned && inside && p0 + 2 * BK <= k);
#pragma unroll
        for (int p = 0; p < BK; p++) {
            float ra[TM], rb[TN];
            float4 a0 = *(const float4 *)&as[buf][p][ty * 4];
            float4 a1 = *(const float4 *)&as[buf][p][64 + ty * 4];
            float4 b0 = *(const float4 *)&bs[buf][p][tx * 4];
            float4 b1 = *(const float4 *)&bs[buf][p][64 + tx * 4];
            ra[0] = a0.x, ra[1] = a0.y, ra[2] = a0.z, ra[3] = a0.w;
            ra[4] = a1.x, ra[5] = a1.y, ra[6] = a1.z, ra[7] = a1.w;
            rb[0] = b0.x, rb[1] = b0.y, rb[2] = b0.z, rb[3] = b0.w;
            rb[4] = b1.x, rb[5] = b1.y, rb[6] = b1.z, rb[7] = b1.w;
#pragma unroll
            for (int i = 0; i < TM; i++)
#pragma unroll
                for (int j = 0; j < TN; j++)
                    acc[i][j] += ra[i] * rb[j];
        }
        if (next)
            store_tiles(&st, as[buf ^ 1], bs[buf ^ 1]);
        __syncthreads();
        buf ^= 1;
    }

    int vectors = aligned && (uintptr_t)c % 16 == 0;
    for (int i = 0; i < TM; i++) {
        int row = row0 + (i < 4 ? ty * 4 + i : 64 + ty * 4 + i - 4);
        if (row >= m)
            continue;
        for (int half = 0; half < 2; half++) {
            int col = col0 + half * 64 + tx * 4;
            float *out = c + (size_t)row * n + col;
            const float *v = &acc[i][half * 4];
            if (vectors && col + 4 <= n) {
                *(float4 *)out = make_float4(v[0], v[1], v[2], v[3]);
            } else {
                for (int j = 0; j < 4 && col + j < n; j++)
                    out[j] = v[j];
            }
        }
    }
}

void sgemm(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM);
    sgemm_kernel<<<grid, THREADS>>>(d_c, d_a, d_b, m, n, k);
}
