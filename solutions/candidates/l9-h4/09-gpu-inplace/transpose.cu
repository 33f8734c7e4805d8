/*
 * Lab 9 candidate l9-h4 (issue 40, round 3): l9-hstrips (each pair of
 * 64 x 64 tiles worked by two half-pair blocks of 512 threads, launched in
 * strips) with 16-byte loads and stores wherever a row starts on 16 bytes
 * (n a multiple of 4 and d_mat aligned: every default size but 4097, which
 * runs l9-hstrips' own kernel, as it is, below).
 *
 * The one idea: the same bytes in a quarter of the memory instructions. A
 * warp's float4 load moves 512 bytes, four 128-byte lines, where a float's
 * moves 128: a quarter of the requests for the L1 and the LSU to issue and
 * track, a thread's loads in 2 instructions. The Hopper notes name 16-byte
 * accesses among the habits that pay for memory-bound code. Nothing else
 * changes from l9-hstrips: 512 threads, 16 KB of shared memory, four blocks
 * an SM, the same 64 KB of loads asked for at once an SM, the same order
 * (l9-h4w asks for 1.5 times as much on top).
 *
 * The shared tiles are unpadded (a float4 store needs 16-byte alignment,
 * which a row of 65 floats breaks); instead float4 q of row i is stored at
 * q ^ ((i / 4) % 8), so that the 8 float4s a quarter-warp stores fall in 32
 * banks, and the column reads that build a transposed float4 (4 floats from
 * 4 rows; a warp on 4 columns, 4 lanes a column, of 8 groups of rows) fall
 * in 32 banks too: one pass each (make lab9 profile GPU=emu: 1.0 pass a
 * 128 bytes for every shared access, 16 sectors a float4 request).
 */
#include "lab.h"

#include <stddef.h>
#include <stdint.h>

#ifndef TILE_DIM
#define TILE_DIM 64
#endif
#ifndef BLOCK_ROWS
#define BLOCK_ROWS 8
#endif
#define HALF (TILE_DIM / 2)
/* Grid rows of the fold a strip: the pairs in flight, ~264 on an H100, as STRIP x 33. */
#define STRIP 8

static_assert(TILE_DIM % 2 == 0 && HALF % BLOCK_ROWS == 0,
              "l9-h4: BLOCK_ROWS must divide TILE_DIM / 2 (a half tile is TILE_DIM / 2 rows)");

typedef float half_a_t[HALF][TILE_DIM + 1]; /* HALF rows of TILE_DIM: part of tile (R, C) */
typedef float half_b_t[TILE_DIM][HALF + 1]; /* TILE_DIM rows of HALF: its mirror in (C, R) */

/* mat[r][c]: untested with int indices on whole pairs (r * n + c < n * n
 * fits an int for the contract's n), tested and size_t at the edges. */
template <bool WHOLE>
__device__ static void load(float *to, const float *mat, int n, int r, int c)
{
    if (WHOLE)
        *to = mat[r * n + c];
    else if (r < n && c < n)
        *to = mat[(size_t)r * n + c];
}

template <bool WHOLE>
__device__ static void store(float *mat, int n, int r, int c, const float *from)
{
    if (WHOLE)
        mat[r * n + c] = *from;
    else if (r < n && c < n)
        mat[(size_t)r * n + c] = *from;
}

/* Rows r0.. r0 + HALF, columns c0.. c0 + TILE_DIM (in a) and their mirror,
 * rows c0.., columns r0.. (in b), swapped. For b the block's threads are
 * laid out HALF wide, 2 BLOCK_ROWS tall, so a warp still moves one row. */
