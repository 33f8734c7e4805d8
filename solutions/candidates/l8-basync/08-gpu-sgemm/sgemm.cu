/*
 * Lab 8 candidate l8-basync (issue 40): the reference with its B tiles
 * brought into shared memory by asynchronous copies, A's through
 * registers as before.
 *
 * The reference stages each step's next tiles in registers: 2 float4s of
 * A and 2 of B a thread, 16 of its 128 registers, and stores them after
 * the multiply-adds. The B tile is stored as it lies in global memory
 * (rows of k, columns of n), so an asynchronous copy (cp.async, sm_80 and
 * later: `__pipeline_memcpy_async`) can put it there directly, 16 bytes a
 * copy, with no register and no shared store: the 2 STS.128 of B a step
 * go, and 8 registers are freed for ptxas's schedule. A must be
 * transposed on its way (a copy moves bytes as they lie), so it keeps the
 * registers. The copies of step s + 1 are issued with A's loads at the
 * start of step s, into the buffer step s - 1 read (every thread passed
 * the barrier that ended those reads); each thread waits for its own
 * copies (`__pipeline_wait_prior(0)`) just before the one barrier of the
 * step, which then makes them visible to the block. Outside the matrix a
 * copy zero-fills (its source size is 0); rows not 16-byte aligned copy
 * 4 bytes at a time.
 *
 * Tried before and lost (solutions/candidates/README.md): both tiles by
 * asynchronous copies, A then kept row-major (32 registers of fragments).
 * Here A's layout, its fragments and the schedule are the reference's.
 * The tiles live in dynamic shared memory (BK = 32 needs more than 48 KB:
 * candidate l8-bk32). ptxas, sm_90: 127 registers, no spills.
 *
 * The reference's header follows.
 *
 * Lab 8 reference: past shared-memory tiling, in five steps (README.md).
 * steps/ holds the kernel after steps 0 to 4, each measured on its own.
 *
 * 1. Register blocking. A block of THREADS = 256 threads computes a
 *    BM x BN = 128 x 128 tile of C, each thread a TM x TN = 8 x 8 piece of
 *    it kept in registers: per step along k it reads 8 floats of A and 8 of
 *    B from shared memory and does 64 multiply-adds with them, 4 per float
 *    read, where lab 7's tiled kernel did one per two.
 * 2. Vectorised loads: float4 from global memory, A stored transposed in
 *    shared memory (its rows BM + 4 floats long, so the transposed stores
 *    spread over the banks), float4 reads from shared memory.
 * 3. Double buffering: the next tiles' loads are in flight during the
 *    multiply-adds; one barrier per step.
 * 4. Warp tiles and BK = 16. Each warp computes a WM x WN = 32 x 64 part
 *    of the block's tile, each lane an 8 x 8 piece of it as TM / 4 runs of
 *    4 rows and TN / 4 runs of 4 columns, so a warp's float4 reads of a
 *    shared tile touch few neighbouring float4s: one pass per quarter-warp.
 *    Steps of BK = 16 along k: one barrier, one round of global loads and
 *    shared stores per 1024 multiply-adds of a thread instead of 512.
 *    __launch_bounds__(256, 2) holds it to 128 registers (no spills, nvcc
 *    13.0, sm_90), so 2 blocks fit on an SM; 33 KB of shared memory a block.
 * 5. Double-buffered fragments: step 3's idea one level down. A thread reads
 *    row p + 1 of the shared tiles into registers while it does row p's
 *    multiply-adds; the last row's multiply-adds wait until the next tiles
 *    are stored, the barrier passed and their row 0 read, so a warp leaves
 *    the barrier with 64 independent FFMAs to issue, not a shared load to
 *    wait for. 16 more floats live, still in 128 registers (8 bytes of
 *    spills for sm_86 and sm_89, none for sm_75, sm_80, sm_90).
 *
 * Edges, thread by thread: each float4 of A and B is loaded whole where the
 * rows are 16-byte aligned (k, n multiples of 4) and it lies inside the
 * matrix, zeros outside, so a block on the edge of C runs at the speed of
 * one inside. Unaligned rows take 4 scalar loads with bounds checks.
 */
#include "lab.h"

#include <cuda_pipeline.h>
#include <stddef.h>
#include <stdint.h>

#define BM 128
#define BN 128
#define BK 16
#define WM 32
#define WN 64
#define TM 8
#define TN 8
#define THREADS (BM / WM * (BN / WN) * 32)
/* Blocks per SM the registers must allow (65536 / (THREADS * MIN_BLOCKS) each at most). */
#define MIN_BLOCKS 2
/* A thread's rows are TM / 4 runs of 4, RUN_M apart; its columns TN / 4 runs of 4, RUN_N apart. */
#define RUN_M (WM / (TM / 4))
#define RUN_N (WN / (TN / 4))
#define PAD 4
/* float4s of the A tile and of the B tile each thread carries per step */
#define A_VECS (BM * BK / 4 / THREADS)
#define B_VECS (BK * BN / 4 / THREADS)

