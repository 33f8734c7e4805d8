/*
 * Correctness of an in-place transpose: the n x n matrix, in its own
 * memory, must come back as its transpose, bit for bit. Its margins hold
 * NaNs of their own (TL_MARGIN_BITS): a read past either end brings one
 * into the matrix, and a write past either end changes one.
 *
 * The diagnoses are the in-place mistakes, each recognised by where the
 * wrong values came from:
 *   - the matrix came back as it went: every pair swapped twice (or, where it fits
 *     in one tile, that tile never touched: the values cannot tell the two apart);
 *   - the tiles on the diagonal untouched, the pairs off it right;
 *   - each tile transposed where it lies, never swapped with its mirror
 *     across the diagonal (the tiled kernel of a well-known blog);
 *   - a swap that lost one side: (r, c) kept its value, (c, r) got it too;
 *   - pairs of tiles swapped twice, by two blocks each: the tiles on the
 *     diagonal right, every element off them back as it went (or, where
 *     the two swaps overlapped on a GPU, one side lost);
 *   - shared memory read before the block filled it: a missing barrier,
 *     where whole tiles show it; where only the tiles cut by the edge do,
 *     loads whose bounds leave out elements the stores write back.
 */
#include "check.h"

#include <stdio.h>
#include <string.h>

#include "launch.h"

typedef struct {
    size_t wrong, from_margin, from_shared;
    size_t kept;          /* off the diagonal, still holding its own value */
    size_t kept_lost;     /* ... while its mirror holds that value too: a lost swap */
    size_t first;         /* index of the first mismatch */
    size_t first_valued;  /* ... of the first one that holds a value of the matrix, or first */
    int has_valued;
} inplace_scan;

static void scan_matrix(inplace_scan *sc, const float *m, const float *in, int n)
{
    memset(sc, 0, sizeof *sc);
    for (size_t r = 0; r < (size_t)n; r++)
        for (size_t c = 0; c < (size_t)n; c++) {
            uint32_t got = tl_float_bits(m[r * n + c]), own = tl_float_bits(in[r * n + c]);
            if (got == tl_float_bits(in[c * n + r]))
                continue;
            if (sc->wrong++ == 0)
                sc->first = sc->first_valued = r * n + c;
            if (!sc->has_valued && !tl_is_marker_bits(got)) {
                sc->has_valued = 1;
                sc->first_valued = r * n + c;
            }
            sc->from_margin += got == TL_MARGIN_BITS;
            sc->from_shared += got == TL_SHARED_POISON_BITS;
            if (got == own) {
                sc->kept++;
                sc->kept_lost += tl_float_bits(m[c * n + r]) == own;
            }
        }
}

/* Every element of the t x t tiles on the diagonal (on_diagonal) or of those off it came out
 * transposed, or (transposed 0) as it went in. */
static int tiles_hold(const float *m, const float *in, int n, int t, int on_diagonal, int transposed)
{
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) {
            if ((r / t == c / t) != on_diagonal)
                continue;
            size_t want = transposed ? (size_t)c * n + r : (size_t)r * n + c;
            if (tl_float_bits(m[(size_t)r * n + c]) != tl_float_bits(in[want]))
                return 0;
        }
    return 1;
}

static int diagonal_tiles_right(const float *m, const float *in, int n, int t)
{
    return tiles_hold(m, in, n, t, 1, 1);
}

/* Elements of the whole t x t tiles (the first n / t * t rows and columns) that hold shared
 * memory nobody wrote. */
static size_t shared_in_whole_tiles(const float *m, int n, int t)
{
    size_t count = 0, whole = (size_t)(n / t * t);
    for (size_t r = 0; r < whole; r++)
        for (size_t c = 0; c < whole; c++)
            count += tl_float_bits(m[r * n + c]) == TL_SHARED_POISON_BITS;
    return count;
}

/*
 * Every wrong element holds its own value, and the tiles on the diagonal
 * came out right: the pairs of tiles off the diagonal came back as they
 * went. The launch says whether two blocks worked each pair: a grid of a
 * block for every tile, T x T, swaps each pair twice, and the second swap
 * undoes the first (run at once on a GPU, the two may lose a side instead).
 */