template <bool WHOLE>
__device__ static void swap_halves(float *mat, int n, int r0, int c0, half_a_t a, half_b_t b)
{
    int x = threadIdx.x, y = threadIdx.y, t = y * TILE_DIM + x, bx = t % HALF, by = t / HALF;
#pragma unroll
    for (int j = 0; j < HALF; j += BLOCK_ROWS)
        load<WHOLE>(&a[y + j][x], mat, n, r0 + y + j, c0 + x);
#pragma unroll
    for (int j = 0; j < TILE_DIM; j += 2 * BLOCK_ROWS)
        load<WHOLE>(&b[by + j][bx], mat, n, c0 + by + j, r0 + bx);
    __syncthreads();
#pragma unroll
    for (int j = 0; j < HALF; j += BLOCK_ROWS)
        store<WHOLE>(mat, n, r0 + y + j, c0 + x, &b[x][y + j]);
#pragma unroll
    for (int j = 0; j < TILE_DIM; j += 2 * BLOCK_ROWS)
        store<WHOLE>(mat, n, c0 + by + j, r0 + bx, &a[bx][by + j]);
}

/* Tile (R, R) transposed where it is: its rows 0..HALF into a, its rows
 * HALF..TILE_DIM into b transposed (b[k][i] is row HALF + i, column k), so
 * that column k of the tile is a[0..HALF][k] then b[k][0..HALF]. */
