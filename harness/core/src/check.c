#include "check.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch.h"

void tl_appendf(char *buf, size_t len, const char *fmt, ...)
{
    size_t used = strlen(buf);
    if (used + 1 >= len)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf + used, len - used, fmt, ap);
    va_end(ap);
}

const char *tl_note_run(char *msg, size_t len, int ran, const char *why)
{
    const char *todo = tl_todo_message();
    if (todo)
        tl_appendf(msg, len, "  not implemented yet: %s\n", todo);
    if (ran != 0)
        tl_appendf(msg, len, "  %s\n", why);
    return todo;
}

static int run_on_cpu(const tl_call *call, tl_entry_fn fn, tl_matrix *const m[], tl_shape s,
                      char *why, size_t why_len)
{
    (void)why;
    (void)why_len;
    float *data[TL_CALL_MATRICES] = {NULL, NULL, NULL};
    for (int i = 0; i < call->matrices; i++)
        data[i] = m[i]->data;
    tl_call_invoke(call, fn, data, s);
    return 0;
}

const tl_backend tl_cpu_backend = {"CPU", 0, run_on_cpu};

void tl_describe_bits(char *buf, size_t len, uint32_t bits)
{
    switch (bits) {
    case TL_POISON_BITS:
        snprintf(buf, len, "nothing (the element was never written)");
        return;
    case TL_GUARD_BITS:
        snprintf(buf, len, "a guard value (copied from outside out)");
        return;
    case TL_MARGIN_BITS:
        snprintf(buf, len, "a NaN from outside in (a read past the end of in)");
        return;
    case TL_SHARED_POISON_BITS:
        snprintf(buf, len, "shared memory nobody wrote (a tile element no thread had stored "
                 "when it was read)");
        return;
    }
    float x = tl_bits_float(bits);
    if (x != x)
        snprintf(buf, len, "NaN (bits 0x%08x)", (unsigned)bits);
    else if (bits == 0x80000000u)
        snprintf(buf, len, "-0.0");
    else
        snprintf(buf, len, "%.9g", (double)x);
}

/* What the output looks like, gathered in one pass. */
typedef struct {
    size_t wrong, unwritten, from_margin, from_shared, same_value;
    size_t flushed;                /* a zero where in holds a subnormal or the other zero */
    size_t other_nan;              /* a NaN where a NaN belongs, with other bits */
    size_t first;                  /* linear index of the first mismatch in out */
    size_t first_valued;           /* ... of the first one that holds a value, or wrong == 0 */
    int has_valued;
    int min_row, max_row, min_col, max_col; /* box around the mismatches, out coordinates */
} scan;

/* The bits of x, read where the scan loops: tl_float_bits is a call an element. */
static inline uint32_t bits_of(float x)
{
    uint32_t b;
    memcpy(&b, &x, sizeof b);
    return b;
}

/* A mismatch at out index at (row r, column c of out), got where want belongs, counted. */
static void scan_mismatch(scan *sc, size_t at, int r, int c, uint32_t got, float want)
{
    if (sc->wrong++ == 0 || at < sc->first)
        sc->first = at;
    if (got != TL_POISON_BITS && got != TL_MARGIN_BITS && (!sc->has_valued || at < sc->first_valued)) {
        sc->has_valued = 1;
        sc->first_valued = at;
    }
    if (got == TL_POISON_BITS)
        sc->unwritten++;
    else if (got == TL_MARGIN_BITS)
        sc->from_margin++;
    else if (got == TL_SHARED_POISON_BITS)
        sc->from_shared++;
    else if (tl_bits_float(got) == want || (want != want && tl_bits_float(got) != tl_bits_float(got)))
        sc->same_value++;
    if ((got & 0x7fffffffu) == 0 && (bits_of(want) & 0x7f800000u) == 0)
        sc->flushed++; /* want is a subnormal or a zero (not got's: then it is no mismatch) */
    if (want != want && tl_bits_float(got) != tl_bits_float(got) && !tl_is_marker_bits(got))
        sc->other_nan++;
    if (r < sc->min_row) sc->min_row = r;
    if (r > sc->max_row) sc->max_row = r;
    if (c < sc->min_col) sc->min_col = c;
    if (c > sc->max_col) sc->max_col = c;
}

/* out against in, a tile of out at a time: a row of out is a column of in, whose elements
 * lie a row of in apart, and a tile's rows read each line of in they need while it is
 * still cached (row by row, a large matrix missed the cache at every element). The tiles
 * meet the mismatches out of out's order: the first is the one of least index. */
#define SCAN_TILE 64
static void scan_output(scan *sc, const float *out, const float *in, tl_shape s)
{
    int orows = s.cols, ocols = s.rows;
    memset(sc, 0, sizeof *sc);
    sc->min_row = orows;
    sc->min_col = ocols;
    for (int r0 = 0; r0 < orows; r0 += SCAN_TILE)
        for (int c0 = 0; c0 < ocols; c0 += SCAN_TILE) {
            int r1 = orows - r0 < SCAN_TILE ? orows : r0 + SCAN_TILE;
            int c1 = ocols - c0 < SCAN_TILE ? ocols : c0 + SCAN_TILE;
            for (int r = r0; r < r1; r++) {
                const float *row = out + (size_t)r * ocols;
                for (int c = c0; c < c1; c++) {
                    uint32_t got = bits_of(row[c]);
                    float want = in[(size_t)c * s.cols + r];
                    if (got != bits_of(want))
                        scan_mismatch(sc, (size_t)r * ocols + c, r, c, got, want);
                }
            }
        }
}

const char *tl_count_guarded(char *buf, size_t len, size_t count)
{
    snprintf(buf, len, count < TL_MARGIN ? "%zu element(s)" :
             "at least %zu elements (every one the kit guards there)", count);
    return buf;
}

void tl_scan_margins(const tl_matrix *m, uint32_t bits, size_t *before, size_t *after,
                     size_t *last_before, size_t *first_after)
{
    *before = *after = 0;
    *last_before = *first_after = 0;
    for (size_t i = 0; i < TL_MARGIN; i++) {
        if (tl_float_bits(m->base[i]) != bits) {
            (*before)++;
            *last_before = TL_MARGIN - i;
        }
        if (tl_float_bits(m->data[m->count + i]) != bits) {
            if ((*after)++ == 0)
                *first_after = i;
        }
    }
}

/* Whether out[orow][ocol], holding `got`, got it from in[r][c] stored at index c*cols + r: the
 * output index walks out with in's row length, the rows and cols swapped in it. */
static int stored_with_in_row_length(const float *in, tl_shape s, size_t out_index, uint32_t got)
{
    size_t n = tl_shape_elements(s), src = tl_find_bits(in, n, got);
    return src < n && out_index != src && out_index == (src % (size_t)s.cols) * s.cols + src / (size_t)s.cols;
}

