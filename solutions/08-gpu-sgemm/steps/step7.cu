/*
 * Lab 8, steps 1 to 7 (README.md), the reference until step 8 replaced it.
 * Kept to measure step 8's gain; the reference is ../sgemm.cu.
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
 * 6. More blocks than tiles where C is small. With fewer tiles of C than
 *    the GPU holds blocks at once (the occupancy API times the SMs: 264 on
 *    an H100 or an H200), k is split into runs, each a whole number of BK
 *    steps and at least MIN_SPLIT_K long: block (x, y, z) multiplies the
 *    z-th run only and adds its partial tile into C with atomicAdd, C set
 *    to zero first (cudaMemsetAsync on the default stream, before the
 *    launch). 1024^3: 64 tiles, 4 runs of 256, 256 blocks; 512^3: 16
 *    tiles, 4 runs of 128, 64 blocks (step 7 gives both smaller tiles).
 *    From 2000^3 up the tiles fill the GPU and the kernel is step 5's (the
 *    template's instance with SPLIT false: the same code, plain stores).
 *    The partial sums of an element are added in an order the hardware
 *    picks, so its rounding may differ from run to run, within the tests'
 *    bound (which holds for the k products summed in any order).
 *
 * 7. Smaller tiles where C is small. Step 6's runs of k are at least
 *    MIN_SPLIT_K long, so at 512^3 its 16 tiles of 128 x 128 still make
 *    only 64 blocks: half the 132 SMs idle, and each thread does
 *    8 x 8 x 128 = 8192 multiply-adds before its first atomicAdd, one
 *    step of 16 after another. Where C has fewer 128 x 128 tiles than a
 *    SMALL_DIV-th of the blocks the GPU holds, the kernel takes a second
 *    shape (the template parameter S): 64 x 64 tiles of C, 128 threads in
 *    2 x 2 warps of WM x WN = 32 x 32, TM x TN = 8 x 4 a thread, 4 blocks
 *    an SM, k split as in step 6. 512^3: 64 tiles, 4 runs of 128, 256
 *    blocks; 1024^3: 256 tiles, 2 runs of 512, 512 blocks. Every SM has
 *    blocks, and each thread half the multiply-adds. A thread reads 12
 *    floats a row of the tiles for 32 multiply-adds (0.375 each, where
 *    8 x 8 reads 0.25): at these sizes the shared-memory pipe is not the
 *    limit, the SMs left idle are. SMALL_DIV = 4: on an H100 or an H200
 *    (264 resident blocks of the large shape) 512^3 and 1024^3 take the
 *    small shape, 2000^3 (256 tiles) the large one; with the small shape at
 *    2000^3 (SMALL_DIV 1) the product lost 15 points of cuBLAS there
 *    (solutions/candidates/README.md). From 2000^3 up the kernel is still
 *    step 5's, the same instance. The small shape: 109 registers (119
 *    without the split), no spills, 16.5 KB of shared memory a block (nvcc
 *    13.0, sm_90; no spills for any architecture the kit builds).
 *
 * Edges, thread by thread: each float4 of A and B is loaded whole where the
 * rows are 16-byte aligned (k, n multiples of 4) and it lies inside the
 * matrix, zeros outside, so a block on the edge of C runs at the speed of
 * one inside. Unaligned rows take 4 scalar loads with bounds checks.
 */
#include "lab.h"

#include <stddef.h>
#include <stdint.h>

#define BK 16
#define PAD 4
/* The least of k a block of a split product multiplies: 8 steps. */
#define MIN_SPLIT_K (8 * BK)
/* Step 7's shape where C has fewer tiles of the large one than SMALL_DIV-th of the blocks the GPU
 * holds. */
#define SMALL_DIV 4