/* Dynamic shared memory: two A tiles (transposed, rows padded), then two B tiles. */
#define A_TILE_FLOATS (BK * (BM + PAD))
#define B_TILE_FLOATS (BK * BN)
#define SHARED_BYTES ((2 * A_TILE_FLOATS + 2 * B_TILE_FLOATS) * (int)sizeof(float))

typedef struct {
    float4 a[A_VECS];
} staged;

/* Floats c .. c+3 of row r of a rows x cols matrix, zeros outside it. */
__device__ static float4 load4(const float *src, int r, int c, int rows, int cols, int vectors)
{
    const float *at = src + (size_t)r * cols + c;
    if (vectors) /* cols % 4 == 0: the float4 is wholly inside or wholly outside */
        return r < rows && c < cols ? *(const float4 *)at : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    float v[4];
#pragma unroll
    for (int i = 0; i < 4; i++)
        v[i] = r < rows && c + i < cols ? at[i] : 0.0f;
    return make_float4(v[0], v[1], v[2], v[3]);
}

/*
 * Thread t's float4s of the A tile: rows t / (BK / 4) + i * A_PASS (i < A_VECS),
 * floats t % (BK / 4) * 4 ..; of the B tile: rows t / (BN / 4) + i * B_PASS
 * (i < B_VECS), floats t % (BN / 4) * 4 .. The row and column are worked out
 * once and stepped, not recomputed from i: at BK = 32 (l8-bk32) ptxas keeps
 * each recomputed address live across the loop and spills 108 bytes.
 */
#define A_PASS (THREADS / (BK / 4))
#define B_PASS (THREADS / (BN / 4))

__device__ static void load_a(staged *st, const float *a, int m, int k, int row0, int p0, int va)
{
    int r = row0 + threadIdx.x / (BK / 4), c = p0 + threadIdx.x % (BK / 4) * 4;
#pragma unroll
    for (int i = 0; i < A_VECS; i++)
        st->a[i] = load4(a, r + i * A_PASS, c, m, k, va);
}

/* A transposed: float x of a thread's float4 i goes to as[column + x][row]. */
__device__ static void store_a(const staged *st, float as[BK][BM + PAD])
{
    int r = threadIdx.x / (BK / 4), p = threadIdx.x % (BK / 4) * 4;
#pragma unroll
    for (int i = 0; i < A_VECS; i++) {
        as[p][r + i * A_PASS] = st->a[i].x;
        as[p + 1][r + i * A_PASS] = st->a[i].y;
        as[p + 2][r + i * A_PASS] = st->a[i].z;
        as[p + 3][r + i * A_PASS] = st->a[i].w;
    }
}

/* The B tile copied into bs as it lies, asynchronously; what lies outside
 * the matrix is zero-filled (a copy of source size 0 reads nothing; its
 * address is b's, valid all the same). Rows not 16-byte aligned: 4 bytes a
 * copy. One batch (__pipeline_commit) a step. */
__device__ static void copy_b(float bs[BK][BN], const float *b, int n, int k, int col0, int p0,
                              int vb)
{
    int r = p0 + threadIdx.x / (BN / 4), c = col0 + threadIdx.x % (BN / 4) * 4;
    const float *src = b + (size_t)r * n + c;
    float *dst = &bs[threadIdx.x / (BN / 4)][threadIdx.x % (BN / 4) * 4];
#pragma unroll
    for (int i = 0; i < B_VECS; i++, r += B_PASS, src += (size_t)B_PASS * n, dst += B_PASS * BN) {
        if (vb) {
            int inside = r < k && c < n;
            __pipeline_memcpy_async(dst, inside ? src : b, 16, inside ? 0 : 16);
        } else {
#pragma unroll
            for (int j = 0; j < 4; j++) {
                int inside = r < k && c + j < n;
                __pipeline_memcpy_async(dst + j, inside ? src + j : b, 4, inside ? 0 : 4);
            }
        }
    }
    __pipeline_commit();
}

/* Row p of the shared tiles as this thread multiplies it: TM floats of A from
 * column r of as[p], in runs of 4 RUN_M apart, and TN of B from column c of
 * bs[p], runs RUN_N apart. */
__device__ static void load_fragments(float ra[TM], float rb[TN], const float as[BK][BM + PAD],
                                      const float bs[BK][BN], int p, int r, int c)
{
#pragma unroll
    for (int s = 0; s < TM / 4; s++) {
        float4 v = *(const float4 *)&as[p][r + s * RUN_M];
        ra[4 * s] = v.x, ra[4 * s + 1] = v.y, ra[4 * s + 2] = v.z, ra[4 * s + 3] = v.w;
    }
#pragma unroll
    for (int s = 0; s < TN / 4; s++) {
        float4 v = *(const float4 *)&bs[p][c + s * RUN_N];
        rb[4 * s] = v.x, rb[4 * s + 1] = v.y, rb[4 * s + 2] = v.z, rb[4 * s + 3] = v.w;
    }
}