/*
 * The first wrong element holds a value from somewhere in `in`: where from
 * tells which index expression was wrong. 1 when that is a copy, which no
 * shape gets right, so that no note of squares follows it.
 */
static int hint_from_source(char *msg, size_t len, const float *in, tl_shape s, int orow, int ocol,
                             uint32_t got)
{
    size_t n = tl_shape_elements(s);
    size_t src = tl_find_bits(in, n, got);
    if (src == n)
        return 0;
    int sr = (int)(src / (size_t)s.cols), sc = (int)(src % (size_t)s.cols);
    size_t out_index = (size_t)orow * s.rows + ocol;
    tl_appendf(msg, len, "  that value is in[%d][%d]: ", sr, sc);
    if (out_index == src) {
        tl_appendf(msg, len,
                   "out[%d][%d] got the element at the same linear index of in, so in was "
                   "copied, not transposed. Write in[r][c] to out[c][r].\n",
                   orow, ocol);
        return 1;
    }
    if (stored_with_in_row_length(in, s, out_index, got))
        tl_appendf(msg, len,
                   "it was written to index c*cols + r. out has %d columns (it is cols x rows), "
                   "so out[c][r] is at index c*rows + r: rows and cols swapped in the output index?\n",
                   s.rows);
    else if (src == (size_t)ocol * s.rows + orow)
        tl_appendf(msg, len,
                   "it was read from index r*rows + c. in has %d columns, so in[r][c] is at index "
                   "r*cols + c: rows and cols swapped in the input index?\n",
                   s.cols);
    else
        tl_appendf(msg, len, "out[%d][%d] should hold in[%d][%d].\n", orow, ocol, ocol, orow);
    return 0;
}

/* An element that holds nothing of in: never written, or written from shared memory nobody wrote. */
static int is_hole(float x, int shared_too)
{
    uint32_t bits = tl_float_bits(x);
    return bits == TL_POISON_BITS || (shared_too && bits == TL_SHARED_POISON_BITS);
}

/* tl_unwritten_tail, for holes of either kind when shared_too. */
static int hole_tail(const float *out, int orows, int ocols, int shared_too, int *strip_rows,
                     int *strip_cols)
{
    int r0 = orows, c0 = ocols;
    for (; r0 > 0; r0--) {
        int c = 0;
        while (c < ocols && is_hole(out[(size_t)(r0 - 1) * ocols + c], shared_too))
            c++;
        if (c < ocols)
            break;
    }
    for (; c0 > 0; c0--) {
        int r = 0;
        while (r < r0 && is_hole(out[(size_t)r * ocols + c0 - 1], shared_too))
            r++;
        if (r < r0)
            break;
    }
    *strip_rows = orows - r0;
    *strip_cols = ocols - c0;
    if (r0 == 0 || c0 == 0 || (r0 == orows && c0 == ocols))
        return 0;
    for (int r = 0; r < r0; r++)
        for (int c = 0; c < c0; c++)
            if (is_hole(out[(size_t)r * ocols + c], shared_too))
                return 0;
    return 1;
}

int tl_unwritten_tail(const float *out, int orows, int ocols, int *strip_rows, int *strip_cols)
{
    return hole_tail(out, orows, ocols, 0, strip_rows, strip_cols);
}

/* Every element of got whose source lies in in holds it, as tl_tiles_left_in_place says, for tiles of t. */
static int tiles_in_place(const float *got, const float *in, int rows, int cols, int t)
{
    for (int r = 0; r < cols; r++)
        for (int c = 0; c < rows; c++) {
            int sr = r / t * t + c % t, sc = c / t * t + r % t;
            uint32_t bits = tl_float_bits(got[(size_t)r * rows + c]);
            if (sr < rows && sc < cols && bits != TL_POISON_BITS &&
                bits != tl_float_bits(in[(size_t)sr * cols + sc]))
                return 0;
        }
    return 1;
}

int tl_tiles_left_in_place(const float *got, const float *in, int rows, int cols, size_t first)
{
    size_t total = (size_t)rows * cols, src = tl_find_bits(in, total, tl_float_bits(got[first]));
    int r = (int)(first / (size_t)rows), c = (int)(first % (size_t)rows);
    if (src == total)
        return 0;
    /* (r, c) got (sr, sc) = (R t + c mod t, C t + r mod t): sr - c = r - sc = (R - C) t. */
    int sr = (int)(src / (size_t)cols), sc = (int)(src % (size_t)cols), d = abs(sr - c);
    if (d == 0 || sr - c != r - sc)
        return 0;
    for (int t = d; t >= 2; t--)
        if (d % t == 0 && (t < rows || t < cols) && tiles_in_place(got, in, rows, cols, t))
            return t;
    return 0;
}

/* One side of in, as the tail hints name it: its rows (the grid's y) or its columns (x). */
typedef struct {
    const char *name, *size_name, *index, *in_out; /* "row", "rows", "r", out's name for it */
    char axis;
    int size, strip;                               /* in's rows or cols; how many at its end hold nothing */
} side;

/*
 * Where launch l's grid ends along a side, in elements of in: its blocks
 * times what each covers, in the ways a kernel may use a block (way 0, 1,
 * ...): one element a thread (block.x across, block.y down), or a square
 * tile of block.x a side, which block.y rows of threads may cover down in
 * steps. -1 past the last way. *macro: the lab's word for what each block
 * covers (words).
 */
static long span_of(const tl_launch *l, char axis, int way, unsigned *per_block, const char **macro,
                    const tl_lab_words *w)
{
    if (axis == 'x') {
        *per_block = l->block[0];
        *macro = w->tile;
        return way == 0 ? (long)l->grid[0] * l->block[0] : -1;
    }
    *per_block = way ? l->block[0] : l->block[1];
    *macro = way || l->block[1] == l->block[0] ? w->tile : w->block_rows;
    return way < 2 ? (long)l->grid[1] * *per_block : -1;
}

/*
 * The elements at the end of one side of in never reached out (holes: 0
 * never written, 1 written from shared memory nobody wrote, 2 both): the
 * launches say whether the grid stops there, or reaches past them and the
 * bounds tests do not let their threads through. A grid whose blocks end
 * exactly where the holes begin stops short, unless, read the other way a
 * block may be used, it is exactly the grid rounded up (blocks of block.y
 * rows of threads, one element each, rounded down, and blocks over a tile
 * of block.x a side, rounded up, can be one launch): then the hint gives
 * both readings.
 */