static void hint_pairs_unswapped(char *msg, size_t len, const inplace_scan *sc, int n, int t,
                                 const tl_lab_words *w)
{
    int tiles = (n + t - 1) / t;
    const tl_launch *l = tl_launch_get(0);
    unsigned long long blocks = (unsigned long long)l->grid[0] * l->grid[1] * l->grid[2];
    tl_appendf(msg, len, "  hint: every wrong element still holds its own value, and all lie off "
                         "the %d x %d tiles on the diagonal, which came out right: ", t, t);
    if (blocks >= (unsigned long long)tiles * tiles)
        tl_appendf(msg, len,
                   "each pair of mirror tiles (R, C), (C, R) off the diagonal came back as it "
                   "went, swapped twice, the second swap undoing the first%s. Your grid has %llu "
                   "blocks for the %d x %d tiles, a block for every tile, so two blocks work each "
                   "pair: block (R, C) swaps it, and block (C, R) swaps it back. Let one block of "
                   "each pair work it: the blocks below the diagonal (R > C) return at once, "
                   "before any __syncthreads(), or the grid has T (T + 1) / 2 blocks, one a pair "
                   "(%s).\n",
                   sc->kept_lost ? " (or, where the two swaps overlapped, with one side of the "
                                   "pair lost)" : "",
                   blocks, tiles, tiles, w->tiles_in_pairs);
    else
        tl_appendf(msg, len,
                   "the pairs of mirror tiles off the diagonal came back as they went, swapped "
                   "twice (the second swap undoing the first) or never swapped. Each pair (R, C), "
                   "(C, R) with R < C needs one swap: one block loads both tiles and writes each, "
                   "transposed, into the other's place (%s).\n", w->tiles_step);
}

/*
 * Elements that hold shared memory nobody wrote: no thread had loaded the
 * tile element when it was written back. The emulator, the one backend
 * whose shared memory holds such NaN, names a missing barrier itself, as a
 * race on shared memory, before the matrix is checked; so the loads left
 * the element out. Where the whole tiles hold none, the barrier works
 * there too, and what differs at the edge is the bounds, as when the
 * mirror tile is tested with tile (R, C)'s.
 */
static void hint_shared(char *msg, size_t len, const inplace_scan *sc, const float *m, int n, int t,
                        const tl_lab_words *w)
{
    if (t > 1 && n >= t && n % t && shared_in_whole_tiles(m, n, t) == 0) {
        tl_appendf(msg, len,
                   "  hint: %zu element(s) hold shared memory nobody wrote, all in the tiles the "
                   "matrix's edge cuts (your tiles are %d x %d, and n = %d leaves the last row and "
                   "column of tiles %d wide); the whole tiles hold none, so the barrier between "
                   "loading a pair and writing it back is there. At the edge a thread wrote back a "
                   "tile element no thread had loaded: the loads' bounds tests must let through "
                   "every element the stores write back. Each tile of a pair has its own bounds: "
                   "tile (R, C) holds rows R * %s.. and columns C * %s.., its mirror "
                   "(C, R) rows C * %s.. and columns R * %s..; test each load and each "
                   "store with the row and column of the element it touches (r < n && c < n).\n",
                   sc->from_shared, t, t, n, n % t, w->tile, w->tile, w->tile, w->tile);
        return;
    }
    tl_appendf(msg, len,
               "  hint: %zu element(s) hold shared memory nobody wrote: no thread had loaded that "
               "tile element when it was written back (one loaded after it with no barrier "
               "between would have been named as a race on shared memory), so the loads leave out "
               "elements the stores write back. Check that the loop over j covers every row of "
               "the tile (j < %s, in steps of %s), and that each tile's loads and "
               "stores test the same bounds and use the same indices: every tile element a store "
               "writes back, transposed, some thread must have loaded.\n",
               sc->from_shared, w->tile, w->block_rows);
}

