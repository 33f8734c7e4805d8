/*
 * Correctness of C = A B: every element against a double-precision product,
 * within a tolerance that grows with k and with the magnitudes summed.
 *
 * A float sum of k products, in any order, with or without fused
 * multiply-adds, is within about k u sum |a_ip b_pj| of the exact one
 * (u = 2^-24, the unit round-off; Higham, Accuracy and Stability of
 * Numerical Algorithms, 3.1). The tolerance is twice that, plus four
 * round-offs: it fails a kernel that drops or repeats a product, never
 * one that only sums in another order.
 */
#include "check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch.h"

#define UNIT_ROUNDOFF (1.0 / 16777216.0)

/* Uniform in [-1, 1): products of these never overflow or underflow. */
static void fill_uniform(float *p, size_t n, uint64_t seed)
{
    uint64_t state = seed;
    for (size_t i = 0; i < n; i++)
        p[i] = (float)((double)(tl_rand_next(&state) >> 11) / 4503599627370496.0 - 1.0);
}

double tl_matmul_tolerance(int k, double bound)
{
    return (2.0 * k + 4.0) * UNIT_ROUNDOFF * bound + 1e-37;
}

typedef struct {
    size_t wrong, unwritten, nan, from_margin, from_shared;
    size_t worst;        /* index of the element furthest outside its tolerance */
    double worst_ratio;  /* its error over its tolerance */
    int transposed;      /* every element matches C transposed */
    /* The blocks wholly inside C, where the launch gives each thread one element in t x t
     * blocks (tile > 0): their elements, the wrong ones, those from shared memory nobody
     * wrote, and whether that was every element but the one of each block's last thread,
     * which came out right. */
    size_t whole, whole_wrong, whole_shared;
    int all_but_last_threads;
} matmul_scan;

static void scan(matmul_scan *sc, const float *c, const double *exact, const double *bound,
                 tl_shape s, int tile)
{
    int m = s.rows, n = s.cols, k = s.depth;
    /* The rows and columns of C that whole blocks cover. */
    size_t whole_rows = tile > 0 ? (size_t)(m / tile * tile) : 0;
    size_t whole_cols = tile > 0 ? (size_t)(n / tile * tile) : 0;
    memset(sc, 0, sizeof *sc);
    sc->transposed = m == n && m > 1;
    sc->all_but_last_threads = 1;
    for (size_t i = 0; i < (size_t)m * n; i++) {
        double tol = tl_matmul_tolerance(k, bound[i]);
        double got = c[i];
        uint32_t bits = tl_float_bits(c[i]);
        double ratio = got == got ? fabs(got - exact[i]) / tol : INFINITY;
        if (sc->transposed) {
            size_t t = (i % n) * n + i / n;
            double ttol = tl_matmul_tolerance(k, bound[t]);
            sc->transposed = got == got && fabs(got - exact[t]) <= ttol;
        }
        if (i / n < whole_rows && i % n < whole_cols) {
            int last = i / n % tile == (size_t)tile - 1 && i % n % tile == (size_t)tile - 1;
            int shared = bits == TL_SHARED_POISON_BITS;
            sc->whole++;
            sc->whole_wrong += ratio > 1.0;
            sc->whole_shared += shared;
            if (last ? ratio > 1.0 : !shared)
                sc->all_but_last_threads = 0;
        }
        if (ratio <= 1.0)
            continue;
        sc->wrong++;
        sc->unwritten += bits == TL_POISON_BITS;
        sc->nan += got != got && bits != TL_POISON_BITS;
        /* On the CPU a NaN keeps its payload through arithmetic: it says where it came from. */
        sc->from_margin += bits == TL_MARGIN_BITS;
        sc->from_shared += bits == TL_SHARED_POISON_BITS;
        if (sc->wrong == 1 || ratio > sc->worst_ratio) {
            sc->worst = i;
            sc->worst_ratio = ratio;
        }
    }
    sc->transposed = sc->transposed && sc->wrong;
}

static void exact_product(double *exact, double *bound, const float *a, const float *b, tl_shape s)
{
    size_t m = (size_t)s.rows, n = (size_t)s.cols, k = (size_t)s.depth;
    memset(exact, 0, m * n * sizeof *exact);
    memset(bound, 0, m * n * sizeof *bound);
    for (size_t i = 0; i < m; i++)
        for (size_t p = 0; p < k; p++) {
            double x = a[i * k + p], ax = fabs(x);
            const float *brow = b + p * n;
            double *erow = exact + i * n, *brow_bound = bound + i * n;
            for (size_t j = 0; j < n; j++) {
                erow[j] += x * brow[j];
                brow_bound[j] += ax * fabs((double)brow[j]);
            }
        }
}