static void hint_tail_on_gpu(char *msg, size_t len, const side *sd, int holes, const tl_lab_words *w)
{
    int reached = sd->size - sd->strip, n = tl_launch_count(), covers = n > 0;
    const tl_launch *l = NULL, *stops = NULL;
    unsigned stop_per_block = 0, cover_per_block = 0;
    const char *stop_macro = NULL;
    for (int i = 0; i < n && i < TL_MAX_LAUNCHES; i++) {
        unsigned per_block;
        const char *macro;
        long span, most = 0;
        l = tl_launch_get(i);
        for (int way = 0; (span = span_of(l, sd->axis, way, &per_block, &macro, w)) >= 0; way++) {
            unsigned blocks = sd->axis == 'x' ? l->grid[0] : l->grid[1];
            if (span == reached && !stops)
                stops = l, stop_per_block = per_block, stop_macro = macro;
            else if (span >= sd->size && blocks == (sd->size + per_block - 1) / per_block)
                cover_per_block = per_block;
            if (span > most)
                most = span;
        }
        covers = covers && most >= sd->size;
    }
    if (stops && !cover_per_block) {
        tl_appendf(msg, len,
                   "  hint: the grid stops short of in's last %d %s(s) (out's last %d %s(s)): its "
                   "%u block(s) in %c, %u %ss each, reach %d of in's %d %ss. Round the number of "
                   "blocks up, (%s + %s - 1) / %s for %c, and let each thread check %s < %s before "
                   "it touches memory. (A launch of whole tiles only, rounded down on purpose for a "
                   "kernel without bounds tests, needs a second launch for what it leaves, in every "
                   "shape that leaves some: here in's last %d %s(s).)\n",
                   sd->strip, sd->name, sd->strip, sd->in_out,
                   sd->axis == 'x' ? stops->grid[0] : stops->grid[1], sd->axis, stop_per_block,
                   sd->name, reached, sd->size, sd->name, sd->size_name, stop_macro, stop_macro,
                   sd->axis, sd->index, sd->size_name, sd->strip, sd->name);
        return;
    }
    tl_appendf(msg, len, "  hint: out's last %d %s(s), where in's last %d %s(s) belong, ", sd->strip,
               sd->in_out, sd->strip, sd->name);
    if (stops) {
        tl_appendf(msg, len,
                   "%s, and your grid, (%u, %u) blocks of (%u, %u) threads, can be read two ways. "
                   "If each thread moves one element, its blocks, %u %ss each, reach %d of in's %d "
                   "%ss: the grid stops short, and (%s + %s - 1) / %s blocks in %c cover them. If "
                   "each block covers a tile of %u %ss, it reaches past them, and the bounds test "
                   "stops their threads: %s < %s, not %s < %s - 1.\n",
                   holes ? "hold nothing of in" : "were never written", stops->grid[0],
                   stops->grid[1], stops->block[0], stops->block[1], stop_per_block, sd->name,
                   reached, sd->size, sd->name, sd->size_name, stop_macro, stop_macro, sd->axis,
                   cover_per_block, sd->name, sd->index, sd->size_name, sd->index, sd->size_name);
        return;
    }
    if (!covers) {
        char rows_too[160] = "";
        if (sd->axis == 'y')
            snprintf(rows_too, sizeof rows_too, ", or %s for blocks of %s rows that each move one element",
                     w->block_rows, w->block_rows);
        tl_appendf(msg, len,
                   "%s: either the grid stops short of them (round the number of blocks up, "
                   "(%s + %s - 1) / %s for %c%s) or the bounds test does (%s < %s, "
                   "not %s < %s - 1).\n",
                   holes ? "hold nothing of in" : "were never written", sd->size_name, w->tile, w->tile,
                   sd->axis, rows_too, sd->index, sd->size_name, sd->index, sd->size_name);
        return;
    }
    if (holes == 1)
        tl_appendf(msg, len,
                   "were stored from shared memory nobody wrote, and your grid, (%u, %u) blocks of "
                   "(%u, %u) threads, reaches past them: their threads stored, but no thread had "
                   "loaded those elements into the tile. The load's bounds test stops short of the "
                   "store's: when loading, the %s index of in must be tested against %s (%s < %s; "
                   "not %s < %s - 1, nor against %s), as it is when storing.\n",
                   l->grid[0], l->grid[1], l->block[0], l->block[1], sd->name, sd->size_name,
                   sd->index, sd->size_name, sd->index, sd->size_name,
                   sd->axis == 'y' ? "cols" : "rows");
    else
        tl_appendf(msg, len,
                   "%s, yet your grid, (%u, %u) blocks of (%u, %u) threads, reaches past them, so "
                   "the grid is not what falls short: their threads ran and stored nothing there. "
                   "Either the bounds test stops them (the %s index of in must be tested against "
                   "%s: %s < %s; not %s < %s - 1, nor against %s), or the store's indices send "
                   "their elements elsewhere. A tiled kernel tests the bounds twice, when it loads "
                   "the tile and when it stores it, where in's %s is out's %s.\n",
                   holes ? "hold nothing of in" : "were never written", l->grid[0], l->grid[1],
                   l->block[0], l->block[1], sd->name, sd->size_name, sd->index, sd->size_name,
                   sd->index, sd->size_name, sd->axis == 'y' ? "cols" : "rows", sd->name,
                   sd->in_out);
}

/*
 * A tail left by a grid whose x and y are swapped (tl_grid_swapped): x
 * counted over in's rows, y over its columns, each rounded up, in either
 * way a kernel may use a block down y (span_of). 1 when it told so.
 */
static int hint_swapped_grid(char *msg, size_t len, tl_shape s, const tl_lab_words *w)
{
    const tl_launch *l = tl_launch_count() > 0 ? tl_launch_get(0) : NULL;
    unsigned per_y;
    const char *macro;
    for (int way = 0; l && span_of(l, 'y', way, &per_y, &macro, w) >= 0; way++) {
        if (!tl_grid_swapped(l, s.cols, s.rows, per_y))
            continue;
        tl_appendf(msg, len,
                   "  hint: your grid, (%u, %u) blocks of (%u, %u) threads, has its x and y "
                   "swapped: %u blocks in x, as many as in's rows = %d need, and %u in y, as many "
                   "as its cols = %d need. x runs along a row of in, across its cols columns (c = "
                   "blockIdx.x * blockDim.x + threadIdx.x), and y down its rows: dim3 grid((cols + "
                   "%s - 1) / %s, (rows + %s - 1) / %s). As it is, the grid reaches "
                   "%ld of in's %d rows and %ld of its %d columns; both are rounded up, so rounding "
                   "is not what falls short.\n",
                   l->grid[0], l->grid[1], l->block[0], l->block[1], l->grid[0], s.rows,
                   l->grid[1], s.cols, w->tile, w->tile, macro, macro, (long)l->grid[1] * per_y, s.rows,
                   (long)l->grid[0] * l->block[0], s.cols);
        return 1;
    }
    return 0;
}

/* Whether index i of a side is one that blockIdx * stride + threadIdx reaches, in blocks
 * of `width` threads and `blocks` of them. */