static void explain(char *msg, size_t len, const inplace_scan *sc, const float *m, const float *in,
                    int n, int on_gpu, const tl_lab_words *w)
{
    int t = tl_launched_tile(on_gpu); /* the launch's tile side, 0: not known */
    size_t total = (size_t)n * n;
    int r = (int)(sc->first / n), c = (int)(sc->first % n);
    uint32_t got_bits = tl_float_bits(m[sc->first]);
    char want[96], got[96];
    tl_describe_bits(want, sizeof want, tl_float_bits(in[(size_t)c * n + r]));
    if (got_bits == TL_MARGIN_BITS)
        snprintf(got, sizeof got, "a NaN from outside the matrix (a read past one of its ends)");
    else
        tl_describe_bits(got, sizeof got, got_bits);
    tl_appendf(msg, len, "  %zu of %zu elements are wrong.\n", sc->wrong, total);
    tl_appendf(msg, len, "  first mismatch: mat[%d][%d] should be the old mat[%d][%d] = %s, got %s\n",
               r, c, c, r, want, got);

    if (sc->from_margin)
        tl_appendf(msg, len,
                   "  hint: %zu elements came from outside the matrix: an index ran past its end "
                   "(check the bounds test r < n && c < n, on the mirror tile too).\n",
                   sc->from_margin);
    /* A matrix within one of the launch's tiles is all one tile on the diagonal: back as it
     * went, it was swapped twice or never touched, and the values cannot tell which. */
    if (memcmp(m, in, total * sizeof *m) == 0 && t > 1 && n <= t) {
        tl_appendf(msg, len,
                   "  hint: the matrix came back as it went in: every element off the diagonal "
                   "still holds its own value. n = %d fits in one of your %d x %d tiles, the one "
                   "on the diagonal, which is its own mirror: either no thread transposed that "
                   "tile (the block of a tile (R, R) must transpose it in place: the blocks that "
                   "leave at once are those below the diagonal, R > C, not R >= C), or each pair "
                   "(r, c), (c, r) in it was swapped twice, by the thread at (r, c) and again by "
                   "the one at (c, r) (within the tile, only x < y swap; %s). Larger matrices, of "
                   "several tiles, tell the two apart.\n",
                   n, t, t, w->both_steps);
        return;
    }
    if (memcmp(m, in, total * sizeof *m) == 0) {
        tl_appendf(msg, len,
                   "  hint: the matrix came back as it went in: every element off the diagonal "
                   "still holds its own value. Every pair (r, c), (c, r) was swapped twice, once by "
                   "the thread at (r, c) and again by the one at (c, r), which undoes the first "
                   "swap. Let only the threads below the diagonal swap: x < y (%s).\n", w->pairs_step);
        return;
    }
    /* The pairs right, the tiles on the diagonal untouched: no block took those. */
    if (sc->kept == sc->wrong && t > 1 && n > t && tiles_hold(m, in, n, t, 0, 1) &&
        tiles_hold(m, in, n, t, 1, 0)) {
        tl_appendf(msg, len,
                   "  hint: every wrong element lies in the %d x %d tiles on the diagonal, which "
                   "came back as they went in, untouched, while every tile off the diagonal came "
                   "out right: the pairs were swapped, but no block transposed the tiles on the "
                   "diagonal. A tile (R, R) is its own mirror, and its block must transpose it in "
                   "place: the blocks that leave at once are those below the diagonal, R > C, not "
                   "R >= C (%s).\n",
                   t, t, w->tiles_step);
        return;
    }
    /* Pairs of tiles back as they went: the launch, where there is one, says why. */
    if (sc->kept == sc->wrong && t > 1 && n > t && diagonal_tiles_right(m, in, n, t)) {
        hint_pairs_unswapped(msg, len, sc, n, t, w);
        return;
    }
    if (sc->kept_lost == sc->wrong) {
        tl_appendf(msg, len,
                   "  hint: mat[%d][%d] still holds its own value, and its mirror mat[%d][%d] holds "
                   "it too: the other value of the pair was lost. Both sides of a swap must be "
                   "read before either is written: into registers (tmp) for one pair, into two "
                   "shared tiles for a pair of tiles, with __syncthreads() between. Two blocks that "
                   "both work on one pair of tiles race in the same way (%s).\n",
                   r, c, c, r, w->tiles_step);
        return;
    }
    /* The blog's bug: each tile transposed where it lies (check.c finds it out of place too). */
    int in_place = tl_tiles_left_in_place(m, in, n, n, sc->first_valued);
    if (in_place) {
        tl_appendf(msg, len,
                   "  hint: each tile is transposed, but tiles were not swapped with their mirror "
                   "across the diagonal. Every %d x %d tile (R, C) holds its own elements "
                   "transposed, where it should hold those of tile (C, R): the tiled kernel that "
                   "transposes a tile in place and writes it back where it was. Give each block a "
                   "pair of tiles, (R, C) and (C, R) with R < C: load both into two shared tiles, "
                   "__syncthreads(), and write each, transposed, into the other's place; a tile on "
                   "the diagonal is its own mirror (%s).\n",
                   in_place, in_place, w->tiles_step);
        return;
    }

    if (sc->from_shared)
        hint_shared(msg, len, sc, m, n, t, w);
    if (sc->from_margin || sc->from_shared)
        return;
    size_t src = tl_find_bits(in, total, got_bits);
    if (src < total)
        tl_appendf(msg, len, "  that value was mat[%d][%d] before the call; mat[%d][%d] should hold "
                   "the old mat[%d][%d], its mirror across the diagonal.\n",
                   (int)(src / n), (int)(src % n), r, c, c, r);
}