/* A block's shape: BM x BN of C, warps of WM x WN, TM x TN a thread, MIN_BLOCKS an SM. */
template <int BM_, int BN_, int WM_, int WN_, int TM_, int TN_, int MIN_BLOCKS_>
struct shape {
    static constexpr int BM = BM_, BN = BN_, WM = WM_, WN = WN_, TM = TM_, TN = TN_;
    static constexpr int MIN_BLOCKS = MIN_BLOCKS_;
    static constexpr int THREADS = BM / WM * (BN / WN) * 32;
    /* A thread's rows are TM / 4 runs of 4, RUN_M apart; its columns TN / 4 runs, RUN_N apart. */
    static constexpr int RUN_M = WM / (TM / 4), RUN_N = WN / (TN / 4);
    /* float4s of the A tile and of the B tile each thread carries per step */
    static constexpr int A_VECS = BM * BK / 4 / THREADS, B_VECS = BK * BN / 4 / THREADS;
};
typedef shape<128, 128, 32, 64, 8, 8, 2> large; /* steps 1 to 6: 256 threads, 2 blocks an SM */
typedef shape<64, 64, 32, 32, 8, 4, 4> small;   /* step 7, for a small C: 128 threads, 4 an SM */

template <class S>
struct staged {
    float4 a[S::A_VECS], b[S::B_VECS];
};

/* Floats c .. c+3 of row r of a matrix with rows of `stride` floats, zeros
 * outside rows x cols (cols <= stride: a split product's run of k ends at
 * cols, a multiple of 4 or the row's end). */
__device__ static float4 load4(const float *src, int r, int c, int rows, int cols, int stride,
                               int vectors)
{
    const float *at = src + (size_t)r * stride + c;
    if (vectors) /* stride, cols % 4 == 0: the float4 is wholly inside or wholly outside */
        return r < rows && c < cols ? *(const float4 *)at : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    float v[4];
#pragma unroll
    for (int i = 0; i < 4; i++)
        v[i] = r < rows && c + i < cols ? at[i] : 0.0f;
    return make_float4(v[0], v[1], v[2], v[3]);
}

/* Float4 number v of the A tile is row v / (BK / 4), floats v % (BK / 4) * 4 ..;
 * of the B tile, row v / (BN / 4), floats v % (BN / 4) * 4 .. */
template <class S>
__device__ static void load_tiles(staged<S> *st, const float *a, const float *b, int m, int n,
                                  int k, int k_end, int row0, int col0, int p0, int va, int vb)
{
    constexpr int A_VECS = S::A_VECS, B_VECS = S::B_VECS, THREADS = S::THREADS, BN = S::BN;
#pragma unroll
    for (int i = 0; i < A_VECS; i++) {
        int v = threadIdx.x + i * THREADS;
        st->a[i] = load4(a, row0 + v / (BK / 4), p0 + v % (BK / 4) * 4, m, k_end, k, va);
    }
#pragma unroll
    for (int i = 0; i < B_VECS; i++) {
        int v = threadIdx.x + i * THREADS;
        st->b[i] = load4(b, p0 + v / (BN / 4), col0 + v % (BN / 4) * 4, k_end, n, n, vb);
    }
}

template <class S>
__device__ static void store_tiles(const staged<S> *st, float as[BK][S::BM + PAD],
                                   float bs[BK][S::BN])
{
    constexpr int A_VECS = S::A_VECS, B_VECS = S::B_VECS, THREADS = S::THREADS, BN = S::BN;
#pragma unroll
    for (int i = 0; i < A_VECS; i++) {
        int v = threadIdx.x + i * THREADS, r = v / (BK / 4), p = v % (BK / 4) * 4;
        as[p][r] = st->a[i].x;
        as[p + 1][r] = st->a[i].y;
        as[p + 2][r] = st->a[i].z;
        as[p + 3][r] = st->a[i].w;
    }
#pragma unroll
    for (int i = 0; i < B_VECS; i++) {
        int v = threadIdx.x + i * THREADS;
        *(float4 *)&bs[v / (BN / 4)][v % (BN / 4) * 4] = st->b[i];
    }
}

/* Row p of the shared tiles as this thread multiplies it: TM floats of A from
 * column r of as[p], in runs of 4 RUN_M apart, and TN of B from column c of
 * bs[p], runs RUN_N apart. */