static int strided_reaches(long i, unsigned stride, unsigned width, unsigned blocks)
{
    for (unsigned b = 0; b < blocks; b++)
        if (i >= (long)b * stride && i < (long)b * stride + width)
            return 1;
    return 0;
}

/*
 * Holes alone, in whole lines of out, exactly where a thread index built
 * with gridDim for blockDim puts none: c = blockIdx.x * gridDim.x +
 * threadIdx.x reaches, in each block, block.x columns starting gridDim.x
 * apart, overlapping or leaving gaps. Along x, out's rows (in's columns);
 * along y, out's columns (in's rows), in blocks of block.y rows or a
 * tile of block.x a side. 1 when it told so.
 */
static int hint_grid_stride(char *msg, size_t len, const float *out, tl_shape s, const tl_lab_words *w)
{
    const tl_launch *l = tl_launch_count() > 0 ? tl_launch_get(0) : NULL;
    if (!l || l->grid[2] != 1 || l->block[2] != 1)
        return 0;
    int orows = s.cols, ocols = s.rows;
    for (int way = 0; way < 3; way++) {
        char axis = way == 0 ? 'x' : 'y';
        unsigned stride = axis == 'x' ? l->grid[0] : l->grid[1];
        unsigned width = way == 0 ? l->block[0] : way == 1 ? l->block[1] : l->block[0];
        unsigned blocks = stride;
        /* The blocks' own stride, blockDim or a tile: where it reaches the same lines, the
         * written ones tell nothing of the formula (one block, or a grid too short for it). */
        unsigned own = way == 1 ? l->block[1] : l->block[0];
        int size = axis == 'x' ? s.cols : s.rows, missed = 0, ok = stride != width, differ = 0;
        if (way == 2 && l->block[0] == l->block[1])
            break;
        for (int i = 0; ok && i < size; i++) {
            int reached = strided_reaches(i, stride, width, blocks), holes = 0;
            int line = axis == 'x' ? ocols : orows; /* the elements of in's column or row i */
            for (int j = 0; j < line; j++)
                holes += tl_float_bits(axis == 'x' ? out[(size_t)i * ocols + j]
                                                   : out[(size_t)j * ocols + i]) == TL_POISON_BITS;
            ok = reached ? holes < line : holes == line;
            missed += !reached;
            differ += reached != strided_reaches(i, own, width, blocks);
        }
        if (!ok || !missed || !differ)
            continue;
        const char *dim = axis == 'x' ? "x" : "y", *what = axis == 'x' ? "column" : "row";
        tl_appendf(msg, len,
                   "  hint: the %ss of in that reached out are exactly those that blockIdx.%s * "
                   "gridDim.%s + threadIdx.%s gives: each block's %u %ss start gridDim.%s = %u "
                   "apart, not %s = %u, so %s, and %d of in's %d %ss no thread reaches. The grid "
                   "is not what falls short, nor the bounds test: a thread's %s is blockIdx.%s * "
                   "%s + threadIdx.%s (gridDim is the number of blocks, blockDim the threads in "
                   "one).\n",
                   what, dim, dim, dim, width, what, dim, stride,
                   way == 0 ? "blockDim.x" : way == 1 ? "blockDim.y" : w->tile, own,
                   stride < width ? "neighbouring blocks overlap" : "gaps lie between blocks",
                   missed, size, what, axis == 'x' ? "c" : "r", dim,
                   way == 0 ? "blockDim.x" : way == 1 ? "blockDim.y" : w->tile, dim);
        return 1;
    }
    return 0;
}

/*
 * Nothing of out was written, and transpose left no TODO: it ran and
 * stored nothing. On a GPU the launches say whether a kernel ran; a matrix
 * of one row or column has a single index there, which a bound off by one
 * excludes.
 */
static void hint_nothing_written(char *msg, size_t len, tl_shape s, int on_gpu, const tl_lab_words *w)
{
    int n = on_gpu ? tl_launch_count() : 0;
    if (on_gpu && n == 0) {
        tl_appendf(msg, len, "  hint: out was not written at all, and transpose launched no "
                             "kernel: launch yours with kernel<<<grid, block>>>(...).\n");
        return;
    }
    if (on_gpu) {
        const tl_launch *l = tl_launch_get(0);
        tl_appendf(msg, len,
                   "  hint: out was not written at all, yet transpose launched %s (%s%s) on a grid "
                   "of (%u, %u) blocks of (%u, %u) threads: they ran, and none stored anything.",
                   n > 1 ? "kernels" : "its kernel", n > 1 ? "the first " : "",
                   l->kernel[0] ? l->kernel : "unnamed", l->grid[0], l->grid[1], l->block[0],
                   l->block[1]);
    } else {
        tl_appendf(msg, len, "  hint: out was not written at all, though transpose has no TODO "
                             "left: it ran and stored nothing.");
    }
    /* A single row, column or element: its one index, the bound that excludes it, the one that does not. */
    const char *what = NULL, *index = NULL, *off = NULL, *right = NULL;
    if (s.rows == 1 && s.cols == 1) {
        what = "element", index = "r and c are";
        off = "r < rows - 1 or c < cols - 1", right = "r < rows && c < cols";
    } else if (s.rows == 1) {
        what = "row", index = "r is", off = "r < rows - 1", right = "r < rows";
    } else if (s.cols == 1) {
        what = "column", index = "c is", off = "c < cols - 1", right = "c < cols";
    }
    if (what)
        tl_appendf(msg, len,
                   " This matrix has a single %s (rows=%d, cols=%d), so %s 0 for every element "
                   "of it: a bound such as %s (or a loop that starts at 1) lets nothing through, "
                   "where %s does.",
                   what, s.rows, s.cols, index, off, right);
    else if (on_gpu)
        tl_appendf(msg, len, " Check the test made before each store (r < rows && c < cols), and "
                             "that the store writes to out.");
    else
        tl_appendf(msg, len, " Check where each loop starts and stops (r from 0 while r < rows, c "
                             "from 0 while c < cols), and that the store writes to out.");
    /* A CPU loop over whole blocks only (rows / BLOCK of them, rounded down) has none in a
     * matrix narrower or shorter than a block, with every bound right: the same nothing,
     * another mistake (lab 2's 7 x 7 under BLOCK 32). The checker does not know BLOCK. */
    if (!on_gpu && w && w->cpu_block)
        tl_appendf(msg, len,
                   " Or, in a blocked loop, the blocks stop short of the edge: one that visits "
                   "whole blocks only (rows / %s of them, rounded down) has none when rows or cols "
                   "is less than %s, as in a matrix this small. Blocks must cover the edge: round "
                   "the number of blocks up and stop each block at min(start + %s, size).",
                   w->cpu_block, w->cpu_block, w->cpu_block);
    tl_appendf(msg, len, "\n");
}