template <bool WHOLE>
__device__ static void transpose_diagonal(float *mat, int n, int r0, half_a_t a, half_b_t b)
{
    int x = threadIdx.x, y = threadIdx.y;
#pragma unroll
    for (int j = 0; j < HALF; j += BLOCK_ROWS) {
        load<WHOLE>(&a[y + j][x], mat, n, r0 + y + j, r0 + x);
        load<WHOLE>(&b[x][y + j], mat, n, r0 + HALF + y + j, r0 + x);
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        store<WHOLE>(mat, n, r0 + y + j, r0 + x, x < HALF ? &a[x][y + j] : &b[y + j][x - HALF]);
}

/* Launch slot s as slot (x, y) of the fold's grid of W x H: strips of STRIP
 * grid rows, one after another, each walked down its columns. */
__device__ static void strip_slot(int s, int W, int H, int *x, int *y)
{
    int per = STRIP * W, strip = s / per, in = s - strip * per, rows = min(STRIP, H - strip * STRIP);
    *x = in / rows;
    *y = strip * STRIP + in % rows;
}

__global__ void transpose_half_pairs(float *mat, int n)
{
    __shared__ half_a_t a;
    __shared__ half_b_t b;

    /* Slot (x, y) of the fold: row y of the triangle of T tiles a side
     * (pairs (y, y..T-1)), then its row T-1-y (pairs (T-1-y, T-1-y..T-1)). */
    int tiles = (n + TILE_DIM - 1) / TILE_DIM, h = blockIdx.x & 1, x, y;
    strip_slot(blockIdx.x >> 1, tiles + 1, (tiles + 1) / 2, &x, &y);
    int R = y, C = y + x;
    if (x >= tiles - y) {
        R = tiles - 1 - y, C = x - 1;
        if (R == y) /* odd T: the middle row of the triangle, done by the first half */
            return;
    }
    int r0 = R * TILE_DIM, c0 = C * TILE_DIM, whole = c0 + TILE_DIM <= n; /* R <= C: (C, R) decides */
    if (R == C) {
        if (h) /* the diagonal tile has no halves: block 0 moves it whole */
            return;
        if (whole)
            transpose_diagonal<true>(mat, n, r0, a, b);
        else
            transpose_diagonal<false>(mat, n, r0, a, b);
        return;
    }
    if (whole)
        swap_halves<true>(mat, n, r0 + h * HALF, c0, a, b);
    else
        swap_halves<false>(mat, n, r0 + h * HALF, c0, a, b);
}

/* ------------------------------------------------------------------ */
/* The 16-byte path: tiles of 64, half pairs of 32 x 64 and 64 x 32.    */

#define VT 64          /* the tile */
#define VH (VT / 2)    /* the half */
#ifndef VTHREADS
#define VTHREADS 512   /* threads a block: 64 x 8, as the scalar kernel's */
#endif
/* Float4s a thread moves of each half: a half is 512 float4s. */
#define VPER (VH * VT / 4 / VTHREADS)

static_assert(VPER >= 1 && VH * VT / 4 % VTHREADS == 0, "l9-h4: VTHREADS must divide 512");

/* Threads an SM holds: 2048 on sm_80 and sm_90, 1536 on sm_86 and sm_89,
 * 1024 on sm_75; ptxas refuses a __launch_bounds__ asking for more (the
 * programming guide's way of setting it by __CUDA_ARCH__, as l9-async). */
#if defined(__CUDA_ARCH__) && (__CUDA_ARCH__ == 860 || __CUDA_ARCH__ == 890)
#define SM_THREADS 1536
#elif defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#define SM_THREADS 1024
#else
#define SM_THREADS 2048
#endif

/* Float k of row i of a region `width` floats wide (64 or 32), its float4s
 * permuted along the row: float4 q of row i sits at q ^ (i / 4 % 8), and
 * in odd rows at that ^ 4. Column reads of 4 rows 4p..4p+3 (p over 8
 * groups) then meet 8 different float4 places; stores of 4 float4s of two
 * neighbouring rows (l9-h4w's 64 x 32 mirror) meet 8 too. */
__device__ static int swz(int i, int k, int width)
{
    return i * width + (((k >> 2) ^ (((i >> 2) ^ ((i & 1) << 2)) & 7)) << 2) + (k & 3);
}

/* Where a thread's j-th float4 of a half lies: its row and float4, so that
 * its VPER float4s of a region lie in one row a fixed distance apart: one
 * address for them all, the others at immediate offsets from it, where
 * rows apart would take an address each. wide: the 32 x 64 half (16
 * float4s a row), else the 64 x 32 one (8). */
__device__ static void place(int j, bool wide, int *i, int *q)
{
    int across = (wide ? 16 : 8) / VPER; /* threads along a row */
    *i = threadIdx.x / across;
    *q = threadIdx.x % across + j * across;
}

template <bool WHOLE>
__device__ static void load4(float4 *to, const float *mat, int n, int r, int c)
{
    if (WHOLE)
        *to = *(const float4 *)&mat[r * n + c];
    else if (r < n && c < n) /* n % 4 == 0: a float4 lies wholly inside or outside */
        *to = *(const float4 *)&mat[(size_t)r * n + c];
}

/* mat[r][c..c+3] = rows row..row+3 of a shared region at column k, as laid
 * out by swz: a column of the region is a row of its transpose. */
template <bool WHOLE>
__device__ static void store4(float *mat, int n, int r, int c, const float *s, int row, int k, int width)
{
    if (!WHOLE && !(r < n && c < n))
        return;
    float4 v = make_float4(s[swz(row, k, width)], s[swz(row + 1, k, width)],
                           s[swz(row + 2, k, width)], s[swz(row + 3, k, width)]);
    if (WHOLE)
        *(float4 *)&mat[r * n + c] = v;
    else
        *(float4 *)&mat[(size_t)r * n + c] = v;
}

/* Rows r0.. r0 + VH, columns c0.. c0 + VT into sa, their mirror (rows c0..,
 * columns r0..) into sb, then each written over the other. Loads as place
 * says; stores: float4 f of a half, a warp on 8 float4s of 4 rows (row
 * f / 8 of a 64 x 32 region, or row f / 8 % 32, float4 f % 8 + 8 (f / 256)
 * of a 32 x 64 one). */
template <bool WHOLE>
__device__ static void swap_halves4(float *mat, int n, int r0, int c0, float *sa, float *sb)
{
    float4 va[VPER], vb[VPER]; /* every load issued before the first shared store */
#pragma unroll
    for (int j = 0; j < VPER; j++) {
        int ia, qa, ib, qb;
        place(j, true, &ia, &qa), place(j, false, &ib, &qb);
        load4<WHOLE>(&va[j], mat, n, r0 + ia, c0 + 4 * qa);
        load4<WHOLE>(&vb[j], mat, n, c0 + ib, r0 + 4 * qb);
    }
#pragma unroll
    for (int j = 0; j < VPER; j++) {
        int ia, qa, ib, qb;
        place(j, true, &ia, &qa), place(j, false, &ib, &qb);
        if (WHOLE || (r0 + ia < n && c0 + 4 * qa < n))
            *(float4 *)&sa[swz(ia, 4 * qa, VT)] = va[j];
        if (WHOLE || (c0 + ib < n && r0 + 4 * qb < n))
            *(float4 *)&sb[swz(ib, 4 * qb, VH)] = vb[j];
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < VPER; j++) {
        int f = threadIdx.x + j * VTHREADS;
        int i = (f >> 3) & (VH - 1), p = (f & 7) + 8 * (f >> 8); /* float4 p of row i of (R, C)'s half: column i of sb */
        store4<WHOLE>(mat, n, r0 + i, c0 + 4 * p, sb, 4 * p, i, VH);
        int k = f >> 3, q = f & 7; /* float4 q of row k of the mirror: column k of sa */
        store4<WHOLE>(mat, n, c0 + k, r0 + 4 * q, sa, 4 * q, k, VT);
    }
}

/* Tile (R, R) where it is: rows 0..VH into sa, rows VH..VT into sb, both
 * laid out 64 wide; column k of the tile is column k of sa then of sb. */
template <bool WHOLE>
__device__ static void transpose_diagonal4(float *mat, int n, int r0, float *sa, float *sb)
{
    float4 vt[VPER], vb[VPER];
#pragma unroll
    for (int j = 0; j < VPER; j++) {
        int i, q;
        place(j, true, &i, &q);
        load4<WHOLE>(&vt[j], mat, n, r0 + i, r0 + 4 * q);
        load4<WHOLE>(&vb[j], mat, n, r0 + VH + i, r0 + 4 * q);
    }
#pragma unroll
    for (int j = 0; j < VPER; j++) {
        int i, q;
        place(j, true, &i, &q);
        if (WHOLE || (r0 + i < n && r0 + 4 * q < n))
            *(float4 *)&sa[swz(i, 4 * q, VT)] = vt[j];
        if (WHOLE || (r0 + VH + i < n && r0 + 4 * q < n))
            *(float4 *)&sb[swz(i, 4 * q, VT)] = vb[j];
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < VPER; j++) {
        int f = threadIdx.x + j * VTHREADS, k = f >> 3, q = f & 7;
        store4<WHOLE>(mat, n, r0 + k, r0 + 4 * q, sa, 4 * q, k, VT);
        store4<WHOLE>(mat, n, r0 + k, r0 + VH + 4 * q, sb, 4 * q, k, VT);
    }
}

__global__ void __launch_bounds__(VTHREADS, SM_THREADS / VTHREADS) transpose_half_pairs4(float *mat, int n)
{
    __shared__ __align__(16) float sa[VH * VT]; /* the half of (R, C), or the diagonal tile's top */
    __shared__ __align__(16) float sb[VT * VH]; /* its mirror, or the diagonal tile's bottom */

    int tiles = (n + VT - 1) / VT, h = blockIdx.x & 1, x, y;
    strip_slot(blockIdx.x >> 1, tiles + 1, (tiles + 1) / 2, &x, &y);
    int R = y, C = y + x;
    if (x >= tiles - y) {
        R = tiles - 1 - y, C = x - 1;
        if (R == y) /* odd T: the middle row of the triangle, done by the first half */
            return;
    }
    int r0 = R * VT, c0 = C * VT, whole = c0 + VT <= n; /* R <= C: (C, R) decides */
    if (R == C) {
        if (h) /* the diagonal tile has no halves: block 0 moves it whole */
            return;
        if (whole)
            transpose_diagonal4<true>(mat, n, r0, sa, sb);
        else
            transpose_diagonal4<false>(mat, n, r0, sa, sb);
        return;
    }
    if (whole)
        swap_halves4<true>(mat, n, r0 + h * VH, c0, sa, sb);
    else
        swap_halves4<false>(mat, n, r0 + h * VH, c0, sa, sb);
}

void transpose_inplace(float *d_mat, int n)
{
    if (n % 4 == 0 && (uintptr_t)d_mat % sizeof(float4) == 0) {
        int tiles = (n + VT - 1) / VT;
        transpose_half_pairs4<<<2 * (tiles + 1) * ((tiles + 1) / 2), VTHREADS>>>(d_mat, n);
        return;
    }
    int tiles = (n + TILE_DIM - 1) / TILE_DIM;
    transpose_half_pairs<<<2 * (tiles + 1) * ((tiles + 1) / 2), dim3(TILE_DIM, BLOCK_ROWS)>>>(d_mat, n);
}