/*
 * The first launch, where it gives each thread one element of C in square
 * blocks of t x t threads, t > 1, and its grid is C's n columns (x) and m
 * rows (y) rounded up to whole blocks: a tiled kernel's tile is then its
 * block, and the hints may speak of the blocks wholly inside C. NULL where
 * the launch says otherwise (a thread of several elements, as in a
 * register-blocked kernel).
 */
static const tl_launch *element_launch(tl_shape s, int on_gpu)
{
    const tl_launch *l = on_gpu && tl_launch_count() > 0 ? tl_launch_get(0) : NULL;
    unsigned t = l ? l->block[0] : 0;
    if (!l || t < 2 || l->block[1] != t || l->block[2] != 1 || l->grid[2] != 1 ||
        l->grid[0] != ((unsigned)s.cols + t - 1) / t || l->grid[1] != ((unsigned)s.rows + t - 1) / t)
        return NULL;
    return l;
}

/*
 * Elements of C from shared memory nobody wrote: a thread read a tile
 * element no thread had stored. Three mistakes do that, and on the
 * emulator, whose threads run one after another in the order of their
 * index, each leaves its own pattern in the blocks wholly inside C (a
 * launch of one thread an element, tile > 0, says which those are):
 *   - threads outside C that return or skip their loads before the
 *     barrier: only blocks that hang over C's edge hold such threads, so
 *     every block wholly inside C comes out right;
 *   - a barrier missing between the loads and the products: every thread
 *     reads its row of A's tile and column of B's before the threads after
 *     it stored theirs, all but the block's last one, whose element alone
 *     comes out right;
 *   - a last tile along k left unstored past k: every element's sum reads
 *     it, and none comes out right.
 * The emulator, the one backend whose shared memory holds such NaN, checks
 * races as racecheck does: a missing barrier, where another thread stores
 * the element after it was read with no barrier between, fails the launch
 * as "a race on shared memory" before the product is checked. Only a race
 * the check does not see (harness/emu/README.md, its limits) leaves the
 * second pattern. Where no block lies wholly inside C, the other two leave
 * every element NaN: the hint says so, names both, and says why it does
 * not name the barrier.
 */
static void hint_shared_tiles(char *msg, size_t len, const matmul_scan *sc, tl_shape s, int tile)
{
    int m = s.rows, n = s.cols, k = s.depth;
    if (sc->whole && sc->whole_wrong == 0) {
        const char *edge = m % tile && n % tile ? "bottom and right edges"
                           : m % tile           ? "bottom edge"
                                                : "right edge";
        tl_appendf(msg, len,
                   "  hint: %zu element(s) come from shared memory nobody had written, all in the "
                   "blocks that hang over C's %s (m = %d, n = %d, blocks of %d x %d threads), "
                   "while every block wholly inside C came out right: the barrier works where "
                   "every thread of a block lies inside C. At the edge, the threads outside C "
                   "(row >= m or col >= n) left their part of the tiles unstored, and the threads "
                   "inside C read it. Every thread must load its element of both tiles, 0.0f where "
                   "it lies outside A or B, and reach each __syncthreads(): a thread that returns "
                   "early (if (row >= m || col >= n) return;), or loads only inside the store's "
                   "bounds test, leaves holes in the tiles. Guard only the store to C.\n",
                   sc->from_shared, edge, m, n, tile, tile);
        return;
    }
    if (sc->whole && sc->all_but_last_threads) {
        tl_appendf(msg, len,
                   "  hint: in the blocks wholly inside C, every element comes from shared memory "
                   "nobody had written but the one of each block's last thread (%d, %d), which "
                   "came out right: each thread read the tiles before the threads after it had "
                   "stored their parts, and only the last found them full. No thread of those "
                   "blocks lies outside C, so no bounds test left holes there%s. Put a "
                   "__syncthreads() between loading the tiles and the loop that reads them (and "
                   "another after that loop, before the next tiles are loaded over them).\n",
                   tile - 1, tile - 1,
                   k % tile ? "; nor is the tile past k the cause, since a tile unstored past k "
                              "leaves no element right" : "");
        return;
    }
    if (sc->whole && sc->whole_shared == sc->whole && k % tile) {
        tl_appendf(msg, len,
                   "  hint: every element of the blocks wholly inside C comes from shared memory "
                   "nobody had written, and k = %d is not a multiple of your tiles' side (%d): the "
                   "last tile along k reaches past k, past A's last column and B's last row. The "
                   "product reads all %d of its rows and columns, so each of their elements must "
                   "be stored, 0.0f where it lies past k: 0 times shared memory nobody wrote is "
                   "not 0.\n",
                   k, tile, tile);
        return;
    }
    tl_appendf(msg, len,
               "  hint: %zu element(s) come from shared memory nobody had written: no thread had "
               "stored that tile element when it was read (one stored after it with no barrier "
               "between would have been named as a race on shared memory): the loads left it "
               "out. Threads that return, or skip their loads, before the barrier do this (a "
               "thread outside C still loads its part of both tiles, 0.0f outside A or B; only "
               "the store is guarded), and so do loads whose bounds or indices miss elements of "
               "the tile",
               sc->from_shared);
    if (tile && k % tile)
        tl_appendf(msg, len, "; with k = %d not a multiple of your tiles' side (%d), a last tile "
                             "along k not stored past k (0.0f there: 0 times shared memory nobody "
                             "wrote is not 0)", k, tile);
    else if (!tile)
        tl_appendf(msg, len, "; where k is not a multiple of the tiles' side, a last tile along k "
                             "not stored past k (0.0f there)");
    if (tile && !sc->whole) {
        char below[64];
        if (m < tile && n < tile)
            snprintf(below, sizeof below, "m = %d and n = %d are", m, n);
        else
            snprintf(below, sizeof below, "%c = %d is", m < tile ? 'm' : 'n', m < tile ? m : n);
        tl_appendf(msg, len, ". At this shape every block of your grid hangs over C's edge (%s "
                             "below your blocks' side, %d), where these mistakes leave the same "
                             "NaN; a shape with blocks wholly inside C tells them apart.\n",
                   below, tile);
    } else {
        tl_appendf(msg, len, ".\n");
    }
}