int tl_launched_tile(int on_gpu)
{
    return on_gpu && tl_launch_count() > 0 ? (int)tl_launch_get(0)->block[0] : 0;
}

/* The threads of the first launch's blocks (0: no launch, or not on a GPU; then taken as many). */
static unsigned long long launched_threads(int on_gpu)
{
    const tl_launch *l = on_gpu && tl_launch_count() > 0 ? tl_launch_get(0) : NULL;
    return l ? (unsigned long long)l->block[0] * l->block[1] * l->block[2] : 1024;
}

/*
 * Elements of out that hold shared memory nobody wrote, and no tail
 * explains them. A missing barrier shows in every tile; where only the
 * tiles on the matrix's edge show it (their side the launch's block.x),
 * the barrier works for full tiles, and what differs at the edge is the
 * threads outside the matrix: they skip a barrier inside the bounds test,
 * or the load's bounds leave out elements the store reads.
 */
static void hint_shared(char *msg, size_t len, const scan *sc, const float *out, const float *in,
                        tl_shape s, int on_gpu)
{
    int t = tl_launched_tile(on_gpu);
    int full = t > 0 ? s.rows / t * t : 0, full_cols = t > 0 ? s.cols / t * t : 0;
    size_t inside = 0; /* wrong elements of any kind in the full tiles */
    for (int r = 0; r < full_cols && t > 0; r++) /* out's row r is in's column r */
        for (int c = 0; c < full; c++)
            inside += tl_float_bits(out[(size_t)r * s.rows + c]) !=
                      tl_float_bits(in[(size_t)c * s.cols + r]);
    if (full > 0 && full_cols > 0 && inside == 0)
        tl_appendf(msg, len,
                   "  hint: %zu element(s) of out hold shared memory nobody wrote, all in the tiles "
                   "on the matrix's edge (%d x %d tiles: your blocks are %d threads wide), where "
                   "some of a block's threads fall outside the matrix; the full tiles came out "
                   "right, so their __syncthreads() is there. At the edge, either the threads "
                   "outside the matrix skip the barrier (a __syncthreads() inside the bounds "
                   "test's if, or after a return), so the others no longer wait for the whole "
                   "tile, or the store reads tile elements the load left out (the load's and the "
                   "store's bounds tests must let the same elements of in through). Every thread "
                   "of a block must reach the same __syncthreads(): put it outside any if.\n",
                   sc->from_shared, t, t, t);
    else if (launched_threads(on_gpu) > 32)
        tl_appendf(msg, len,
                   "  hint: %zu element(s) of out hold shared memory nobody wrote: a thread read its "
                   "tile element before any thread had stored it. A __syncthreads() missing "
                   "between filling the tile and reading it does this (or a __syncwarp(), where "
                   "only the lanes of one warp share the tile), and so do one that some "
                   "threads skip (inside an if, or after a return) and a store that reads tile "
                   "elements the load never filled (bounds or indices that differ between the "
                   "two).\n",
                   sc->from_shared);
    else /* a block of one warp: its lanes meet at __syncwarp() */
        tl_appendf(msg, len,
                   "  hint: %zu element(s) of out hold shared memory nobody wrote: a thread read its "
                   "tile element before any thread had stored it. Your blocks are a single warp, "
                   "whose lanes are not bound to run in step (Volta and later GPUs): a "
                   "__syncwarp() missing between filling the tile and reading it does this, and so "
                   "does a store that reads tile elements the load never filled (bounds or "
                   "indices that differ between the two).\n",
                   sc->from_shared);
}

/*
 * The first launch's block, where it explains every wrong element
 * (check_blocks.c): a block with fewer rows of threads than its tile, or
 * threads that returned before the store. 1 when it told so.
 */
static int hint_from_block(char *msg, size_t len, const float *out, const float *in, tl_shape s,
                           int on_gpu, const tl_lab_words *w)
{
    const tl_launch *l = on_gpu && tl_launch_count() > 0 ? tl_launch_get(0) : NULL;
    if (!l || l->block[2] != 1)
        return 0;
    unsigned t = l->block[0], by = l->block[1];
    if (tl_short_block(out, in, s.rows, s.cols, t, by)) {
        tl_appendf(msg, len,
                   "  hint: your blocks are (%u, %u) threads, and of each %u x %u tile only the "
                   "elements in its first %u rows and %u columns reached out: the kernel gives each "
                   "thread one element of a tile as tall as the block is wide, and the block has %u "
                   "rows of threads, so no thread loads the tile's other %u rows, and none stores "
                   "the rows of out they belong to. The barrier is not what is missing: each row "
                   "of the tile needs a thread that moves it, from a block with as many rows of "
                   "threads as the tile has, or from a loop over the tile's rows in steps of "
                   "blockDim.y.\n",
                   t, by, t, t, by, by, by, t - by);
        return 1;
    }
    /* A kernel whose tile is larger than the block launched: blocks t apart, each of
     * side x side threads, leave each tile's first side rows and columns alone moved. */
    unsigned side = t < by ? t : by;
    int reaches_past = (long)l->grid[0] * t >= s.cols && (long)l->grid[1] * by >= s.rows;
    for (unsigned tile = side + 1; reaches_past && side > 0 && tile <= 1024; tile++) {
        if (!tl_short_block(out, in, s.rows, s.cols, tile, side))
            continue;
        if ((int)tile < s.rows || (int)tile < s.cols)
            tl_appendf(msg, len,
                       "  hint: your blocks are (%u, %u) threads, and of each %u x %u tile only the "
                       "elements in its first %u rows and %u columns reached out: the kernel's "
                       "tile is %u a side (its blocks start %u elements apart, blockIdx * "
                       "%s), larger than the blocks you launched, so no thread moves the "
                       "rest of each tile. Neither the bounds test nor the store's indices stop "
                       "them: launch blocks of the kernel's own tile, dim3 block(%s, "
                       "%s) with the %s the kernel uses (one #define for both), and "
                       "a grid of (cols + %s - 1) / %s by (rows + %s - 1) / "
                       "%s.\n",
                       t, by, tile, tile, side, side, tile, tile, w->tile, w->tile, w->tile, w->tile,
                       w->tile, w->tile, w->tile, w->tile);
        else /* the matrix lies in one tile: its side does not show */
            tl_appendf(msg, len,
                       "  hint: your blocks are (%u, %u) threads and your grid reaches past the "
                       "matrix, yet only the elements in in's first %u rows and %u columns reached "
                       "out, the first block's alone: the kernel's tile is larger than the blocks "
                       "you launched (its blocks start more than %u elements apart, blockIdx * "
                       "%s), so no thread moves the rest. Launch blocks of the kernel's own "
                       "tile, dim3 block(%s, %s) with the %s the kernel uses "
                       "(one #define for both).\n",
                       t, by, side, side, side, w->tile, w->tile, w->tile, w->tile);
        return 1;
    }
    if (by == t && tl_returned_before_store(out, in, s.rows, s.cols, t)) {
        tl_appendf(msg, len,
                   "  hint: the elements of out never written are exactly those stored by a thread "
                   "that lies outside in when it loads: in a tiled transpose a thread stores "
                   "another element than the one it loads (out's row comes from blockIdx.x, in's "
                   "from blockIdx.y), so a thread outside in may still have an element of out to "
                   "store. It must not return before the store: test the bounds apart for the load "
                   "and for the store, each around its own access, and let every thread reach the "
                   "__syncthreads() between them.\n");
        return 1;
    }
    return 0;
}