template <class S>
__device__ static void load_fragments(float ra[S::TM], float rb[S::TN],
                                      const float as[BK][S::BM + PAD], const float bs[BK][S::BN],
                                      int p, int r, int c)
{
    constexpr int TM = S::TM, TN = S::TN, RUN_M = S::RUN_M, RUN_N = S::RUN_N;
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
 *
 * SPLIT: block z multiplies k from z * k_run to (z + 1) * k_run, and adds
 * its tile into C, which holds zeros.
 */
template <class S, bool SPLIT>
__global__ __launch_bounds__(S::THREADS, S::MIN_BLOCKS) void sgemm_kernel(float *c, const float *a,
                                                                          const float *b, int m,
                                                                          int n, int k, int k_run)
{
    constexpr int BM = S::BM, BN = S::BN, WM = S::WM, WN = S::WN, TM = S::TM, TN = S::TN;
    constexpr int RUN_M = S::RUN_M, RUN_N = S::RUN_N;
    __shared__ __align__(16) float as[2][BK][BM + PAD];
    __shared__ __align__(16) float bs[2][BK][BN];

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

    int k_begin = SPLIT ? blockIdx.z * k_run : 0;
    int k_end = SPLIT && k - k_begin > k_run ? k_begin + k_run : k;

    staged<S> st;
    int buf = 0;
    load_tiles<S>(&st, a, b, m, n, k, k_end, row0, col0, k_begin, va, vb);
    store_tiles<S>(&st, as[0], bs[0]);
    __syncthreads();
    /* ra[p % 2] and rb[p % 2] hold row p of the tiles, the other pair is filled meanwhile */
    float ra[2][TM], rb[2][TN];
    load_fragments<S>(ra[0], rb[0], as[0], bs[0], 0, wr + lr, wc + lc);

    for (int p0 = k_begin; p0 < k_end; p0 += BK) {
        int next = p0 + BK < k_end;
        if (next)
            load_tiles<S>(&st, a, b, m, n, k, k_end, row0, col0, p0 + BK, va, vb);
#pragma unroll
        for (int p = 0; p < BK; p++) {
            if (p == BK - 1) { /* before the last row's multiply-adds: the next step's tiles */
                if (next)
                    store_tiles<S>(&st, as[buf ^ 1], bs[buf ^ 1]);
                __syncthreads();
                buf ^= 1;
            }
            /* row p + 1, or the next step's row 0 (after the last step, a row never used:
             * 4 shared loads a thread, cheaper than the registers a branch here costs) */
            load_fragments<S>(ra[(p + 1) % 2], rb[(p + 1) % 2], as[buf], bs[buf], (p + 1) % BK,
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
            if (SPLIT) {
#pragma unroll
                for (int j = 0; j < 4; j++)
                    if (col + j < n)
                        atomicAdd(out + j, v[j]);
            } else if (vectors && col + 4 <= n) {
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

/* Blocks of a kernel the GPU holds at once: its SMs times the blocks an SM holds. */
template <class S>
static int resident_blocks(void)
{
    int device, sms, per_sm;
    if (cudaGetDevice(&device) != cudaSuccess
        || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess
        || cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, sgemm_kernel<S, false>,
                                                         S::THREADS, 0)
               != cudaSuccess)
        return 0;
    return sms * per_sm;
}

/* C in tiles of S, k split in runs of at least MIN_SPLIT_K where the tiles are fewer than the
 * GPU holds blocks (step 6). */
template <class S>
static void run(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    dim3 grid((n + S::BN - 1) / S::BN, (m + S::BM - 1) / S::BM);
    int tiles = (int)(grid.x * grid.y), splits = resident_blocks<S>() / tiles;
    if (splits > k / MIN_SPLIT_K)
        splits = k / MIN_SPLIT_K;
    if (splits < 2) {
        sgemm_kernel<S, false><<<grid, S::THREADS>>>(d_c, d_a, d_b, m, n, k, k);
        return;
    }
    /* Runs of k a whole number of steps long; the last may be shorter, none is empty. */
    int k_run = ((k + splits - 1) / splits + BK - 1) / BK * BK;
    grid.z = (k + k_run - 1) / k_run;
    cudaMemsetAsync(d_c, 0, (size_t)m * n * sizeof(float), 0);
    sgemm_kernel<S, true><<<grid, S::THREADS>>>(d_c, d_a, d_b, m, n, k, k_run);
}

void sgemm(float *d_c, const float *d_a, const float *d_b, int m, int n, int k)
{
    long tiles = (long)((n + large::BN - 1) / large::BN) * ((m + large::BM - 1) / large::BM);
    if (tiles * SMALL_DIV < resident_blocks<large>()) /* step 7 */
        run<small>(d_c, d_a, d_b, m, n, k);
    else
        run<large>(d_c, d_a, d_b, m, n, k);
}