/* Blocks of `per` elements each that `size` elements need, rounded up. */
static unsigned blocks_for(int size, unsigned per)
{
    return ((unsigned)size + per - 1) / per;
}

/*
 * What each block of launch l covers of C, px columns by py rows, read off
 * the output where its x and y cannot both be taken from the block: one
 * element a thread covers block.x by block.y (lab 7's kernels), but a
 * register-blocked one covers a tile of several elements a thread (lab 8's).
 * A side with a tail shows its coverage exactly, the part written over the
 * blocks that wrote it; the other side is taken as covering alike (a square
 * tile, or as many elements a thread). Candidates, *n of them, at most 3.
 */
static void coverages(const tl_launch *l, tl_shape s, int tail_rows, int tail_cols, unsigned px[3],
                      unsigned py[3], int *n)
{
    unsigned bx = l->block[0], by = l->block[1], gx = l->grid[0], gy = l->grid[1];
    unsigned wy = (unsigned)(s.rows - tail_rows), wx = (unsigned)(s.cols - tail_cols);
    unsigned cy = tail_rows && gy && wy % gy == 0 ? wy / gy : 0,
             cx = tail_cols && gx && wx % gx == 0 ? wx / gx : 0;
    *n = 0;
    px[*n] = bx, py[*n] = by, (*n)++;
    if (cx && cy)
        px[*n] = cx, py[*n] = cy, (*n)++;
    else if (cx || cy) {
        unsigned c = cx ? cx : cy;
        px[*n] = c, py[*n] = c, (*n)++; /* a square tile */
        if (cy && cy % by == 0)
            px[*n] = bx * (cy / by), py[*n] = cy, (*n)++; /* as many elements a thread */
        else if (cx && cx % bx == 0)
            px[*n] = cx, py[*n] = by * (cx / bx), (*n)++;
    }
}

/*
 * The last rows and columns of C never written: the launch says whether its
 * grid stops short of them, has its x and y swapped (x counted over m), or
 * reaches past them, so that the bounds test or the indices stop short.
 * Read so where the blocks of the grid cover whole tiles of C (blocks times
 * what each covers reach exactly where the holes begin, or past C), in one
 * of the ways a block may cover C (coverages); otherwise the usual causes.
 */