/* The tiled transpose that left each tile at its own place (tl_tiles_left_in_place), told. */
static void hint_tiles_in_place(char *msg, size_t len, int t, int orow, int ocol, int on_gpu,
                                const tl_lab_words *w)
{
    int r0 = orow / t * t, c0 = ocol / t * t; /* out's tile, and in's at the same place */
    char swap[256];
    if (on_gpu)
        snprintf(swap, sizeof swap, "Swap the block's indices in the store too: out's row from blockIdx.x * "
                 "%s (plus threadIdx.y), its column from blockIdx.y * %s (plus threadIdx.x).", w->tile, w->tile);
    else
        snprintf(swap, sizeof swap, "Swap the block's offsets as well as the indices inside it.");
    tl_appendf(msg, len,
               "  hint: each %d x %d tile was transposed but left at its own place: out[%d][%d] "
               "got in[%d][%d], as the tile of in at rows %d.., columns %d.. came out, "
               "transposed, at rows %d.., columns %d.. of out. That place belongs to the tile of "
               "in at rows %d.., columns %d..: a tile crosses the diagonal as well as being "
               "transposed. %s\n",
               t, t, orow, ocol, r0 + ocol % t, c0 + orow % t, r0, c0, r0, c0, c0, r0, swap);
}

/*
 * A tail on the CPU whose written part ends exactly at the other dimension:
 * out's rows written up to rows (in's row count) where it has cols, or its
 * columns up to cols where it has rows. A loop bounded by the wrong size
 * leaves that; a bound off by one or a block not rounded up does not. 1 when
 * it told so.
 */
static int wrong_dimension(char *msg, size_t len, tl_shape s, int strip_rows, int strip_cols)
{
    int orows = s.cols, ocols = s.rows;
    if (strip_rows && !strip_cols && orows - strip_rows == s.rows)
        tl_appendf(msg, len,
                   "  hint: out's rows were written up to row %d and no further: as many as in has "
                   "rows (rows = %d), where out has cols = %d (one for each column of in). A loop "
                   "over in's columns (c, out's rows) is bounded by the wrong dimension: c < rows "
                   "where c < cols is meant.\n",
                   s.rows - 1, s.rows, s.cols);
    else if (strip_cols && !strip_rows && ocols - strip_cols == s.cols)
        tl_appendf(msg, len,
                   "  hint: out's columns were written up to column %d and no further: as many as "
                   "in has columns (cols = %d), where out has rows = %d (one for each row of in). "
                   "A loop over in's rows (r, out's columns) is bounded by the wrong dimension: "
                   "r < cols where r < rows is meant.\n",
                   s.cols - 1, s.cols, s.rows);
    else
        return 0;
    return 1;
}

static void explain(char *msg, size_t len, const scan *sc, const float *out, const float *in,
                    tl_shape s, int on_gpu, const tl_lab_words *w)
{
    int orows = s.cols, ocols = s.rows;
    size_t n = tl_shape_elements(s);
    int orow = (int)(sc->first / (size_t)ocols), ocol = (int)(sc->first % (size_t)ocols);
    char want[96], got[96];
    uint32_t got_bits = tl_float_bits(out[sc->first]);
    tl_describe_bits(want, sizeof want, tl_float_bits(in[(size_t)ocol * s.cols + orow]));
    tl_describe_bits(got, sizeof got, got_bits);
    tl_appendf(msg, len, "  %zu of %zu elements of out are wrong.\n", sc->wrong, n);
    tl_appendf(msg, len, "  first mismatch: out[%d][%d] should be in[%d][%d] = %s, got %s\n", orow,
               ocol, ocol, orow, want, got);

    if (sc->unwritten == n) {
        hint_nothing_written(msg, len, s, on_gpu, w);
        return;
    }
    if (sc->from_margin) {
        tl_appendf(msg, len,
                   "  hint: %zu elements came from outside in: an index ran past the end of in "
                   "(check the %s and the input index r*cols + c).\n",
                   sc->from_margin, on_gpu ? "bounds test" : "loops' bounds");
    }
    if (sc->same_value == sc->wrong) {
        tl_appendf(msg, len,
                   "  hint: the values are equal as numbers but not bit for bit (-0.0, NaN "
                   "payloads, denormals): move the float itself, do no arithmetic on it.\n");
        return;
    }
    /* Subnormals come out as 0 where arithmetic flushes them: a float atomicAdd in global
     * memory does on every GPU (the PTX ISA's atom and red), -ftz=true and fast maths too;
     * and a NaN comes out as the GPU's one NaN, whatever bits it had (the other_nan). */
    if (sc->flushed && sc->flushed + sc->other_nan == sc->wrong) {
        tl_appendf(msg, len,
                   "  hint: every wrong element is 0 where in holds a subnormal (denormal) float or "
                   "-0.0%s: the values went through arithmetic that flushes subnormals to zero, and "
                   "0 + -0.0 is +0%s. A float atomicAdd onto global memory flushes them on every GPU "
                   "(atom.add.f32, as the PTX ISA says), and so does arithmetic built with "
                   "-ftz=true or --use_fast_math. Move the float itself (out[...] = in[...]), with "
                   "no arithmetic on it.\n",
                   sc->other_nan ? ", or another NaN where in holds a NaN" : "",
                   sc->other_nan ? "; a GPU's arithmetic gives one NaN whatever NaN went in" : "");
        return;
    }
    if (hint_from_block(msg, len, out, in, s, on_gpu, w))
        return;
    int explained = 0;
    if (sc->has_valued) {
        int vrow = (int)(sc->first_valued / (size_t)ocols), vcol = (int)(sc->first_valued % (size_t)ocols);
        uint32_t bits = tl_float_bits(out[sc->first_valued]);
        int t = tl_tiles_left_in_place(out, in, s.rows, s.cols, sc->first_valued);
        if (sc->first_valued != sc->first) {
            tl_describe_bits(got, sizeof got, bits);
            tl_appendf(msg, len, "  first wrong value: out[%d][%d] got %s\n", vrow, vcol, got);
        }
        if ((explained = t > 0))
            hint_tiles_in_place(msg, len, t, vrow, vcol, on_gpu, w);
        else /* A swapped index is also what code that is right only for squares does: keep the note. */
            explained = hint_from_source(msg, len, in, s, vrow, vcol, bits);
    }
    /* Holes: elements that hold nothing of in, unwritten or from shared memory nobody wrote. */
    if (!explained && sc->unwritten + sc->from_shared == sc->wrong) {
        int holes = sc->from_shared == 0 ? 0 : sc->unwritten == 0 ? 1 : 2;
        int strip_rows, strip_cols;
        tl_appendf(msg, len, "  every wrong element %s; they lie in out rows %d..%d, columns "
                   "%d..%d.\n",
                   holes == 0 ? "was never written"
                   : holes == 1 ? "holds shared memory nobody wrote"
                                : "was never written or holds shared memory nobody wrote",
                   sc->min_row, sc->max_row, sc->min_col, sc->max_col);
        /* Within one tile, a tile read before it is filled leaves a strip like a load's short bound. */
        int tile = tl_launched_tile(on_gpu);
        int one_tile = s.rows <= tile && s.cols <= tile;
        int strided = on_gpu && holes == 0 && hint_grid_stride(msg, len, out, s, w);
        explained = !strided && (holes == 0 || !one_tile) &&
                    hole_tail(out, orows, ocols, 1, &strip_rows, &strip_cols);
        if (explained && on_gpu && !hint_swapped_grid(msg, len, s, w)) {
            side in_rows = {"row", "rows", "r", "column", 'y', s.rows, strip_cols};
            side in_cols = {"column", "cols", "c", "row", 'x', s.cols, strip_rows};
            if (strip_cols)
                hint_tail_on_gpu(msg, len, &in_rows, holes, w);
            if (strip_rows)
                hint_tail_on_gpu(msg, len, &in_cols, holes, w);
        } else if (explained && !on_gpu && !wrong_dimension(msg, len, s, strip_rows, strip_cols))
            tl_appendf(msg, len,
                       "  hint: that is the tail of the matrix (the last %d row(s) and %d column(s) "
                       "of out). Check where each loop stops: it must reach the last row and "
                       "column (r < rows, c < cols). A blocked or tiled loop must also cover sizes "
                       "that are not a multiple of the block: round the number of blocks up and "
                       "stop each block at min(start + %s, size).\n",
                       strip_rows, strip_cols, w->cpu_block);
        explained = explained || strided;
    }
    if (!explained && sc->from_shared) {
        hint_shared(msg, len, sc, out, in, s, on_gpu);
        explained = 1;
    }
    /* Squares-only code writes values of in to the wrong places: holes alone are something else. */
    if (s.rows != s.cols && !explained && sc->wrong > sc->unwritten + sc->from_shared + sc->from_margin)
        tl_appendf(msg, len,
                   "  note: this matrix is not square. in is %d x %d (row length %d); out is %d x %d "
                   "(row length %d). Code that is right only for squares mixes the two up.\n",
                   s.rows, s.cols, s.cols, s.cols, s.rows, s.rows);
}

