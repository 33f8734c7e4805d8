/*
 * Correctness of an in-place transpose: the n x n matrix, in its own
 * memory, must come back as its transpose, bit for bit. Its margins hold
 * NaNs of their own (TL_MARGIN_BITS): a read past either end brings one
 * into the matrix, and a write past either end changes one.
 *
 * The diagnoses are the in-place mistakes, each recognised by where the
 * wrong values came from:
 *   - the matrix came back as it went: every pair swapped twice;
 *   - each tile transposed where it lies, never swapped with its mirror
 *     across the diagonal (the tiled kernel of the blog the lab starts from);
 *   - a swap that lost one side: (r, c) kept its value, (c, r) got it too;
 *   - shared memory read before the block filled it: a missing barrier.
 */
#include "check.h"

#include <stdio.h>
#include <string.h>

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

static void explain(char *msg, size_t len, const inplace_scan *sc, const float *m, const float *in,
                    int n)
{
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
    if (memcmp(m, in, total * sizeof *m) == 0) {
        tl_appendf(msg, len,
                   "  hint: the matrix came back as it went in: every element off the diagonal "
                   "still holds its own value. Every pair (r, c), (c, r) was swapped twice, once by "
                   "the thread at (r, c) and again by the one at (c, r), which undoes the first "
                   "swap. Let only the threads below the diagonal swap: x < y (README.md, step 1).\n");
        return;
    }
    if (sc->kept_lost == sc->wrong) {
        tl_appendf(msg, len,
                   "  hint: mat[%d][%d] still holds its own value, and its mirror mat[%d][%d] holds "
                   "it too: the other value of the pair was lost. Both sides of a swap must be "
                   "read before either is written: into registers (tmp) for one pair, into two "
                   "shared tiles for a pair of tiles, with __syncthreads() between. Two blocks that "
                   "both work on one pair of tiles race in the same way (README.md, step 2).\n",
                   r, c, c, r);
        return;
    }
    /* The blog's bug: each tile transposed where it lies (check.c finds it out of place too). */
    int t = tl_tiles_left_in_place(m, in, n, n, sc->first_valued);
    if (t) {
        tl_appendf(msg, len,
                   "  hint: each tile is transposed, but tiles were not swapped with their mirror "
                   "across the diagonal. Every %d x %d tile (R, C) holds its own elements "
                   "transposed, where it should hold those of tile (C, R): the tiled kernel that "
                   "transposes a tile in place and writes it back where it was. Give each block a "
                   "pair of tiles, (R, C) and (C, R) with R < C: load both into two shared tiles, "
                   "__syncthreads(), and write each, transposed, into the other's place; a tile on "
                   "the diagonal is its own mirror (README.md, step 2).\n",
                   t, t);
        return;
    }

    if (sc->from_shared)
        tl_appendf(msg, len,
                   "  hint: %zu elements hold shared memory nobody wrote: the block wrote back before "
                   "every thread had loaded its part of the tiles. Put __syncthreads() between "
                   "loading both tiles of a pair and writing either of them back.\n",
                   sc->from_shared);
    if (sc->from_margin || sc->from_shared)
        return;
    size_t src = tl_find_bits(in, total, got_bits);
    if (src < total)
        tl_appendf(msg, len, "  that value was mat[%d][%d] before the call; mat[%d][%d] should hold "
                   "the old mat[%d][%d], its mirror across the diagonal.\n",
                   (int)(src / n), (int)(src % n), r, c, c, r);
}

void tl_check_inplace(tl_verdict *v, tl_inplace_fn fn, const tl_backend *backend, int n,
                      uint64_t seed)
{
    size_t total = (size_t)n * n;
    tl_matrix m = {NULL, NULL, 0}, pristine = m;
    char *msg = v->message;
    size_t len = sizeof v->message;
    memset(v, 0, sizeof *v);

    tl_appendf(msg, len, "in-place transpose of a %d x %d matrix (n=%d) on the %s (TILELAB_SEED=%llu):\n",
               n, n, n, backend->name, (unsigned long long)seed);
    if (!backend->run_inplace) {
        tl_appendf(msg, len, "  the %s backend cannot run an in-place transpose\n", backend->name);
        goto done;
    }
    if (tl_matrix_alloc(&m, total) || tl_matrix_alloc(&pristine, total)) {
        tl_appendf(msg, len, "  not enough host memory for two %zu-element matrices\n", total);
        goto done;
    }
    /* The values of check.c's n x n case: one seed, the same matrix. */
    tl_fill_random(m.data, total, seed ^ ((uint64_t)n << 32) ^ (uint64_t)n);
    tl_matrix_fill_margins(&m, TL_MARGIN_BITS);
    memcpy(pristine.base, m.base, tl_matrix_total(&m) * sizeof(float));

    tl_todo_reset();
    char why[1024] = "";
    int ran = backend->run_inplace(fn, &m, n, why, sizeof why);
    const char *todo = tl_note_run(msg, len, ran, why);
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
        explain(msg, len, &sc, m.data, pristine.data, n);
    /* A stub that leaves a 1 x 1 matrix alone is right by accident, and still a stub. */
    v->ok = sc.wrong == 0 && !after && !before && !todo;

done:
    if (v->ok)
        msg[0] = '\0';
    tl_matrix_free(&m);
    tl_matrix_free(&pristine);
}