static void hint_tail(char *msg, size_t len, tl_shape s, int tail_rows, int tail_cols, int tiled,
                      int on_gpu, const tl_lab_words *w)
{
    int m = s.rows, n = s.cols;
    const tl_launch *l = on_gpu && tl_launch_count() > 0 ? tl_launch_get(0) : NULL;
    tl_appendf(msg, len, "  hint: the last %d row(s) and %d column(s) of C were never written", tail_rows,
               tail_cols);
    if (l && l->block[0] && l->block[1] && l->block[2] == 1 && l->grid[2] == 1) {
        unsigned bx = l->block[0], by = l->block[1], gx = l->grid[0], gy = l->grid[1];
        unsigned pxs[3], pys[3];
        int ways, way_stops = -1, way_past = -1;
        coverages(l, s, tail_rows, tail_cols, pxs, pys, &ways);
        for (int i = 0; i < ways; i++) {
            long rows = (long)gy * pys[i], cols = (long)gx * pxs[i]; /* what the grid reaches */
            int stops = (!tail_rows || rows == m - tail_rows) && (!tail_cols || cols == n - tail_cols);
            /* Swapped: as many blocks in x as m needs, in y as n needs, where the right way round
             * would give other counts. */
            int swapped = gx == blocks_for(m, pxs[i]) && gy == blocks_for(n, pys[i]) &&
                          !(gx == blocks_for(n, pxs[i]) && gy == blocks_for(m, pys[i]));
            if (stops && swapped) {
                unsigned px = pxs[i], py = pys[i];
                char covers[160] = "", grid[160];
                if (px != bx || py != by)
                    snprintf(covers, sizeof covers, ", each block writing %u x %u elements of C "
                             "(%u columns, %u rows),", px, py, px, py);
                if (px == bx && py == by)
                    snprintf(grid, sizeof grid, "dim3 grid((n + %s - 1) / %s, (m + %s - 1) / %s)",
                             w->tile, w->tile, w->tile, w->tile);
                else
                    snprintf(grid, sizeof grid, "dim3 grid((n + %u - 1) / %u, (m + %u - 1) / %u), "
                             "with the %u columns and %u rows of C a block covers", px, px, py, py,
                             px, py);
                tl_appendf(msg, len,
                           ", and your grid, (%u, %u) blocks of (%u, %u) threads%s has its x and y "
                           "swapped: %u blocks in x, as many as C's m = %d rows need, and %u in y, "
                           "as many as its n = %d columns need. x runs along a row of C, across its "
                           "n columns (blockIdx.x picks the block's columns), and y down its m "
                           "rows: %s. As it is, the grid reaches %ld of C's %d rows and %ld of its "
                           "%d columns; both counts are rounded up, so rounding is not what falls "
                           "short.\n",
                           gx, gy, bx, by, covers[0] ? covers : ",", gx, m, gy, n, grid,
                           rows < m ? rows : m, m, cols < n ? cols : n, n);
                return;
            }
            if (stops && way_stops < 0)
                way_stops = i;
            if (rows >= m && cols >= n && way_past < 0)
                way_past = i;
        }
        /* One element a thread first (lab 7's), where it stops short or reaches past. */
        if (way_stops == 0) {
            long rows = (long)gy * by, cols = (long)gx * bx;
            tl_appendf(msg, len,
                       ": your grid, (%u, %u) blocks of (%u, %u) threads, stops short of them, "
                       "reaching %ld of C's m = %d rows (y) and %ld of its n = %d columns (x). "
                       "Round the number of blocks up, (n + %s - 1) / %s in x and "
                       "(m + %s - 1) / %s in y, and check row < m && col < n "
                       "before the store.\n",
                       gx, gy, bx, by, rows, m, cols, n, w->tile, w->tile, w->tile, w->tile);
            return;
        }
        if (way_past == 0) {
            tl_appendf(msg, len,
                       ", yet your grid, (%u, %u) blocks of (%u, %u) threads, reaches past them, "
                       "so the grid is not what falls short: their threads ran and stored nothing. "
                       "The bounds test before the store stops them (row < m && col < n; not "
                       "row < m - 1), or their row and col are computed wrong (row = blockIdx.y * "
                       "blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x).\n",
                       gx, gy, bx, by);
            return;
        }
        if (way_stops >= 0) {
            unsigned px = pxs[way_stops], py = pys[way_stops];
            tl_appendf(msg, len,
                       ". What C's written part suggests: your grid, (%u, %u) blocks of (%u, %u) "
                       "threads, each block writing %u x %u elements of C (%u columns, %u rows), "
                       "stops short of them, reaching %ld of C's m = %d rows (y) and %ld of its n = "
                       "%d columns (x). Count the blocks from what each covers, rounded up: (n + %u "
                       "- 1) / %u in x and (m + %u - 1) / %u in y. If your blocks cover more than "
                       "that, the grid reaches them and the bounds test before the store stops "
                       "their threads (row < m && col < n, for each element a thread writes).\n",
                       gx, gy, bx, by, px, py, px, py, (long)gy * py, m, (long)gx * px, n, px, px,
                       py, py);
            return;
        }
    }
    tl_appendf(msg, len,
               ": the grid must cover m and n (its blocks, times the rows and columns of C each "
               "covers, reach them: rounded up, x counting n's columns and y m's rows), and each "
               "store must be let through its bounds test (row < m && col < n).\n");
    (void)tiled;
}