void tl_check_inplace(tl_verdict *v, tl_inplace_fn fn, const tl_backend *backend, int n,
                      uint64_t seed, const tl_lab_words *words)
{
    size_t total = (size_t)n * n;
    tl_matrix m = {NULL, NULL, 0}, pristine = m;
    char *msg = v->message;
    size_t len = sizeof v->message;
    memset(v, 0, sizeof *v);

    tl_appendf(msg, len, "in-place transpose of a %d x %d matrix (n=%d) on the %s (TILELAB_SEED=%llu):\n",
               n, n, n, backend->name, (unsigned long long)seed);
    if (tl_matrix_alloc(&m, total) || tl_matrix_alloc(&pristine, total)) {
        tl_appendf(msg, len, "  not enough host memory for two %zu-element matrices\n", total);
        goto done;
    }
    /* The values of check.c's n x n case: one seed, the same matrix. */
    tl_fill_random(m.data, total, seed ^ ((uint64_t)n << 32) ^ (uint64_t)n);
    tl_matrix_fill_margins(&m, TL_MARGIN_BITS);
    memcpy(pristine.base, m.base, tl_matrix_total(&m) * sizeof(float));

    tl_todo_reset();
    char why[4096] = "";
    int ran = backend->run(tl_call_of(TL_CALL_INPLACE), (tl_entry_fn)fn, (tl_matrix *[]){&m},
                           (tl_shape){n, n, 1}, why, sizeof why);
    const char *todo = tl_note_run(msg, len, ran, why);
    v->run_failed = ran != 0;
    if (ran != 0)
        goto done;

    inplace_scan sc;
    scan_matrix(&sc, m.data, pristine.data, n);
    v->wrong = sc.wrong;

    size_t before, after, last_before, first_after;
    char counted[96];
    tl_scan_margins(&m, TL_MARGIN_BITS, &before, &after, &last_before, &first_after);
    if (after)
        tl_appendf(msg, len,
                   "  wrote %s past the end of the matrix, the nearest %zu past its "
                   "last element mat[%d][%d].\n"
                   "  hint: a missing bounds check in the last tile, or in the mirror of a tile "
                   "(r < n && c < n on both sides of the swap).\n",
                   tl_count_guarded(counted, sizeof counted, after), first_after + 1, n - 1, n - 1);
    if (before)
        tl_appendf(msg, len,
                   "  wrote %s before the start of the matrix (as far as %zu before "
                   "mat[0][0]).\n"
                   "  hint: a negative index, or an int that overflowed (use size_t for r*n + c).\n",
                   tl_count_guarded(counted, sizeof counted, before), last_before);

    if (sc.wrong && todo)
        tl_appendf(msg, len, "  %zu of %zu elements are wrong.\n", sc.wrong, total);
    else if (sc.wrong)
        explain(msg, len, &sc, m.data, pristine.data, n, backend->on_gpu, words);
    /* A stub that leaves a 1 x 1 matrix alone is right by accident, and still a stub. */
    v->ok = sc.wrong == 0 && !after && !before && !todo;

done:
    if (v->ok)
        msg[0] = '\0';
    tl_matrix_free(&m);
    tl_matrix_free(&pristine);
}