/*
 * The writes past the end of a matrix taller than wide are `extra` whole
 * rows of out, each of rows floats, from its end on: c (in's column, out's
 * row) ran past cols, as far as rows or short of it. To rows exactly, out
 * was taken as rows x rows; short of it, a bound on rows that the end of a
 * block (a CPU loop's min(c0 + BLOCK, rows)) or of the grid (a kernel's
 * test c < rows) cut short; one row alone is as well a bound off by one
 * (c <= cols), which writes the same. The stores inside out are right in
 * all of them.
 */
static void hint_whole_rows_past(char *msg, size_t len, tl_shape s, int extra, int on_gpu,
                                 const tl_lab_words *w)
{
    int to = s.cols + extra; /* the first of out's rows not written */
    if (on_gpu) {
        /* The threads past in's last column stored: the store's test let them through. Where a
         * thread moves several elements (fewer threads in y than rows: a loop over a tile's rows), a
         * test made once before that loop does the same as one of the wrong dimension. */
        const tl_launch *l = tl_launch_count() > 0 ? tl_launch_get(0) : NULL;
        int looped = l && (unsigned long long)l->grid[1] * l->block[1] < (unsigned long long)s.rows;
        char upto[96];
        snprintf(upto, sizeof upto, to == s.rows ? "as if out had rows = %d rows" : "up to c = %d, where the grid's tiles end",
                 to == s.rows ? s.rows : to - 1);
        tl_appendf(msg, len, "  hint: the writes past the end fill out's ");
        if (extra == 1)
            tl_appendf(msg, len, "row %d exactly, one whole row of %d", s.cols, s.rows);
        else
            tl_appendf(msg, len, "rows %d..%d exactly, whole rows of %d, %s", s.cols, to - 1, s.rows, upto);
        tl_appendf(msg, len,
                   ": threads past in's last column (c >= cols = %d; c is out's row) stored, so the "
                   "store's bounds test let them through. A test on the wrong dimension, c < rows "
                   "where c < cols is meant, does that",
                   s.cols);
        if (looped)
            tl_appendf(msg, len, "%s does a test made once, before the loop over a tile's rows, where "
                                 "each element needs its own (out's row + j < cols for each j)",
                       extra == 1 ? ", so" : ", and so");
        if (extra == 1)
            tl_appendf(msg, len, ", and so does one off by one (c <= cols where c < cols is meant)");
        tl_appendf(msg, len, ".\n");
        return;
    }
    const char *block = w && w->cpu_block ? w->cpu_block : "BLOCK";
    char where[256] = "";
    if (to < s.rows)
        snprintf(where, sizeof where, ", %s at c = %d %s the last block of columns ends%s "
                 "(min(c0 + %s, rows) where min(c0 + %s, cols) is meant)",
                 extra == 1 ? "stopped" : "cut short", to - 1, extra == 1 ? "if" : "where",
                 extra == 1 ? " there" : "", block, block);
    if (extra == 1)
        tl_appendf(msg, len,
                   "  hint: the writes past the end fill out's row %d exactly, one whole row of %d: "
                   "the loop over in's columns (c, out's rows) stored at c = %d, one past in's "
                   "last column (c = %d). A bound off by one (c <= cols where c < cols is meant) "
                   "does that, and so, in a matrix with more rows than columns, does a bound on "
                   "the wrong dimension, c < rows where c < cols is meant%s.\n",
                   s.cols, s.rows, s.cols, s.cols - 1, where);
    else
        tl_appendf(msg, len,
                   "  hint: the writes past the end fill out's rows %d..%d exactly, whole rows of "
                   "%d: out was written as if it had %s%d rows, where it has cols = %d (one for "
                   "each column of in). A loop or index over in's columns (c, out's rows) runs "
                   "past cols towards rows: a bound on the wrong dimension, c < rows where c < "
                   "cols is meant%s.\n",
                   s.cols, to - 1, s.rows, to == s.rows ? "rows = " : "", to, s.cols, where);
}