static int by_value(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/*
 * Wrong elements whose error is not the product's: each off by exactly a
 * value another element of C came out with (an accumulator that starts
 * where another thread's sum ended, as a register or stack slot left
 * uninitialised does), or all off by one same offset (a sum that starts at
 * a constant). Any index mistake makes a sum of other products instead,
 * which neither describes. 1 when it told so.
 */
static int hint_accumulator(char *msg, size_t len, const float *c, const double *exact,
                            const double *bound, tl_shape s, size_t wrong)
{
    size_t mn = (size_t)s.rows * s.cols, other = 0, same = 0, first = mn, values = 0;
    double *got = malloc(mn * sizeof *got), offset0 = 0;
    if (!got)
        return 0;
    for (size_t i = 0; i < mn; i++)
        if (c[i] == c[i])
            got[values++] = c[i];
    qsort(got, values, sizeof *got, by_value);
    for (size_t i = 0; i < mn; i++) {
        double d = (double)c[i] - exact[i], tol = tl_matmul_tolerance(s.depth, bound[i] + fabs(d));
        if (c[i] != c[i] || fabs(d) <= tl_matmul_tolerance(s.depth, bound[i]))
            continue;
        if (first == mn)
            first = i, offset0 = d;
        same += fabs(d - offset0) <= tol;
        /* the nearest value of C to d, other than this element's own */
        size_t lo = 0, hi = values;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (got[mid] < d - tol)
                lo = mid + 1;
            else
                hi = mid;
        }
        other += lo < values && got[lo] <= d + tol && fabs(exact[i]) > tol;
    }
    free(got);
    if (wrong >= 2 && same == wrong)
        tl_appendf(msg, len,
                   "  hint: every wrong element is off by the same %.9g, whatever its row, column "
                   "and products: each sum started at %.9g instead of 0. The accumulator is set "
                   "before the loop over p, to 0 (float sum = 0.0f;), and nothing else is added "
                   "to it.\n",
                   offset0, offset0);
    else if (wrong >= 2 && 2 * other >= wrong)
        tl_appendf(msg, len,
                   "  hint: %zu of the %zu wrong elements are off by exactly a value another "
                   "element of C came out with (C[%zu][%zu] is %.9g over): each of those sums "
                   "started where another sum had ended, not at 0, which an accumulator "
                   "declared without a value does (float sum; holds what its register or stack "
                   "slot held before), and so does one set to 0 once where a thread computes "
                   "element after element or tile after tile of C (a grid-stride or persistent "
                   "loop over tiles: its second tile starts where its first ended). The products "
                   "are right: set the accumulator to 0 before each element's loop over p, "
                   "float sum = 0.0f;.\n",
                   other, wrong, first / (size_t)s.cols, first % (size_t)s.cols, offset0);
    else
        return 0;
    return 1;
}

/*
 * Each thread's tile of C stored transposed within itself: in every t x t
 * block of C (from C's corner), C[r][c] holds the product of the element
 * at the block's row r0 + (c - c0), column c0 + (r - r0), what a thread
 * that computes a register tile acc[i][j] and stores it at [j][i] leaves.
 * A wrong element whose transposed place lies past C's edge holds 0 there,
 * the sum of the zeros a tile holds past the edge. Tried for t of 2 to 16,
 * the smallest that accounts for every wrong element. 1 when it told so.
 */