/*
 * Warp w takes rows (w / (BN / WN)) * WM .. and columns (w % (BN / WN)) * WN ..
 * of the block's tile. Lane l owns rows lr + s * RUN_M + i of the warp's
 * part (lr = (l / (RUN_N / 4)) * 4, s < TM / 4, i < 4) and columns
 * lc + s * RUN_N + j (lc = (l % (RUN_N / 4)) * 4, s < TN / 4, j < 4).
 */
__global__ __launch_bounds__(THREADS, MIN_BLOCKS) void sgemm_kernel(float *c, const float *a,
                                                                     const float *b, int m, int n,
                                                                     int k)
{
    extern __shared__ __align__(16) float tiles[];
    float(*as)[BK][BM + PAD] = reinterpret_cast<float(*)[BK][BM + PAD]>(tiles);
    float(*bs)[BK][BN] = reinterpret_cast<float(*)[BK][BN]>(tiles + 2 * A_TILE_FLOATS);

    int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    int wr = warp / (BN / WN) * WM, wc = warp % (BN / WN) * WN;
    int lr = lane / (RUN_N / 4) * 4, lc = lane % (RUN_N / 4) * 4;
    int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
    int va = k % 4 == 0 && (uintptr_t)a % 16 == 0, vb = n % 4 == 0 && (uintptr_t)b % 16 == 0;
    float acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; i++)
#pragma unroll
        for (int j = 0; j < TN; j++)
            acc[i][j] = 0.0f;

    staged st;
    int buf = 0;
    copy_b(bs[0], b, n, k, col0, 0, vb);
    load_a(&st, a, m, k, row0, 0, va);
    store_a(&st, as[0]);
    __pipeline_wait_prior(0);
    __syncthreads();
    /* ra[p % 2] and rb[p % 2] hold row p of the tiles, the other pair is filled meanwhile */
    float ra[2][TM], rb[2][TN];
    load_fragments(ra[0], rb[0], as[0], bs[0], 0, wr + lr, wc + lc);

    for (int p0 = 0; p0 < k; p0 += BK) {
        int next = p0 + BK < k;
        if (next) { /* into the buffer the last step read, behind its barrier */
            copy_b(bs[buf ^ 1], b, n, k, col0, p0 + BK, vb);
            load_a(&st, a, m, k, row0, p0 + BK, va);
        }
#pragma unroll
        for (int p = 0; p < BK; p++) {
            if (p == BK - 1) { /* before the last row's multiply-adds: the next step's tiles */
                if (next)
                    store_a(&st, as[buf ^ 1]);
                __pipeline_wait_prior(0); /* this thread's copies of B have landed */
                __syncthreads();
                buf ^= 1;
            }
            /* row p + 1, or the next step's row 0 (after the last step, a row never used:
             * 4 shared loads a thread, cheaper than the registers a branch here costs) */
            load_fragments(ra[(p + 1) % 2], rb[(p + 1) % 2], as[buf], bs[buf], (p + 1) % BK,
                           wr + lr, wc + lc);
#pragma unroll
            for (int i = 0; i < TM; i++)
#pragma unroll
                for (int j = 0; j < TN; j++)
                    acc[i][j] += ra[p % 2][i] * rb[p % 2][j];
        }
    }

    int vectors = n % 4 == 0 && (uintptr_t)c % 16 == 0;
#pragma unroll
    for (int i = 0; i < TM; i++) {
        int row = row0 + wr + i / 4 * RUN_M + lr + i % 4;
        if (row >= m)
            continue;
#pragma unroll
        for (int s = 0; s < TN / 4; s++) {
            int col = col0 + wc + s * RUN_N + lc;
            float *out = c + (size_t)row * n + col;
            const float *v = &acc[i][4 * s];
            if (vectors && col + 4 <= n) {
                *(float4 *)out = make_float4(v[0], v[1], v[2], v[3]);
            } else {
#pragma unroll
                for (int j = 0; j < 4; j++)
                    if (col + j < n)
                        out[j] = v[j];
            }
        }
    }
}

void sgemm(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    dim3 grid((n + BN - 1) / BN, (m + BM - 1) / BM);
    /* More than 48 KB of dynamic shared memory (BK = 32) only by asking for it first. */
    if (SHARED_BYTES > 48 * 1024)
        cudaFuncSetAttribute(sgemm_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, SHARED_BYTES);
    sgemm_kernel<<<grid, THREADS, SHARED_BYTES>>>(d_c, d_a, d_b, m, n, k);
}