void tl_check_transpose(tl_verdict *v, tl_transpose_fn fn, const tl_backend *backend, tl_shape s,
                        uint64_t seed, const tl_lab_words *words)
{
    size_t n = tl_shape_elements(s);
    tl_matrix in = {NULL, NULL, 0}, out = in, pristine = in;
    char *msg = v->message;
    size_t len = sizeof v->message;
    memset(v, 0, sizeof *v);

    tl_appendf(msg, len, "transpose of a %d x %d matrix (rows=%d, cols=%d) on the %s (TILELAB_SEED=%llu):\n",
               s.rows, s.cols, s.rows, s.cols, backend->name, (unsigned long long)seed);
    if (tl_matrix_alloc(&in, n) || tl_matrix_alloc(&out, n) || tl_matrix_alloc(&pristine, n)) {
        tl_appendf(msg, len, "  not enough host memory for three %zu-element matrices\n", n);
        goto done;
    }
    /* Each shape its own values, all from the one seed a person can set. */
    tl_fill_random(in.data, n, seed ^ ((uint64_t)s.rows << 32) ^ (uint64_t)s.cols);
    tl_matrix_fill_margins(&in, TL_MARGIN_BITS);
    memcpy(pristine.base, in.base, tl_matrix_total(&in) * sizeof(float));
    tl_fill_bits(out.data, n, TL_POISON_BITS);
    tl_matrix_fill_margins(&out, TL_GUARD_BITS);

    tl_todo_reset();
    char why[4096] = "";
    int ran = backend->run(tl_call_of(TL_CALL_TRANSPOSE), (tl_entry_fn)fn, (tl_matrix *[]){&out, &in},
                           s, why, sizeof why);
    const char *todo = tl_note_run(msg, len, ran, why);
    v->run_failed = ran != 0;
    if (ran != 0)
        goto done;

    scan sc;
    scan_output(&sc, out.data, pristine.data, s);
    v->wrong = sc.wrong;

    size_t before, after, last_before, first_after;
    tl_scan_margins(&out, TL_GUARD_BITS, &before, &after, &last_before, &first_after);
    char counted[96];
    if (after) {
        tl_count_guarded(counted, sizeof counted, after);
        tl_appendf(msg, len,
                   "  wrote %s past the end of out, the nearest at out index %zu "
                   "(%zu past its last element, out[%zu]): out has cols*rows = %zu elements.\n",
                   counted, n + first_after, first_after + 1, n - 1, n);
        /* Holes beside writes past the end: the threads that stored are not the ones that
         * should have, which neither a bound one too far nor a missing test does (both only
         * add stores). */
        /* On a GPU the holes may be the stores' bounds test's; where the values written say the
         * output index has in's row length (the next hint's swapped index), the index is. */
        /* The values written past the end say it as well as those inside (a 1 x n matrix has
         * none inside: its one element of each column of out is in place). */
        int index_swapped = (sc.has_valued &&
                             stored_with_in_row_length(pristine.data, s, sc.first_valued,
                                                       tl_float_bits(out.data[sc.first_valued]))) ||
                            (first_after < TL_MARGIN &&
                             stored_with_in_row_length(pristine.data, s, n + first_after,
                                                       tl_float_bits(out.data[n + first_after])));
        if ((sc.unwritten || sc.from_shared) && (!backend->on_gpu || index_swapped))
            tl_appendf(msg, len,
                       "  hint: out also has %zu element(s) that your %s never stored: they "
                       "stored past the end and skipped elements inside out, so the output index "
                       "does not walk out's cols x rows elements once each (out[c * rows + r] for "
                       "r < rows, c < cols). A stride of the wrong dimension does that.\n",
                       sc.unwritten + sc.from_shared, backend->on_gpu ? "threads" : "loops");
        else if (sc.unwritten || sc.from_shared)
            tl_appendf(msg, len,
                       "  hint: out also has %zu element(s) that no thread stored%s: threads stored "
                       "past the end and skipped elements inside out, so the stores' bounds test "
                       "does not match the elements they write. A tiled kernel's store writes the "
                       "element of its block's swapped coordinates: out[y * rows + x] with x < rows "
                       "&& y < cols, not the test of the load (x < cols && y < rows, the element "
                       "of in), which it may not reuse.\n",
                       sc.unwritten + sc.from_shared,
                       sc.from_shared ? " or that hold a tile element no thread had loaded" : "");
        else if (s.rows > s.cols && first_after == 0 && after < TL_MARGIN &&
                 after % (size_t)s.rows == 0 && (size_t)s.cols + after / s.rows <= (size_t)s.rows)
            hint_whole_rows_past(msg, len, s, (int)(after / (size_t)s.rows), backend->on_gpu, words);
        else
            tl_appendf(msg, len,
                       "  hint: a loop bound off by one (<= instead of <), or a missing bounds "
                       "check in the last block or tile%s.\n",
                       after < TL_MARGIN ? "" : "; writes that far past the end are more likely an "
                                                "index that runs over the wrong size (rows for cols?)");
    }
    if (before) {
        tl_count_guarded(counted, sizeof counted, before);
        tl_appendf(msg, len,
                   "  wrote %s before the start of out (as far as %zu before out[0]).\n"
                   "  hint: a negative index, or an int that overflowed (use size_t for r*cols + c).\n",
                   counted, last_before);
    }

    int in_changed = memcmp(in.base, pristine.base, tl_matrix_total(&in) * sizeof(float)) != 0;
    /* Writes that run off out go on into the memory around it, where in may lie: then in's
     * change is theirs, not a write meant for in. They show past out's ends, or in front of
     * in's data, where no index of in reaches. */
    size_t in_before = tl_find_not_bits(in.base, TL_MARGIN, TL_MARGIN_BITS) != TL_MARGIN;
    if (in_changed && (after || before || in_before))
        tl_appendf(msg, len, "  in was changed too: most likely by the same writes, run on past "
                             "out into in, which lies beside it in memory. Keep every store "
                             "inside out and in will stay as it was.\n");
    else if (in_changed)
        tl_appendf(msg, len, "  in was changed: it is const, the input to read. Write only to out.\n");

    if (sc.wrong && todo)
        tl_appendf(msg, len, "  %zu of %zu elements of out are wrong.\n", sc.wrong, n);
    else if (sc.wrong)
        explain(msg, len, &sc, out.data, pristine.data, s, backend->on_gpu, words);
    v->ok = sc.wrong == 0 && !after && !before && !in_changed;
    v->ok_but_nan_bits = !v->ok && sc.wrong == sc.other_nan && !after && !before && !in_changed;

done:
    if (v->ok)
        msg[0] = '\0';
    tl_matrix_free(&in);
    tl_matrix_free(&out);
    tl_matrix_free(&pristine);
}