static int hint_tile_transposed(char *msg, size_t len, const float *c, const double *exact,
                                const double *bound, tl_shape s, size_t wrong)
{
    int m = s.rows, n = s.cols;
    for (int t = 2; t <= 16; t *= 2) {
        size_t inside = 0, outside = 0, missed = 0;
        for (size_t i = 0; i < (size_t)m * n && !missed; i++) {
            int r = (int)(i / (size_t)n), col = (int)(i % (size_t)n);
            if (c[i] == c[i] && fabs((double)c[i] - exact[i]) <= tl_matmul_tolerance(s.depth, bound[i]))
                continue;
            int r0 = r - r % t, c0 = col - col % t, tr = r0 + (col - c0), tc = c0 + (r - r0);
            size_t j = (size_t)tr * n + tc;
            if (tr >= m || tc >= n) {
                outside += c[i] == 0.0f;
                missed += c[i] != 0.0f;
            } else if (c[i] == c[i] && fabs((double)c[i] - exact[j]) <= tl_matmul_tolerance(s.depth, bound[j]))
                inside++;
            else
                missed++;
        }
        if (missed || inside + outside != wrong)
            continue;
        char count[160];
        if (inside)
            snprintf(count, sizeof count, "for %zu of the %zu wrong elements, and the other %zu are "
                     "0, where that place lies past C's edge", inside, wrong, outside);
        else
            snprintf(count, sizeof count, "and each of the %zu wrong elements is 0, where that "
                     "place lies past C's edge", wrong);
        tl_appendf(msg, len,
                   "  hint: C holds each %d x %d block of the product transposed within itself: "
                   "C[r][c] is what belongs at [r0 + (c - c0)][c0 + (r - r0)] of its block (r0, c0 "
                   "its first row and column), %s. The products are right, and each thread stores "
                   "its %d x %d tile with the tile's two indices swapped: acc[i][j], the thread's "
                   "row i and column j, belongs at C[(its first row + i) * n + its first column + "
                   "j], with the i and j of the product that computed it.\n",
                   t, t, count, t, t);
        return 1;
    }
    return 0;
}

/*
 * Every element of C holds the NaN the harness put there before the call.
 * Where a kernel ran, it stored nothing, or stored what it computed from C's
 * old value: a kernel that reads C before writing it (C = alpha A B + beta C,
 * even with beta = 0, as public SGEMM kernels are written: 0 times NaN is
 * NaN) keeps that NaN, bit for bit where the arithmetic is the CPU's (the
 * emulator's). A student's adaptation of such a kernel was told "C was not
 * written at all. Is the kernel implemented and launched?" (2026-11-29).
 */
static void hint_nothing_written(char *msg, size_t len, int on_gpu)
{
    int launches = on_gpu ? tl_launch_count() : 0;
    if (on_gpu && launches == 0) {
        tl_appendf(msg, len, "  hint: C was not written at all, and no kernel was launched: "
                             "launch yours with kernel<<<grid, block>>>(...).\n");
        return;
    }
    if (on_gpu) {
        const tl_launch *l = tl_launch_get(0);
        tl_appendf(msg, len, "  hint: every element of C holds what the harness put there before "
                             "the call (a NaN), yet %s ran (%s%s, a grid of (%u, %u) blocks)",
                   launches > 1 ? "kernels" : "a kernel", launches > 1 ? "the first " : "",
                   l->kernel[0] ? l->kernel : "unnamed", l->grid[0], l->grid[1]);
    } else {
        tl_appendf(msg, len, "  hint: every element of C holds what the harness put there before "
                             "the call (a NaN), though the product ran");
    }
    tl_appendf(msg, len, ": it stored nothing to C, or it stored values computed from C's own old "
                         "values. A kernel that reads C before writing it, as C = alpha A B + beta C "
                         "does even with beta = 0 (0 times NaN is NaN), carries that NaN into every "
                         "element: C is an output only here, so write it without reading it "
                         "(C[i][j] = sum).\n");
}

/* past_end: the guard after C was written, by stores past a row's end or C's. */
static void explain(char *msg, size_t len, const matmul_scan *sc, const float *c,
                    const double *exact, const double *bound, tl_shape s, int tiled, int on_gpu,
                    int tile, const tl_lab_words *words, int past_end)
{
    int m = s.rows, n = s.cols, k = s.depth;
    /* The side of the tiles along k, as the first launch's blocks are wide (0: not known). */
    int t = tiled ? tl_launched_tile(on_gpu) : 0;
    size_t w = sc->worst;
    int tail_rows, tail_cols;
    tl_appendf(msg, len, "  %zu of %zu elements of C are wrong.\n", sc->wrong, (size_t)m * n);
    if (tl_float_bits(c[w]) == TL_POISON_BITS)
        tl_appendf(msg, len, "  e.g. C[%zu][%zu] should be %.9g and was never written\n", w / n,
                   w % n, exact[w]);
    else
        tl_appendf(msg, len,
                   "  worst: C[%zu][%zu] should be %.9g, got %.9g (%.3g times the tolerance)\n",
                   w / n, w % n, exact[w], (double)c[w], sc->worst_ratio);

    if (sc->unwritten == (size_t)m * n) {
        hint_nothing_written(msg, len, on_gpu);
        return;
    }
    if (sc->from_shared && tiled)
        hint_shared_tiles(msg, len, sc, s, tile);
    else if (sc->from_shared)
        tl_appendf(msg, len,
                   "  hint: %zu elements come from shared memory nobody had written: a thread read "
                   "a __shared__ element before any thread had stored it.\n",
                   sc->from_shared);
    /* A read past A or B: a tile over the edge loaded without its bounds test, or an index
     * with another matrix's row length (B[p * k + col]) that runs past the end even where
     * every bounds test is right; only where no tile hangs over an edge is it the index alone. */
    if (sc->from_margin && tiled && t > 1 && m % t == 0 && n % t == 0 && k % t == 0)
        tl_appendf(msg, len,
                   "  hint: %zu elements come from past the end of A or B, whose margins hold NaN, "
                   "at a shape where no tile hangs over an edge: an index runs past the end. Each "
                   "matrix has its own row length: A[row * k + p] (A's rows are k long), "
                   "B[p * n + col] (B's rows are n long).\n",
                   sc->from_margin);
    else if (sc->from_margin && tiled)
        tl_appendf(msg, len,
                   "  hint: %zu elements come from past the end of A or B, whose margins hold NaN. "
                   "A tile that hangs over the edge of the matrix must load 0.0f for the elements "
                   "outside it (check row < m, col < n and the k index); and where those bounds "
                   "tests are right, an index with the wrong row length runs past the end: "
                   "A[row * k + p] (A's rows are k long), B[p * n + col] (B's rows are n long).\n",
                   sc->from_margin);
    else if (sc->from_margin)
        tl_appendf(msg, len,
                   "  hint: %zu elements come from past the end of A or B, whose margins hold NaN: "
                   "the loop over p reads A[row * k + p] and B[p * n + col] for p from 0 to k - 1 "
                   "(p < k, not p <= k), and only a thread with row < m and col < n reads at "
                   "all; where those are right, an index with the wrong row length runs past the "
                   "end: A's rows are k long, B's n long.\n",
                   sc->from_margin);
    if (sc->nan > sc->from_margin + sc->from_shared)
        tl_appendf(msg, len, "  hint: elements are NaN: a load past the end of A or B (their margins "
                             "hold NaN)%s%s.\n",
                   tiled ? ", or shared memory read before it was filled (a missing "
                           "__syncthreads(), or threads that returned before it)"
                         : "",
                   "; or an accumulator never set to 0 (float sum; holds whatever its register "
                   "held, a NaN too); or C read before it was written (beta * C with beta = 0 "
                   "is NaN where C holds the NaN the harness puts there before the call)");
    if (sc->unwritten == sc->wrong && tl_unwritten_tail(c, m, n, &tail_rows, &tail_cols))
        hint_tail(msg, len, s, tail_rows, tail_cols, tiled, on_gpu, words);
    if (sc->transposed)
        tl_appendf(msg, len, "  hint: C holds the transposed product: row and column swapped in "
                             "the store (C[row * n + col]) or in the thread's indices.\n");
    /* A store of a column past n (col < n untested) lands at C[row + 1][col - n], over what
     * the thread of that element stored, and the last row's past C's end: the wrong values
     * are those stores, not the products (a student's register tile, 2026-11-28, was told to
     * check its indices, accumulator and tiles). */
    if (past_end && !sc->nan && !sc->transposed)
        tl_appendf(msg, len,
                   "  hint: the stores past C's end are the last row's part of stores past the end "
                   "of every row: C[row * n + col] with col >= n lands in the next row, at "
                   "C[row + 1][col - n], over the value its own thread stored there. Test col < n "
                   "(and row < m) before each store of C.\n");
    else if (!sc->nan && !sc->unwritten && !sc->transposed &&
             !hint_tile_transposed(msg, len, c, exact, bound, s, sc->wrong) &&
             !hint_accumulator(msg, len, c, exact, bound, s, sc->wrong)) {
        tl_appendf(msg, len,
                   "  hint: values are computed but wrong: check A[row * k + p] and B[p * n + col], "
                   "that the accumulator starts at 0 (float sum = 0.0f;), and that the loop over p "
                   "covers 0..k-1 exactly once%s",
                   tiled ? " (tiles: every tile, none twice)" : ", from p = 0.\n");
        /* A tile part past k holds what an earlier tile left there, unless it is stored as 0. */
        if (tiled && t > 1 && k % t)
            tl_appendf(msg, len, "; with k = %d not a multiple of your tiles' side (%d), that the "
                                 "last tile holds 0.0f past k in both A's tile and B's, since the "
                                 "product reads all of it", k, t);
        if (tiled)
            tl_appendf(msg, len, "; and a __syncthreads() before and after using each tile.\n");
    }
}

void tl_check_matmul(tl_verdict *v, tl_matmul_fn fn, int tiled, const tl_backend *backend,
                     tl_shape s, uint64_t seed, const tl_lab_words *words)
{
    size_t m = (size_t)s.rows, n = (size_t)s.cols, k = (size_t)s.depth;
    tl_matrix a = {NULL, NULL, 0}, b = a, c = a, a0 = a, b0 = a;
    double *exact = malloc(m * n * sizeof *exact), *bound = malloc(m * n * sizeof *bound);
    char *msg = v->message;
    size_t len = sizeof v->message;
    memset(v, 0, sizeof *v);

    tl_appendf(msg, len, "C = A B with m=%zu, n=%zu, k=%zu (A is %zu x %zu, B is %zu x %zu) on the "
               "%s (TILELAB_SEED=%llu):\n", m, n, k, m, k, k, n, backend->name,
               (unsigned long long)seed);
    if (!exact || !bound || tl_matrix_alloc(&a, m * k) || tl_matrix_alloc(&b, k * n) ||
        tl_matrix_alloc(&c, m * n) || tl_matrix_alloc(&a0, m * k) || tl_matrix_alloc(&b0, k * n)) {
        tl_appendf(msg, len, "  not enough host memory\n");
        goto done;
    }
    fill_uniform(a.data, m * k, seed ^ (m << 40) ^ (n << 20) ^ k);
    fill_uniform(b.data, k * n, ~seed ^ (k << 40) ^ (m << 20) ^ n);
    tl_matrix_fill_margins(&a, TL_MARGIN_BITS);
    tl_matrix_fill_margins(&b, TL_MARGIN_BITS);
    tl_fill_bits(c.data, m * n, TL_POISON_BITS);
    tl_matrix_fill_margins(&c, TL_GUARD_BITS);
    memcpy(a0.base, a.base, tl_matrix_total(&a) * sizeof(float));
    memcpy(b0.base, b.base, tl_matrix_total(&b) * sizeof(float));

    tl_todo_reset();
    char why[4096] = "";
    int ran = backend->run(tl_call_of(TL_CALL_MATMUL), (tl_entry_fn)fn, (tl_matrix *[]){&c, &a, &b}, s,
                           why, sizeof why);
    const char *todo = tl_note_run(msg, len, ran, why);
    v->run_failed = ran != 0;
    if (ran != 0)
        goto done;
    exact_product(exact, bound, a0.data, b0.data, s);
    /* The tiles' side, where the launch gives one thread an element of C (0: not known). */
    const tl_launch *l = tiled ? element_launch(s, backend->on_gpu) : NULL;
    int tile = l ? (int)l->block[0] : 0;
    matmul_scan sc;
    scan(&sc, c.data, exact, bound, s, tile);
    v->wrong = sc.wrong;

    size_t before = tl_find_not_bits(c.base, TL_MARGIN, TL_GUARD_BITS) != TL_MARGIN;
    size_t after = tl_find_not_bits(c.data + c.count, TL_MARGIN, TL_GUARD_BITS) != TL_MARGIN;
    if (after)
        tl_appendf(msg, len, "  wrote past the end of C: a store without its bounds check (row < m "
                             "&& col < n)?\n");
    if (before)
        tl_appendf(msg, len, "  wrote before the start of C: a negative or overflowed index?\n");
    int changed = memcmp(a.base, a0.base, tl_matrix_total(&a) * sizeof(float)) ||
                  memcmp(b.base, b0.base, tl_matrix_total(&b) * sizeof(float));
    if (changed)
        tl_appendf(msg, len, "  A or B was changed: they are the inputs, write only to C.\n");
    if (sc.wrong && todo)
        tl_appendf(msg, len, "  %zu of %zu elements of C are wrong.\n", sc.wrong, m * n);
    else if (sc.wrong)
        explain(msg, len, &sc, c.data, exact, bound, s, tiled, backend->on_gpu, tile, words, after);
    v->ok = !sc.wrong && !before && !after && !changed;
done:
    if (v->ok)
        msg[0] = '\0';
    free(exact);
    free(bound);
    tl_matrix_free(&a);
    tl_matrix_free(&b);
    tl_matrix_free(&c);
    tl_matrix_free(&a0);
    tl_matrix_free(&b0);
}
