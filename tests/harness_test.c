/*
 * The harness's own tests: parsing, fill, statistics, and the checker
 * against planted mistakes, each of which must fail with a message that
 * points at it.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "lab.h"
#include "lab_words.h"
#include "launch.h"
#include "matrix.h"
#include "shapes.h"
#include "timer.h"

/* The unit tests link no lab file; the checker needs a transpose symbol. */
void transpose(float *out, const float *in, int rows, int cols)
{
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

/* ------------------------------------------------------------ parsing */

Test(shapes, parses_squares_and_rectangles)
{
    tl_shape s;
    char why[256];
    cr_assert_eq(tl_parse_shape("4096", &s, why, sizeof why), 0);
    cr_assert(s.rows == 4096 && s.cols == 4096);
    cr_assert_eq(tl_parse_shape("4097x8191", &s, why, sizeof why), 0);
    cr_assert(s.rows == 4097 && s.cols == 8191);
    cr_assert_eq(tl_parse_shape("1X7", &s, why, sizeof why), 0);
    cr_assert(s.rows == 1 && s.cols == 7 && s.depth == 7);
    cr_assert_eq(tl_parse_shape("1000x2000x300", &s, why, sizeof why), 0);
    cr_assert(s.rows == 1000 && s.cols == 2000 && s.depth == 300);
    cr_assert_eq(tl_parse_shape("2000", &s, why, sizeof why), 0);
    cr_assert(s.depth == 2000);
}

Test(shapes, rejects_what_is_not_a_size)
{
    static const char *bad[] = {"0", "-5", "foo", "", "12x", "x12", "3x0", "1.5", "4096x-1", "10 0", "1x2x3x4", "2x3x"};
    tl_shape s;
    char why[256];
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        cr_assert_eq(tl_parse_shape(bad[i], &s, why, sizeof why), -1, "'%s' was accepted", bad[i]);
        cr_assert(strstr(why, "not a size"), "reason for '%s': %s", bad[i], why);
    }
    cr_assert_eq(tl_parse_shape("99999999", &s, why, sizeof why), -1);
    cr_assert(strstr(why, "too large"), "%s", why);
}

Test(shapes, parses_lists)
{
    tl_shape s[8];
    char why[256];
    cr_assert_eq(tl_parse_shapes("1,2x3,4", s, 8, why, sizeof why), 3);
    cr_assert(s[1].rows == 2 && s[1].cols == 3 && s[2].cols == 4);
    cr_assert_eq(tl_parse_shapes("1,,", s, 8, why, sizeof why), 1);
    cr_assert_eq(tl_parse_shapes("", s, 8, why, sizeof why), -1);
    cr_assert_eq(tl_parse_shapes("1,2,3", s, 2, why, sizeof why), -1);
    cr_assert_eq(tl_parse_shapes("1,nope", s, 8, why, sizeof why), -1);
}

Test(shapes, counts_are_strict)
{
    long v;
    cr_assert_eq(tl_parse_count("12", 100, &v), 0);
    cr_assert_eq(v, 12);
    cr_assert_eq(tl_parse_count("-1", 100, &v), -1);
    cr_assert_eq(tl_parse_count("12a", 100, &v), -1);
    cr_assert_eq(tl_parse_count("101", 100, &v), -1);
    cr_assert_eq(tl_parse_count("", 100, &v), -1);
}

Test(shapes, seed_from_environment)
{
    uint64_t seed;
    char why[256];
    unsetenv("TILELAB_SEED");
    cr_assert_eq(tl_seed(&seed, why, sizeof why), 0);
    cr_assert_eq(seed, TL_DEFAULT_SEED);
    setenv("TILELAB_SEED", "0x2a", 1);
    cr_assert_eq(tl_seed(&seed, why, sizeof why), 0);
    cr_assert_eq(seed, 42);
    setenv("TILELAB_SEED", "forty-two", 1);
    cr_assert_eq(tl_seed(&seed, why, sizeof why), -1);
    cr_assert(strstr(why, "TILELAB_SEED='forty-two' is not a whole number"), "%s", why);
    setenv("TILELAB_SEED", "-5", 1); /* strtoull would take it as 2^64 - 5 */
    cr_assert_eq(tl_seed(&seed, why, sizeof why), -1);
    cr_assert(strstr(why, "TILELAB_SEED='-5' is out of range"), "%s", why);
    setenv("TILELAB_SEED", "99999999999999999999", 1);
    cr_assert_eq(tl_seed(&seed, why, sizeof why), -1);
    cr_assert(strstr(why, "out of range"), "%s", why);
}

Test(shapes, random_shapes_follow_the_seed)
{
    uint64_t a = 7, b = 7, c = 8;
    int differs = 0;
    for (int i = 0; i < 32; i++) {
        tl_shape x = tl_random_shape(&a, 1500), y = tl_random_shape(&b, 1500),
                 z = tl_random_shape(&c, 1500);
        cr_assert(x.rows == y.rows && x.cols == y.cols);
        cr_assert(x.rows >= 1 && x.rows <= 1500 && x.cols >= 1 && x.cols <= 1500);
        differs |= x.rows != z.rows || x.cols != z.cols;
    }
    cr_assert(differs, "another seed must give other shapes");
}

/* ------------------------------------------------------------ fill, stats */

Test(matrix, fill_has_specials_and_no_reserved_nans)
{
    size_t n = 1 << 16, neg_zero = 0, denormal = 0, inf = 0, nan = 0;
    tl_matrix m;
    cr_assert_eq(tl_matrix_alloc(&m, n), 0);
    cr_assert_eq((uintptr_t)m.data % 4096, 0, "data must be page aligned");
    tl_fill_random(m.data, n, 1);
    for (size_t i = 0; i < n; i++) {
        uint32_t b = tl_float_bits(m.data[i]);
        float x = m.data[i];
        cr_assert(b != TL_POISON_BITS && b != TL_GUARD_BITS && b != TL_MARGIN_BITS);
        neg_zero += b == 0x80000000u;
        denormal += x != 0 && fpclassify(x) == FP_SUBNORMAL;
        inf += isinf(x);
        nan += isnan(x);
    }
    cr_assert(neg_zero && denormal && inf && nan, "-0: %zu, denormal: %zu, inf: %zu, NaN: %zu",
              neg_zero, denormal, inf, nan);
    tl_matrix_free(&m);
}

Test(timer, median_min_max)
{
    double t[] = {5, 1, 4, 2, 3};
    tl_stats s = tl_stats_of(t, 5);
    cr_assert(s.median == 3 && s.min == 1 && s.max == 5);
    double u[] = {4, 1, 3, 2};
    s = tl_stats_of(u, 4);
    cr_assert(s.median == 2.5);
}

Test(timer, quartiles_and_spread)
{
    double t[] = {9, 1, 5, 3, 7}; /* sorted 1 3 5 7 9: quartiles 3 and 7 */
    tl_stats s = tl_stats_of(t, 5);
    cr_assert(s.q1 == 3 && s.q3 == 7, "q1 %g q3 %g", s.q1, s.q3);
    cr_assert(fabs(tl_stats_spread(&s) - 0.8) < 1e-12, "spread %g", tl_stats_spread(&s));
    double one[] = {2};
    s = tl_stats_of(one, 1);
    cr_assert(s.q1 == 2 && s.q3 == 2 && tl_stats_spread(&s) == 0);
}

/* ------------------------------------------------------------ the checker */

/*
 * The planted mistakes below write and read a little outside the matrices,
 * as students' code does; the checker's guard zones and margins (TL_MARGIN
 * elements each side) are large enough to take it at these shapes.
 */

static tl_verdict verdict;

static void check(tl_transpose_fn fn, int rows, int cols)
{
    tl_shape s = {rows, cols, 1};
    tl_check_transpose(&verdict, fn, &tl_cpu_backend, s, 99, &tl_transpose_words);
}

static void expect_caught(tl_transpose_fn fn, int rows, int cols, const char *hint)
{
    check(fn, rows, cols);
    cr_assert(!verdict.ok, "a planted mistake passed on %dx%d", rows, cols);
    cr_assert(strstr(verdict.message, hint), "the message for %dx%d lacks \"%s\":\n%s", rows, cols,
              hint, verdict.message);
    char shape[32];
    snprintf(shape, sizeof shape, "%d x %d", rows, cols);
    cr_assert(strstr(verdict.message, shape), "the message must name the shape:\n%s",
              verdict.message);
}

Test(checker, accepts_a_correct_transpose)
{
    static const int shapes[][2] = {{1, 1}, {1, 9}, {9, 1}, {37, 53}, {64, 64}, {300, 7}};
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        check(transpose, shapes[i][0], shapes[i][1]);
        cr_assert(verdict.ok, "%s", verdict.message);
        cr_assert_eq(verdict.message[0], '\0');
    }
}

static void swapped_output_index(float *out, const float *in, int rows, int cols)
{
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            out[(size_t)c * cols + r] = in[(size_t)r * cols + c];
}

static void swapped_input_index(float *out, const float *in, int rows, int cols)
{
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            out[(size_t)c * rows + r] = in[(size_t)r * rows + c];
}

Test(checker, catches_rows_and_cols_swapped)
{
    expect_caught(swapped_output_index, 37, 53, "rows and cols swapped in the output index");
    expect_caught(swapped_output_index, 53, 37, "rows and cols swapped");
    expect_caught(swapped_input_index, 37, 53, "rows and cols swapped in the input index");
}

#define TAIL_BLOCK 16
static void skips_the_tail(float *out, const float *in, int rows, int cols)
{
    for (int r0 = 0; r0 + TAIL_BLOCK <= rows; r0 += TAIL_BLOCK)
        for (int c0 = 0; c0 + TAIL_BLOCK <= cols; c0 += TAIL_BLOCK)
            for (int r = r0; r < r0 + TAIL_BLOCK; r++)
                for (int c = c0; c < c0 + TAIL_BLOCK; c++)
                    out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

Test(checker, catches_a_skipped_tail)
{
    expect_caught(skips_the_tail, 40, 50, "tail of the matrix");
    expect_caught(skips_the_tail, 50, 32, "tail of the matrix");
    expect_caught(skips_the_tail, 33, 33, "tail of the matrix");
    /* Smaller than a block, it writes nothing: the hint names the blocks that stop short of
     * the edge, beside the bound off by one that writes nothing as well (lab 2's one_by_one
     * once said only "r < rows - 1 or a loop that starts at 1"). */
    expect_caught(skips_the_tail, 1, 1, "must cover the edge");
    expect_caught(skips_the_tail, 1, 1, "r < rows - 1 or c < cols - 1");
    expect_caught(skips_the_tail, 1, 9, "must cover the edge");
    /* Neither side 1: lab 2's around_block_edges 7 x 7 with BLOCK 32 said only "Check the test
     * made before each store (r < rows && c < cols)", a loop with every bound right. */
    expect_caught(skips_the_tail, 7, 7, "must cover the edge");
    expect_caught(skips_the_tail, 15, 9, "blocks stop short of the edge");
}

static void one_past_the_end(float *out, const float *in, int rows, int cols)
{
    transpose(out, in, rows, cols);
    out[(size_t)rows * cols] = 0;
}

static void one_before_the_start(float *out, const float *in, int rows, int cols)
{
    transpose(out, in, rows, cols);
    out[-1] = 0;
}

/* A tiled transpose whose store reuses the load's bounds test (x < cols && y < rows, the
 * element of in), where the store's own element has the block's coordinates swapped: at the
 * edges the wrong threads store, past the end, and the right ones do not. A tile element no
 * thread loaded is 0 here. */
static void store_reuses_the_loads_bounds(float *out, const float *in, int rows, int cols)
{
    enum { S = 8 };
    for (int by = 0; by < (rows + S - 1) / S; by++)
        for (int bx = 0; bx < (cols + S - 1) / S; bx++)
            for (int ty = 0; ty < S; ty++)
                for (int tx = 0; tx < S; tx++) {
                    if (!(bx * S + tx < cols && by * S + ty < rows))
                        continue;
                    int r = by * S + tx, c = bx * S + ty; /* tile[tx][ty]: in's (r, c) */
                    out[(size_t)(bx * S + ty) * rows + by * S + tx] =
                        r < rows && c < cols ? in[(size_t)r * cols + c] : 0.0f;
                }
}

/* for (c = 0; c < rows; c++): the inner loop bounded by the wrong dimension (a student's). */
static void inner_bound_on_rows(float *out, const float *in, int rows, int cols)
{
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < rows; c++)
            out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

/* for (r = 0; r < cols; r++): the outer one. */
static void outer_bound_on_cols(float *out, const float *in, int rows, int cols)
{
    for (int r = 0; r < cols && r < rows; r++)
        for (int c = 0; c < cols; c++)
            out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

/* A blocked loop whose inner bound is min(c0 + BLOCK, rows) (a student's lab 2): c runs past
 * cols until its block ends, short of rows. */
static void tile_bound_on_rows(float *out, const float *in, int rows, int cols)
{
    for (int r0 = 0; r0 < rows; r0 += TAIL_BLOCK)
        for (int c0 = 0; c0 < cols; c0 += TAIL_BLOCK)
            for (int r = r0; r < r0 + TAIL_BLOCK && r < rows; r++)
                for (int c = c0; c < c0 + TAIL_BLOCK && c < rows; c++)
                    out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

/* for (c = 0; c <= cols; c++): one row of out past its end. */
static void one_past_the_end_of_a_row(float *out, const float *in, int rows, int cols)
{
    for (int r = 0; r < rows; r++)
        for (int c = 0; c <= cols; c++)
            out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

Test(checker, names_a_loop_bound_on_the_wrong_dimension)
{
    /* Cut short by a block: 7 whole rows of out past its end, not a bound off by one (lab 2's
     * 97 x 89 was told "a loop bound off by one (<= instead of <)", and no note of a matrix
     * that is not square). */
    expect_caught(tile_bound_on_rows, 97, 89, "c < rows where c < cols is meant, cut short at c = 95");
    cr_assert(!strstr(verdict.message, "off by one"), "%s", verdict.message);
    /* One row past: a bound off by one writes the same, and so the hint says both. */
    expect_caught(tile_bound_on_rows, 33, 31, "c <= cols where c < cols is meant");
    cr_assert(strstr(verdict.message, "c < rows where c < cols is meant, stopped at c = 31 if"), "%s",
              verdict.message);
    expect_caught(one_past_the_end_of_a_row, 60, 37, "c <= cols where c < cols is meant");
    /* Taller than wide: out's extra rows run past its end, whole rows of rows floats. */
    expect_caught(inner_bound_on_rows, 33, 31, "c < rows where c < cols is meant");
    cr_assert(!strstr(verdict.message, "<= instead of <"), "no bound is off by one:\n%s", verdict.message);
    expect_caught(inner_bound_on_rows, 97, 89, "out was written as if it had rows = 97 rows");
    cr_assert(!strstr(verdict.message, "off by one"), "%s", verdict.message);
    /* Wider than tall: out's rows stop at rows, the rest a tail. */
    expect_caught(inner_bound_on_rows, 193, 263, "c < rows where c < cols is meant");
    cr_assert(!strstr(verdict.message, "round the number of blocks up"), "%s", verdict.message);
    expect_caught(inner_bound_on_rows, 1, 1000, "bounded by the wrong dimension");
    expect_caught(outer_bound_on_cols, 263, 193, "r < cols where r < rows is meant");
    /* A bound off by one is not a wrong dimension, nor is a tail a block leaves. */
    expect_caught(one_past_the_end, 37, 53, "<= instead of <");
    cr_assert(!strstr(verdict.message, "wrong dimension"), "%s", verdict.message);
    expect_caught(skips_the_tail, 40, 50, "tail of the matrix");
    cr_assert(!strstr(verdict.message, "wrong dimension"), "%s", verdict.message);
}

/* out's index with in's stride, cols for rows: past the end where cols > rows, with holes. */
static void out_stride_of_in(float *out, const float *in, int rows, int cols)
{
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            out[(size_t)c * cols + r] = in[(size_t)r * cols + c];
}

/* Lab 1 is two loops on the CPU: its hints speak of loops, never of threads or tiles. */
Test(checker, speaks_of_loops_on_the_cpu)
{
    expect_caught(out_stride_of_in, 37, 53, "your loops never stored");
    cr_assert(!strstr(verdict.message, "thread") && !strstr(verdict.message, "tile"),
              "a CPU lab's message speaks of threads or tiles:\n%s", verdict.message);
}

Test(checker, catches_writes_outside_out)
{
    expect_caught(one_past_the_end, 37, 53, "past the end of out");
    expect_caught(one_past_the_end, 1, 1, "off by one");
    expect_caught(one_before_the_start, 5, 5, "before the start of out");
}

static void squares_only(float *out, const float *in, int rows, int cols)
{
    int n = rows;
    (void)cols;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            out[(size_t)c * n + r] = in[(size_t)r * n + c];
}

Test(checker, catches_squares_only)
{
    check(squares_only, 64, 64);
    cr_assert(verdict.ok, "%s", verdict.message);
    expect_caught(squares_only, 37, 53, "not square");
    expect_caught(squares_only, 53, 37, "not square");
}

static void copies(float *out, const float *in, int rows, int cols)
{
    memcpy(out, in, (size_t)rows * cols * sizeof *in);
}

static void does_arithmetic(float *out, const float *in, int rows, int cols)
{
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            out[(size_t)c * rows + r] = in[(size_t)r * cols + c] + 0.0f;
}

/* A copy by a float atomicAdd in global memory onto a zeroed out, as a GPU does it: subnormals
 * flushed to 0, and 0 + -0.0 is +0. */
static void adds_flushing_subnormals(float *out, const float *in, int rows, int cols)
{
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            float x = in[(size_t)r * cols + c];
            out[(size_t)c * rows + r] = 0.0f + (fpclassify(x) == FP_SUBNORMAL ? 0.0f : x);
        }
}

static void writes_the_input(float *out, const float *in, int rows, int cols)
{
    transpose(out, in, rows, cols);
    ((float *)in)[0] = 1.0f;
}

static void reads_past_the_end(float *out, const float *in, int rows, int cols)
{
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            out[(size_t)c * rows + r] = in[(size_t)r * cols + c + 1];
}

static void does_nothing(float *out, const float *in, int rows, int cols)
{
    (void)out, (void)in, (void)rows, (void)cols;
}

static void a_stub(float *out, const float *in, int rows, int cols)
{
    TODO("write the loops");
    does_nothing(out, in, rows, cols);
}

Test(checker, catches_other_mistakes)
{
    expect_caught(copies, 37, 53, "copied, not transposed");
    /* A copy is right for no shape: no note that code right only for squares mixes the two up. */
    cr_assert(!strstr(verdict.message, "not square"), "%s", verdict.message);
    expect_caught(does_arithmetic, 64, 64, "bit for bit");
    expect_caught(adds_flushing_subnormals, 97, 89, "0 where in holds a subnormal (denormal) float");
    cr_assert(!strstr(verdict.message, "equal as numbers") && !strstr(verdict.message, "not square"),
              "a copy that loses subnormals is not one of equal numbers, nor of squares only: %s",
              verdict.message);
    expect_caught(writes_the_input, 8, 8, "in was changed");
    expect_caught(reads_past_the_end, 8, 8, "outside in");
    /* A CPU loop has bounds, not a kernel's bounds test (lab 1's r * rows + c said "check the
     * bounds test"). */
    cr_assert(strstr(verdict.message, "check the loops' bounds"), "%s", verdict.message);
    expect_caught(does_nothing, 8, 8, "not written at all");
    expect_caught(a_stub, 8, 8, "not implemented yet");
    cr_assert(strstr(verdict.message, "write the loops"), "%s", verdict.message);
}

/*
 * The diagnoses a GPU lab gets: the checker reads the launch log, so a
 * backend that runs the planted mistake on the CPU and logs the launch a
 * kernel with that mistake makes (on_gpu) shows what a student sees.
 */
static tl_launch planted_launch;

static int run_as_launched(const tl_call *call, tl_entry_fn fn, tl_matrix *const m[], tl_shape s,
                           char *why, size_t why_len)
{
    tl_launch_reset();
    if (planted_launch.block[0])
        tl_launch_add(&planted_launch);
    return tl_cpu_backend.run(call, fn, m, s, why, why_len);
}

static const tl_backend planted_gpu = {"planted GPU", 1, run_as_launched};

/* The launch: blocks of bx x by threads, each covering `tile` rows (by, or a
 * TILE_DIM tile), the grid rounded up, or down on a side with `down` set. */
static void launch_as(unsigned bx, unsigned by, unsigned tile, int rows, int cols, int down_x,
                      int down_y)
{
    memset(&planted_launch, 0, sizeof planted_launch);
    planted_launch.block[0] = bx, planted_launch.block[1] = by, planted_launch.block[2] = 1;
    planted_launch.grid[0] = down_x ? (unsigned)cols / bx : ((unsigned)cols + bx - 1) / bx;
    planted_launch.grid[1] = down_y ? (unsigned)rows / tile : ((unsigned)rows + tile - 1) / tile;
    planted_launch.grid[2] = 1;
    snprintf(planted_launch.kernel, sizeof planted_launch.kernel, "planted");
}

/* on the planted GPU: caught, saying `hint`, and never `never` (a diagnosis that misled). */
static void expect_on_gpu(tl_transpose_fn fn, int rows, int cols, const char *hint,
                          const char *never)
{
    tl_shape s = {rows, cols, 1};
    tl_check_transpose(&verdict, fn, &planted_gpu, s, 99, &tl_transpose_words);
    cr_assert(!verdict.ok, "a planted mistake passed on %dx%d", rows, cols);
    cr_assert(strstr(verdict.message, hint), "the message for %dx%d lacks \"%s\":\n%s", rows, cols,
              hint, verdict.message);
    cr_assert(!never || !strstr(verdict.message, never),
              "the message for %dx%d says \"%s\", which misleads here:\n%s", rows, cols, never,
              verdict.message);
}

/* A kernel's bounds test run by the threads of a grid of 32-wide blocks, rounded up: c <= cols
 * (off by one) or c < rows (the wrong dimension), as a student's lab 3 writes them. */
static int planted_bound_wrong_dimension;
static void kernel_bound_past_cols(float *out, const float *in, int rows, int cols)
{
    int grid_cols = (cols + 31) / 32 * 32;
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < grid_cols; c++)
            if (planted_bound_wrong_dimension ? c < rows : c <= cols)
                out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

Test(checker, names_a_bounds_test_past_cols_in_a_kernels_words)
{
    /* lab 3's r <= rows && c <= cols at 1000 x 1 was told "the loop over in's columns" and
     * "min(c0 + TILE_DIM, rows)", a CPU loop's words, once the hint of whole rows came. */
    planted_bound_wrong_dimension = 0;
    launch_as(32, 8, 8, 1000, 1, 0, 0);
    expect_on_gpu(kernel_bound_past_cols, 1000, 1, "one off by one (c <= cols", "min(c0");
    cr_assert(!strstr(verdict.message, "loop"), "%s", verdict.message);
    planted_bound_wrong_dimension = 1;
    launch_as(32, 8, 8, 97, 89, 0, 0);
    expect_on_gpu(kernel_bound_past_cols, 97, 89, "c < rows where c < cols is meant, does that",
                  "min(c0");
    cr_assert(strstr(verdict.message, "up to c = 95, where the grid's tiles end"), "%s", verdict.message);
    /* Lab 6's one test before the loop over a tile's rows writes the same rows past the end: with
     * blocks of 8 rows of threads over tiles of 32, the hint names both (it once named only the
     * wrong dimension, which the student's test was not). */
    cr_assert(!strstr(verdict.message, "before the loop"), "%s", verdict.message);
    launch_as(32, 8, 32, 97, 89, 0, 0);
    expect_on_gpu(kernel_bound_past_cols, 97, 89, "a test made once, before the loop over a tile's rows",
                  "min(c0");
}

Test(checker, names_a_store_that_reuses_the_loads_bounds)
{
    launch_as(8, 8, 8, 37, 53, 0, 0);
    expect_on_gpu(store_reuses_the_loads_bounds, 37, 53, "so the stores' bounds test does not match",
                  "<= instead of <");
    cr_assert(strstr(verdict.message, "not the test of the load (x < cols && y < rows"), "%s", verdict.message);
    /* A bound one too far stores more and skips nothing: the off-by-one hint, not this one. */
    expect_caught(one_past_the_end, 37, 53, "<= instead of <");
    cr_assert(!strstr(verdict.message, "bounds test does not match"), "%s", verdict.message);
}

/* A store with a right bounds test and in's row length in its index (out[c * cols + r]): the
 * writes past the end and the holes are the index's, which the hint must not blame on the
 * bounds test (stud8's lab04-out-row-length-cols at 2 x 3). */
Test(checker, blames_a_swapped_store_index_not_its_bounds_on_a_gpu)
{
    launch_as(32, 32, 32, 2, 3, 0, 0);
    expect_on_gpu(swapped_output_index, 2, 3, "rows and cols swapped in the output index",
                  "bounds test does not match");
    cr_assert(strstr(verdict.message, "the output index does not walk out's cols x rows elements once"),
              "%s", verdict.message);
    cr_assert(strstr(verdict.message, "that your threads never stored"), "%s", verdict.message);
    /* A single row: the one element of each column of out that lands inside is in place, so
     * only the values written past the end tell the index (the H100's lab04 1 x 1000 case; 1 x
     * 32 keeps every store inside the checker's margin here). */
    launch_as(32, 32, 32, 1, 32, 0, 0);
    expect_on_gpu(swapped_output_index, 1, 32, "the output index does not walk out's cols x rows",
                  "bounds test does not match");
}

/* if (r < rows - 1 && c < cols): the last row of in is skipped by every thread. */
static void bound_one_short(float *out, const float *in, int rows, int cols)
{
    for (int r = 0; r < rows - 1; r++)
        for (int c = 0; c < cols; c++)
            out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

/* What a grid of `covered` rows and columns of in leaves: the rest. */
static int covered_rows, covered_cols;
static void grid_covers_part(float *out, const float *in, int rows, int cols)
{
    for (int r = 0; r < rows && r < covered_rows; r++)
        for (int c = 0; c < cols && c < covered_cols; c++)
            out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

Test(checker, tells_a_bound_off_by_one_from_a_short_grid)
{
    /* Lab 3's launch covers the matrix; its bounds test stops one row short. */
    launch_as(32, 8, 8, 97, 89, 0, 0);
    expect_on_gpu(bound_one_short, 97, 89, "the grid is not what falls short", "Round the number of blocks up");
    expect_on_gpu(bound_one_short, 97, 89, "r < rows; not r < rows - 1", "stops short");
    launch_as(32, 32, 32, 33, 33, 0, 0); /* lab 5's */
    expect_on_gpu(bound_one_short, 33, 33, "the grid is not what falls short", "cols + TILE_DIM");

    /* Lab 6's launch at 9 rows is also lab 3's rounded down: both readings are given. */
    launch_as(32, 8, 32, 9, 9, 0, 0);
    expect_on_gpu(bound_one_short, 9, 9, "can be read two ways", NULL);

    /* Lab 5's grid rounded down in y: the rows are short, and the hint says rows. */
    launch_as(32, 32, 32, 97, 89, 0, 1);
    covered_rows = 96, covered_cols = 89;
    expect_on_gpu(grid_covers_part, 97, 89, "(rows + TILE_DIM - 1) / TILE_DIM for y",
                  "(cols + TILE_DIM - 1)");
    /* Lab 6's: blocks of 8 rows of threads, each over a 32-row tile. */
    launch_as(32, 8, 32, 97, 89, 0, 1);
    expect_on_gpu(grid_covers_part, 97, 89, "its 3 block(s) in y, 32 rows each",
                  "(cols + TILE_DIM - 1)");
    /* Lab 3's, by BLOCK_ROWS. */
    launch_as(32, 8, 8, 97, 89, 0, 1);
    expect_on_gpu(grid_covers_part, 97, 89, "(rows + BLOCK_ROWS - 1) / BLOCK_ROWS for y", NULL);
    /* And in x: the columns. */
    launch_as(32, 8, 8, 97, 89, 1, 0);
    covered_rows = 97, covered_cols = 64;
    expect_on_gpu(grid_covers_part, 97, 89, "(cols + TILE_DIM - 1) / TILE_DIM for x", "for y");
}

/* The checker speaks of shapes and indices: what it says to write, it says in the words its
 * caller gives for the lab's tunables, never in a lab's own. */
Test(checker, writes_the_words_its_caller_gives)
{
    static const tl_lab_words other = {.tile = "SIDE", .block_rows = "STEPS", .cpu_block = "CHUNK"};
    tl_shape s = {97, 89, 1};
    /* Blocks of 8 rows of threads, rounded down in y; then square tiles, rounded down in y. */
    launch_as(32, 8, 8, 97, 89, 0, 1);
    covered_rows = 96, covered_cols = 89;
    tl_check_transpose(&verdict, grid_covers_part, &planted_gpu, s, 99, &other);
    cr_assert(strstr(verdict.message, "(rows + STEPS - 1) / STEPS for y"), "%s", verdict.message);
    launch_as(32, 32, 32, 97, 89, 0, 1);
    tl_check_transpose(&verdict, grid_covers_part, &planted_gpu, s, 99, &other);
    cr_assert(strstr(verdict.message, "(rows + SIDE - 1) / SIDE for y"), "%s", verdict.message);
    cr_assert(!strstr(verdict.message, "TILE_DIM") && !strstr(verdict.message, "BLOCK_ROWS"), "%s",
              verdict.message);
    /* On the CPU: a blocked loop's tail, by the block's word. */
    tl_check_transpose(&verdict, grid_covers_part, &tl_cpu_backend, s, 99, &other);
    cr_assert(strstr(verdict.message, "min(start + CHUNK, size)"), "%s", verdict.message);
}

/* Lab 3's grid with x and y swapped, grid((rows + 31) / 32, (cols + 7) / 8) (a student's):
 * what one thread an element reaches of in's rows and columns, rounded up the wrong way. */
static void swapped_grid_reaches(int rows, int cols)
{
    memset(&planted_launch, 0, sizeof planted_launch);
    planted_launch.block[0] = 32, planted_launch.block[1] = 8, planted_launch.block[2] = 1;
    planted_launch.grid[0] = ((unsigned)rows + 31) / 32;
    planted_launch.grid[1] = ((unsigned)cols + 7) / 8;
    planted_launch.grid[2] = 1;
    covered_cols = (int)planted_launch.grid[0] * 32, covered_rows = (int)planted_launch.grid[1] * 8;
}

Test(checker, names_a_grid_with_x_and_y_swapped)
{
    static const int shapes[][2] = {{33, 31}, {97, 89}, {1025, 2047}, {1000, 1}, {1, 1000}};
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        swapped_grid_reaches(shapes[i][0], shapes[i][1]);
        expect_on_gpu(grid_covers_part, shapes[i][0], shapes[i][1], "has its x and y swapped",
                      "Round the number of blocks up");
        cr_assert(!strstr(verdict.message, "stops short"), "%s", verdict.message);
    }
    /* The grid rounded down is not swapped: that hint stays. */
    launch_as(32, 8, 8, 97, 89, 0, 1);
    covered_rows = 96, covered_cols = 89;
    expect_on_gpu(grid_covers_part, 97, 89, "Round the number of blocks up", "x and y swapped");
    /* A grid of whole tiles, rounded down for a kernel without bounds tests, looks the same:
     * the hint names the second launch it lacks too (stud8's lab06-edge-kernel-only-if-cols). */
    cr_assert(strstr(verdict.message, "needs a second launch for what it leaves, in every shape that "
                                      "leaves some: here in's last 1 row(s)"),
              "%s", verdict.message);
}

/* c = blockIdx.x * gridDim.x + threadIdx.x (a student's), or r likewise in y, in lab 3's
 * launch: the lines of in that such threads reach, and no other. */
static int stride_in_x;
static void index_by_grid_dim(float *out, const float *in, int rows, int cols)
{
    const tl_launch *l = &planted_launch;
    for (unsigned by = 0; by < l->grid[1]; by++)
        for (unsigned bx = 0; bx < l->grid[0]; bx++)
            for (unsigned ty = 0; ty < l->block[1]; ty++)
                for (unsigned tx = 0; tx < l->block[0]; tx++) {
                    long c = stride_in_x ? (long)bx * l->grid[0] + tx : (long)bx * l->block[0] + tx;
                    long r = stride_in_x ? (long)by * l->block[1] + ty : (long)by * l->grid[1] + ty;
                    if (r < rows && c < cols)
                        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
                }
}

Test(checker, names_a_thread_index_built_with_grid_dim)
{
    stride_in_x = 1;
    launch_as(32, 8, 8, 63, 63, 0, 0); /* 2 blocks in x, 2 apart: they overlap */
    expect_on_gpu(index_by_grid_dim, 63, 63, "blockIdx.x * gridDim.x + threadIdx.x gives",
                  "the bounds test stops them");
    cr_assert(strstr(verdict.message, "neighbouring blocks overlap"), "%s", verdict.message);
    launch_as(32, 8, 8, 1025, 2047, 0, 0); /* 64 blocks, 64 apart: gaps */
    expect_on_gpu(index_by_grid_dim, 1025, 2047, "blockIdx.x * blockDim.x + threadIdx.x",
                  "Round the number of blocks up");
    cr_assert(strstr(verdict.message, "gaps lie between blocks"), "%s", verdict.message);
    stride_in_x = 0;
    launch_as(32, 8, 8, 97, 89, 0, 0);
    expect_on_gpu(index_by_grid_dim, 97, 89, "blockIdx.y * gridDim.y + threadIdx.y gives",
                  "the bounds test stops them");
    /* A bounds test one short is no stride: that hint stays. */
    expect_on_gpu(bound_one_short, 97, 89, "the grid is not what falls short", "gridDim");
}

Test(checker, says_why_a_single_row_came_out_empty)
{
    launch_as(32, 8, 8, 1, 1000, 0, 0);
    expect_on_gpu(bound_one_short, 1, 1000, "single row", "Is transpose implemented");
    expect_on_gpu(bound_one_short, 1, 1000, "r < rows - 1", NULL);
    planted_launch.block[0] = 0; /* no launch at all */
    expect_on_gpu(bound_one_short, 1, 1000, "launched no kernel", NULL);
    check(bound_one_short, 1, 1000);
    cr_assert(strstr(verdict.message, "single row") && !strstr(verdict.message, "Is transpose implemented"),
              "%s", verdict.message);
    expect_caught(does_nothing, 1, 1, "single element");
}

/* Correct but for shared memory nobody wrote: where `hole` says. */
static int (*hole)(int r, int c, int rows, int cols);
static void reads_unfilled_shared(float *out, const float *in, int rows, int cols)
{
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            out[(size_t)c * rows + r] = hole(r, c, rows, cols)
                                            ? tl_bits_float(TL_SHARED_POISON_BITS)
                                            : in[(size_t)r * cols + c];
}

/* Some elements of the 32 x 32 tiles cut by the matrix's edge, as a barrier skipped there leaves. */
static int in_edge_tiles(int r, int c, int rows, int cols)
{
    return (r >= rows / 32 * 32 || c >= cols / 32 * 32) && (r + c) % 3 == 0;
}
/* The load's bounds one row short: in's last row never reaches the tile. */
static int last_row(int r, int c, int rows, int cols)
{
    (void)c, (void)cols;
    return r == rows - 1;
}
/* All but in's first row: in a matrix within one tile, what a missing barrier may leave too. */
static int after_first_row(int r, int c, int rows, int cols)
{
    (void)c, (void)rows, (void)cols;
    return r > 0;
}
/* Everywhere, as a missing barrier leaves. */
static int anywhere(int r, int c, int rows, int cols)
{
    (void)rows, (void)cols;
    return (r + c) % 2 == 1;
}

Test(checker, says_what_shared_memory_nobody_wrote_can_mean)
{
    launch_as(32, 32, 32, 97, 89, 0, 0);
    hole = in_edge_tiles;
    expect_on_gpu(reads_unfilled_shared, 97, 89, "all in the tiles on the matrix's edge",
                  "a missing __syncthreads()?");
    expect_on_gpu(reads_unfilled_shared, 97, 89, "skip the barrier", NULL);
    hole = last_row;
    expect_on_gpu(reads_unfilled_shared, 97, 89, "The load's bounds test stops short",
                  "a missing __syncthreads()?");
    launch_as(32, 32, 32, 5, 1, 0, 0);
    hole = after_first_row;
    expect_on_gpu(reads_unfilled_shared, 5, 1, "A __syncthreads() missing", "The load's bounds");
    launch_as(32, 32, 32, 97, 89, 0, 0);
    hole = anywhere;
    expect_on_gpu(reads_unfilled_shared, 97, 89, "A __syncthreads() missing", NULL);
    expect_on_gpu(reads_unfilled_shared, 97, 89, "that differ between the two", NULL);
}

/* Blocked: each 16 x 16 tile transposed, but written back at its own place. */
static void tiles_left_in_place(float *out, const float *in, int rows, int cols)
{
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            /* tile (R, C) of in goes to out's tile (R, C), each element at its transposed place */
            int tr = r / 16 * 16 + c % 16, tc = c / 16 * 16 + r % 16;
            if (tr < cols && tc < rows)
                out[(size_t)tr * rows + tc] = in[(size_t)r * cols + c];
        }
}

Test(checker, names_tiles_left_in_place)
{
    expect_caught(tiles_left_in_place, 64, 64, "tile was transposed but left at its own place");
    expect_caught(tiles_left_in_place, 70, 50, "each 16 x 16 tile");
    check(tiles_left_in_place, 64, 64);
    cr_assert(!strstr(verdict.message, "copied, not transposed"), "%s", verdict.message);
    launch_as(16, 16, 16, 64, 64, 0, 0);
    expect_on_gpu(tiles_left_in_place, 64, 64, "blockIdx.x * TILE_DIM", "copied, not transposed");
}

/* ------------------------------------------------------ the product's checker */

/* The product run on the host, no launch logged: the planted GPU's hints without one. */
static int run_product_here(const tl_call *call, tl_entry_fn fn, tl_matrix *const m[], tl_shape s,
                            char *why, size_t why_len)
{
    return tl_cpu_backend.run(call, fn, m, s, why, why_len);
}

static const tl_backend product_here = {"planted GPU", 1, run_product_here};

/* The naive loop with its first product dropped (p from 1), or past its last (p <= k). */
static int product_from, product_past;
static void planted_product(float *c, const float *a, const float *b, int m, int n, int k)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            float sum = 0.0f;
            for (int p = product_from; p < k + product_past; p++)
                sum += a[(size_t)i * k + p] * b[(size_t)p * n + j];
            c[(size_t)i * n + j] = sum;
        }
}

static tl_verdict product_verdict;

static void expect_product(int tiled, const char *hint, const char *never)
{
    tl_shape s = {33, 31, 17};
    tl_check_matmul(&product_verdict, planted_product, tiled, &product_here, s, 99, &tl_product_words);
    cr_assert(!product_verdict.ok, "a planted mistake passed");
    cr_assert(strstr(product_verdict.message, hint), "the message lacks \"%s\":\n%s", hint,
              product_verdict.message);
    cr_assert(!never || !strstr(product_verdict.message, never),
              "the message says \"%s\", which misleads here:\n%s", never, product_verdict.message);
}

/* C = alpha A B + beta C with alpha = 1, beta = 0, as public SGEMM kernels are written (a
 * student's adaptation, 2026-11-29): C's NaN before the call stays, 0 x NaN being NaN, bit for
 * bit on the CPU (and the emulator), as the GPU's one NaN where gpu_nan is set. It was told "C
 * was not written at all. Is the kernel implemented and launched?". */
static int gpu_nan;
static void alpha_beta_product(float *c, const float *a, const float *b, int m, int n, int k)
{
    const float alpha = 1.0f, beta = 0.0f;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            float sum = 0.0f;
            for (int p = 0; p < k; p++)
                sum += a[(size_t)i * k + p] * b[(size_t)p * n + j];
            float v = alpha * sum + beta * c[(size_t)i * n + j];
            c[(size_t)i * n + j] = gpu_nan && v != v ? tl_bits_float(0x7fffffffu) : v;
        }
}

static int run_product_of_a_kernel(const tl_call *call, tl_entry_fn fn, tl_matrix *const m[], tl_shape s,
                                char *why, size_t why_len)
{
    tl_launch_reset();
    tl_launch_note((unsigned[3]){1, 2, 1}, (unsigned[3]){128, 1, 1}, 0, "sgemmWarptiling");
    return tl_cpu_backend.run(call, fn, m, s, why, why_len);
}

static const tl_backend product_of_a_kernel = {"planted GPU", 1, run_product_of_a_kernel};

Test(matmul_checker, names_c_read_before_it_was_written)
{
    tl_shape s = {33, 31, 17};
    gpu_nan = 0;
    tl_check_matmul(&product_verdict, alpha_beta_product, 1, &product_of_a_kernel, s, 99, &tl_product_words);
    cr_assert(!product_verdict.ok);
    cr_assert(strstr(product_verdict.message, "yet a kernel ran (sgemmWarptiling") &&
                  strstr(product_verdict.message, "C = alpha A B + beta C"),
              "%s", product_verdict.message);
    cr_assert(!strstr(product_verdict.message, "Is the kernel implemented"), "%s", product_verdict.message);
    gpu_nan = 1;
    tl_check_matmul(&product_verdict, alpha_beta_product, 1, &product_of_a_kernel, s, 99, &tl_product_words);
    cr_assert(strstr(product_verdict.message, "C read before it was written"), "%s", product_verdict.message);
    tl_launch_reset();
}

Test(matmul_checker, speaks_of_tiles_only_to_the_tiled_kernel)
{
    product_from = 1, product_past = 0;
    expect_product(0, "covers 0..k-1 exactly once, from p = 0", "tile");
    expect_product(1, "every tile, none twice", NULL);
    product_from = 0, product_past = 1;
    expect_product(0, "p < k, not p <= k", "tile");
    expect_product(1, "A tile that hangs over the edge", NULL);
}

/* B[p * k + col] (stud8's lab07-b-row-length-k): B read with A's row length, past B's end
 * where n < k, whatever the bounds tests say. */
static void b_with_row_length_k(float *c, const float *a, const float *b, int m, int n, int k)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            float sum = 0.0f;
            for (int p = 0; p < k; p++)
                sum += a[(size_t)i * k + p] * b[(size_t)p * k + j];
            c[(size_t)i * n + j] = sum;
        }
}

/* A register tile's store that tests row < m and not col < n (a student's lab 8): the
 * columns past n, whose sums are 0 (B's tile is 0.0f there), land in the next row, stored
 * after its own element's thread; the last row's past C's end. */
static void store_past_the_row(float *c, const float *a, const float *b, int m, int n, int k)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            float sum = 0.0f;
            for (int p = 0; p < k; p++)
                sum += a[(size_t)i * k + p] * b[(size_t)p * n + j];
            c[(size_t)i * n + j] = sum;
        }
    for (int i = 0; i < m; i++)
        c[(size_t)i * n + n] = 0.0f;
}

/* float sum; (a student's): each sum starts where the thread before this one in its place
 * ended, as the emulator's reused stacks leave it, the first row's at 0; or, with
 * accumulator_start set, every sum at that constant. */
static float accumulator_start;
static void accumulator_not_zeroed(float *c, const float *a, const float *b, int m, int n, int k)
{
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            float sum = accumulator_start != 0 ? accumulator_start
                        : i > 0                ? c[(size_t)(i - 1) * n + j] : 0.0f;
            for (int p = 0; p < k; p++)
                sum += a[(size_t)i * k + p] * b[(size_t)p * n + j];
            c[(size_t)i * n + j] = sum;
        }
}

Test(matmul_checker, names_an_accumulator_not_set_to_zero)
{
    tl_shape s = {33, 31, 17};
    accumulator_start = 0;
    tl_check_matmul(&product_verdict, accumulator_not_zeroed, 1, &product_here, s, 99, &tl_product_words);
    cr_assert(!product_verdict.ok);
    cr_assert(strstr(product_verdict.message, "off by exactly a value another element of C came out with") &&
                  strstr(product_verdict.message, "float sum = 0.0f"),
              "%s", product_verdict.message);
    /* and the accumulator set to 0 once, before a thread's loop over its tiles of C */
    cr_assert(strstr(product_verdict.message, "tile after tile of C"), "%s", product_verdict.message);
    cr_assert(!strstr(product_verdict.message, "check A[row * k + p]"), "%s", product_verdict.message);
    accumulator_start = 0.5f;
    tl_check_matmul(&product_verdict, accumulator_not_zeroed, 0, &product_here, s, 99, &tl_product_words);
    cr_assert(strstr(product_verdict.message, "off by the same 0.5"), "%s", product_verdict.message);
    cr_assert(!strstr(product_verdict.message, "check A[row * k + p]"), "%s", product_verdict.message);
    /* A product that sums the wrong terms is no accumulator's: the index hint stays. */
    product_from = 1, product_past = 0;
    expect_product(1, "check A[row * k + p]", "off by exactly a value");
    cr_assert(!strstr(product_verdict.message, "off by the same"), "%s", product_verdict.message);
    product_from = 0;
}

Test(checker, names_the_first_mismatch)
{
    expect_caught(copies, 2, 3, "first mismatch: out[0][1] should be in[1][0]");
}

/* ------------------------------------------------ hints that once named the wrong cause */

/* Correct, then the writes run on through out's whole guard zone and into in, as an
 * index over the wrong size does where in lies after out. */
static void runs_on_into_in(float *out, const float *in, int rows, int cols)
{
    transpose(out, in, rows, cols);
    for (size_t i = 0; i < TL_MARGIN; i++)
        out[(size_t)rows * cols + i] = 1.0f;
    ((float *)in)[-1] = 1.0f;
    ((float *)in)[0] = 1.0f;
}

Test(checker, blames_writes_past_out_for_what_they_did_to_in)
{
    expect_caught(runs_on_into_in, 8, 8, "at least 1024 elements");
    cr_assert(!strstr(verdict.message, "wrote 1024 element(s)"), "%s", verdict.message);
    cr_assert(strstr(verdict.message, "in was changed too: most likely by the same writes"), "%s",
              verdict.message);
    cr_assert(!strstr(verdict.message, "it is const"), "%s", verdict.message);
    expect_caught(writes_the_input, 8, 8, "in was changed: it is const");
}

/* Lab 3's block of 32 x 8 threads under a kernel of one element a thread of a 32 x 32 tile:
 * rows 8..31 of each tile never loaded (shared memory nobody wrote where their threads
 * store), and rows 8..31 of out's tile never stored. */
static void short_block(float *out, const float *in, int rows, int cols)
{
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            if (c % 32 < 8)
                out[(size_t)c * rows + r] = r % 32 < 8 ? in[(size_t)r * cols + c]
                                                       : tl_bits_float(TL_SHARED_POISON_BITS);
}

/* A thread outside in returned before the barrier: what it would have stored, never written. */
static void returns_before_store(float *out, const float *in, int rows, int cols)
{
    for (int R = 0; R < cols; R++)
        for (int C = 0; C < rows; C++) {
            int lr = C / 32 * 32 + R % 32, lc = R / 32 * 32 + C % 32;
            if (lr < rows && lc < cols)
                out[(size_t)R * rows + C] = in[(size_t)C * cols + R];
        }
}

/* Most of out wrong values, and shared memory nobody wrote in some edge-tile elements. */
static void wrong_with_edge_holes(float *out, const float *in, int rows, int cols)
{
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            out[(size_t)c * rows + r] = in_edge_tiles(r, c, rows, cols)
                                            ? tl_bits_float(TL_SHARED_POISON_BITS)
                                            : in[(size_t)((r + 1) % rows) * cols + c];
}

Test(checker, names_what_the_block_and_the_threads_did)
{
    launch_as(32, 8, 32, 97, 89, 0, 0);
    expect_on_gpu(short_block, 97, 89, "the block has 8 rows of threads", "__syncthreads() missing");
    expect_on_gpu(short_block, 9, 9, "The barrier is not what is missing", "__syncthreads() missing");
    launch_as(32, 32, 32, 97, 89, 0, 0);
    expect_on_gpu(returns_before_store, 97, 89, "must not return before the store", "not square");
    expect_on_gpu(returns_before_store, 1000, 1, "must not return before the store", "not square");
    /* Both patterns are exact: a correct short block, or the whole tail missing, is neither. */
    expect_on_gpu(bound_one_short, 97, 89, "the grid is not what falls short", "return before");
    hole = in_edge_tiles;
    expect_on_gpu(reads_unfilled_shared, 97, 89, "the full tiles came out right", "rows of threads");
    expect_on_gpu(wrong_with_edge_holes, 97, 89, "shared memory nobody wrote",
                  "the full tiles came out right");
    /* A block of one warp: its lanes meet at __syncwarp(). */
    launch_as(32, 1, 1, 97, 89, 0, 0);
    hole = anywhere;
    expect_on_gpu(reads_unfilled_shared, 97, 89, "a __syncwarp() missing", "__syncthreads() missing");
}

/* Lab 4's kernel of a 32 x 32 tile launched in blocks of 16 x 16 threads (a student's):
 * block (bx, by) moves the elements of tile (bx, by) in its first 16 rows and columns. */
static void tile_larger_than_block(float *out, const float *in, int rows, int cols)
{
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            if (r % 32 < 16 && c % 32 < 16)
                out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
}

Test(checker, names_a_block_smaller_than_the_kernels_tile)
{
    static const int shapes[][2] = {{97, 89}, {2048, 2048}, {1000, 37}, {1, 1000}};
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        launch_as(16, 16, 16, shapes[i][0], shapes[i][1], 0, 0);
        expect_on_gpu(tile_larger_than_block, shapes[i][0], shapes[i][1],
                      "the kernel's tile is 32 a side", "the bounds test stops them");
        cr_assert(!strstr(verdict.message, "store's indices send"), "%s", verdict.message);
    }
    /* Within one tile its side does not show, and the hint says only that it is larger. */
    launch_as(16, 16, 16, 17, 17, 0, 0);
    expect_on_gpu(tile_larger_than_block, 17, 17, "the kernel's tile is larger than the blocks",
                  "the bounds test stops them");
    /* Blocks of the kernel's tile: no such hint for a bound one short. */
    launch_as(32, 32, 32, 97, 89, 0, 0);
    expect_on_gpu(bound_one_short, 97, 89, "the grid is not what falls short", "kernel's tile");
}

/* The product on the planted GPU, its launch logged as planted_launch says. */
static int run_product_as_launched(const tl_call *call, tl_entry_fn fn, tl_matrix *const m[],
                                   tl_shape s, char *why, size_t why_len)
{
    tl_launch_reset();
    tl_launch_add(&planted_launch);
    return tl_cpu_backend.run(call, fn, m, s, why, why_len);
}

static const tl_backend product_launched = {"planted GPU", 1, run_product_as_launched};

/*
 * A tiled product as the emulator runs it, one thread an element of C in
 * blocks of planted_tile x planted_tile threads: the launch follows the
 * shape (grid x over C's n columns, y over its m rows, rounded up; swapped,
 * or rounded down, where planted_grid says), and each mistake leaves what
 * its kernel leaves there. Threads run in the order of their index, so a
 * thread that reads the tiles with no barrier finds them filled only if it
 * is its block's last.
 */
enum { GRID_RIGHT, GRID_SWAPPED, GRID_DOWN };
static int planted_tile = 16, planted_grid;

static int run_product_in_blocks(const tl_call *call, tl_entry_fn fn, tl_matrix *const matrices[],
                                 tl_shape s, char *why, size_t why_len)
{
    unsigned t = (unsigned)planted_tile, m = (unsigned)s.rows, n = (unsigned)s.cols;
    unsigned x = planted_grid == GRID_SWAPPED ? m : n, y = planted_grid == GRID_SWAPPED ? n : m;
    launch_as(t, t, t, (int)y, (int)x, planted_grid == GRID_DOWN, planted_grid == GRID_DOWN);
    return run_product_as_launched(call, fn, matrices, s, why, why_len);
}

static const tl_backend product_in_blocks = {"planted GPU", 1, run_product_in_blocks};

static void poison(float *c, int n, int i, int j)
{
    c[(size_t)i * n + j] = tl_bits_float(TL_SHARED_POISON_BITS);
}

/* No barrier between the loads and the products: only each block's last thread is right.
 * (The emulator's race check names this before the product is checked; this is what
 * reaches the checker where the check does not see the race, its limits.) */
static void barrier_missing(float *c, const float *a, const float *b, int m, int n, int k)
{
    int t = planted_tile;
    planted_product(c, a, b, m, n, k);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            if (i % t != t - 1 || j % t != t - 1)
                poison(c, n, i, j);
}

/* if (row >= m || col >= n) return; before the loads: a block over C's edge reads their holes. */
static void returns_early(float *c, const float *a, const float *b, int m, int n, int k)
{
    int t = planted_tile;
    planted_product(c, a, b, m, n, k);
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++)
            if ((i / t + 1) * t > m || (j / t + 1) * t > n)
                poison(c, n, i, j);
}

/* Both tiles stored only inside A and B: with k < the tile, every sum reads the holes past k. */
static void unstored_past_k(float *c, const float *a, const float *b, int m, int n, int k)
{
    planted_product(c, a, b, m, n, k);
    for (int i = 0; i < m && k % planted_tile; i++)
        for (int j = 0; j < n; j++)
            poison(c, n, i, j);
}

/* The grid as launched, one element a thread: what lies past it is never written. */
/* The rows and columns of C a block covers, where each thread writes several (0: one a thread). */
static unsigned planted_cover;

static void grid_product(float *c, const float *a, const float *b, int m, int n, int k)
{
    const tl_launch *l = tl_launch_get(0);
    unsigned px = planted_cover ? planted_cover : l->block[0], py = planted_cover ? planted_cover : l->block[1];
    int rows = (int)(l->grid[1] * py), cols = (int)(l->grid[0] * px);
    for (int i = 0; i < m && i < rows; i++)
        for (int j = 0; j < n && j < cols; j++) {
            float sum = 0.0f;
            for (int p = 0; p < k; p++)
                sum += a[(size_t)i * k + p] * b[(size_t)p * n + j];
            c[(size_t)i * n + j] = sum;
        }
}

/* if (row < m - 1 && col < n): a grid that covers C, a store that stops one row short. */
static void store_one_row_short(float *c, const float *a, const float *b, int m, int n, int k)
{
    grid_product(c, a, b, m - 1, n, k);
}

/* A register-blocked launch (lab 8's): blocks of a quarter of their planted_cover x
 * planted_cover elements of C in threads, 2 x 2 a thread, the grid as planted_grid says. */
static int run_product_register_blocked(const tl_call *call, tl_entry_fn fn, tl_matrix *const matrices[],
                                        tl_shape s, char *why, size_t why_len)
{
    unsigned t = planted_cover, m = (unsigned)s.rows, n = (unsigned)s.cols;
    unsigned x = planted_grid == GRID_SWAPPED ? m : n, y = planted_grid == GRID_SWAPPED ? n : m;
    launch_as(t / 2, t / 2, t, (int)y, (int)x, 0, planted_grid == GRID_DOWN);
    planted_launch.grid[0] = planted_grid == GRID_DOWN ? x / t : (x + t - 1) / t;
    return run_product_as_launched(call, fn, matrices, s, why, why_len);
}

static const tl_backend product_register_blocked = {"planted GPU", 1, run_product_register_blocked};

/* The mistake run at s: caught, saying each of `says` (NULL-ended), and never `never`. */
static void expect_in_blocks(tl_matmul_fn fn, tl_shape s, const char *const *says, const char *never)
{
    tl_check_matmul(&product_verdict, fn, 1, &product_in_blocks, s, 99, &tl_product_words);
    cr_assert(!product_verdict.ok, "a planted mistake passed at %dx%dx%d", s.rows, s.cols, s.depth);
    for (; *says; says++)
        cr_assert(strstr(product_verdict.message, *says), "the message lacks \"%s\":\n%s", *says,
                  product_verdict.message);
    cr_assert(!never || !strstr(product_verdict.message, never),
              "the message says \"%s\", which misleads here:\n%s", never, product_verdict.message);
}
#define SAYS(...) ((const char *const[]){__VA_ARGS__, NULL})

Test(matmul_checker, tells_the_three_shared_memory_mistakes_apart)
{
    static const char barrier[] = "Put a __syncthreads() between loading the tiles";
    static const char edge[] = "left their part of the tiles unstored";
    static const char past_k[] = "must be stored, 0.0f where it lies past k";
    product_from = 0, product_past = 0, planted_grid = GRID_RIGHT;
    /* Wherever a block lies wholly inside C, each names itself and neither other. */
    planted_tile = 16;
    expect_in_blocks(barrier_missing, (tl_shape){33, 31, 17}, SAYS(barrier, "(15, 15)"), past_k);
    expect_in_blocks(barrier_missing, (tl_shape){33, 31, 17}, SAYS("nor is the tile past k"), edge);
    expect_in_blocks(barrier_missing, (tl_shape){64, 48, 32}, SAYS(barrier), "past k");
    expect_in_blocks(returns_early, (tl_shape){33, 31, 17}, SAYS(edge, "bottom and right edges"),
                     "__syncthreads() missing");
    expect_in_blocks(returns_early, (tl_shape){33, 31, 17}, SAYS("if (row >= m || col >= n) return;"),
                     past_k);
    expect_in_blocks(returns_early, (tl_shape){40, 32, 7}, SAYS(edge, "bottom edge"), past_k);
    expect_in_blocks(unstored_past_k, (tl_shape){33, 31, 7}, SAYS(past_k, "k = 7"),
                     "__syncthreads() missing");
    expect_in_blocks(unstored_past_k, (tl_shape){33, 31, 7}, SAYS(past_k), edge);
    /* Lab 7's tests at 32 x 32 blocks: the tester's 45 x 56 x 2 and 259 x 127 x 133. */
    planted_tile = 32;
    expect_in_blocks(barrier_missing, (tl_shape){45, 56, 2}, SAYS(barrier, "(31, 31)"), past_k);
    expect_in_blocks(returns_early, (tl_shape){259, 127, 133}, SAYS(edge), barrier);
    /* Where every block hangs over C's edge, the two that reach the checker (a missing
     * barrier is a race, named before) leave every element NaN: the hint says so and names
     * both, the tile past k only where k leaves one, and never the barrier as a cause. */
    planted_tile = 16;
    const tl_matmul_fn alike[] = {returns_early, unstored_past_k};
    for (size_t i = 0; i < sizeof alike / sizeof *alike; i++) {
        expect_in_blocks(alike[i], (tl_shape){1, 1, 1},
                         SAYS("every block of your grid hangs over C's edge (m = 1 and n = 1 are "
                              "below your blocks' side, 16)", "Threads that return",
                              "with k = 1 not a multiple", "would have been named as a race"),
                         "__syncthreads() missing");
        const char *msg = product_verdict.message;
        cr_assert(strstr(msg, "Threads that return") < strstr(msg, "not stored past k"),
                  "the threads outside C first, the tile past k last:\n%s", msg);
    }
    expect_in_blocks(returns_early, (tl_shape){300, 7, 32}, SAYS("hangs over C's edge (n = 7 is"),
                     "not stored past k");
}

Test(matmul_checker, reads_the_grid_off_the_launch_for_a_tail)
{
    static const char round_up[] = "Round the number of blocks up";
    product_from = 0, product_past = 0;
    planted_tile = 32;
    /* The tester's dim3 grid((m + T - 1) / T, (n + T - 1) / T). */
    planted_grid = GRID_SWAPPED;
    expect_in_blocks(grid_product, (tl_shape){33, 31, 32},
                     SAYS("has its x and y swapped", "2 blocks in x, as many as C's m = 33 rows",
                          "reaches 32 of C's 33 rows"), round_up);
    expect_in_blocks(grid_product, (tl_shape){7, 300, 40}, SAYS("has its x and y swapped"), round_up);
    planted_grid = GRID_DOWN;
    expect_in_blocks(grid_product, (tl_shape){300, 40, 7},
                     SAYS("stops short of them", round_up, "reaching 288 of C's m = 300 rows"),
                     "swapped");
    planted_grid = GRID_RIGHT;
    expect_in_blocks(store_one_row_short, (tl_shape){45, 56, 2},
                     SAYS("reaches past them", "not row < m - 1"), round_up);
}

/* Lab 8's blocks cover more of C than their threads (stud8's lab08-regblock-m-n-swapped-grid:
 * 16 x 16 threads, 32 x 32 elements, the grid's x counted over m): the grid read by what a block
 * covers, as the part of C written shows it, not by blockDim. */
Test(matmul_checker, reads_a_register_blocked_grid_by_what_a_block_covers)
{
    static const char round_up[] = "Round the number of blocks up";
    const tl_shape shapes[] = {{33, 31, 32}, {300, 7, 40}, {259, 127, 133}};
    product_from = 0, product_past = 0, planted_cover = 32;
    planted_grid = GRID_SWAPPED;
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        tl_check_matmul(&product_verdict, grid_product, 1, &product_register_blocked, shapes[i], 99,
                        &tl_product_words);
        const char *msg = product_verdict.message;
        cr_assert(!product_verdict.ok && strstr(msg, "has its x and y swapped") &&
                      strstr(msg, "each block writing 32 x 32 elements of C") &&
                      strstr(msg, "rounding is not what falls short") && !strstr(msg, round_up),
                  "%s", msg);
    }
    planted_grid = GRID_DOWN;
    tl_check_matmul(&product_verdict, grid_product, 1, &product_register_blocked, (tl_shape){300, 40, 7},
                    99, &tl_product_words);
    const char *msg = product_verdict.message;
    cr_assert(strstr(msg, "stops short of them, reaching 288 of C's m = 300 rows") &&
                  strstr(msg, "(m + 32 - 1) / 32 in y") && !strstr(msg, "swapped"),
              "%s", msg);
    planted_cover = 0, planted_grid = GRID_RIGHT;
}

/* On a GPU a tile left unstored past k holds an earlier tile's values: wrong values, no NaN.
 * The product as if the sum ran on to the tile's end, over A's and B's next elements. */
static void stale_tail_product(float *c, const float *a, const float *b, int m, int n, int k)
{
    int end = (k + 15) / 16 * 16;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < n; j++) {
            float sum = 0.0f;
            for (int p = 0; p < end; p++)
                sum += a[(size_t)i * k + p % k] * b[(size_t)(p % k) * n + j];
            c[(size_t)i * n + j] = sum;
        }
}

Test(matmul_checker, names_the_tile_past_k_among_wrong_values)
{
    tl_shape s = {33, 31, 19};
    launch_as(16, 16, 16, 33, 31, 0, 0);
    tl_check_matmul(&product_verdict, stale_tail_product, 1, &product_launched, s, 99, &tl_product_words);
    cr_assert(!product_verdict.ok);
    cr_assert(strstr(product_verdict.message, "that the last tile holds 0.0f past k"), "%s",
              product_verdict.message);
    s.depth = 32; /* a multiple of the tile: nothing lies past k */
    tl_check_matmul(&product_verdict, stale_tail_product, 1, &product_launched, s, 99, &tl_product_words);
    cr_assert(product_verdict.ok, "%s", product_verdict.message);
    product_from = 1, product_past = 0;
    s.depth = 32;
    tl_check_matmul(&product_verdict, planted_product, 1, &product_launched, s, 99, &tl_product_words);
    cr_assert(!product_verdict.ok && !strstr(product_verdict.message, "past k"), "%s",
              product_verdict.message);
}

/* A thread's 4 x 4 register tile stored with i and j swapped: each 4 x 4 block of C transposed
 * within itself, 0 where the transposed place lies past C (a tile's zeros past the edge). */
static void tile_stored_transposed(float *c, const float *a, const float *b, int m, int n, int k)
{
    for (int r = 0; r < m; r++)
        for (int col = 0; col < n; col++) {
            int tr = r - r % 4 + col % 4, tc = col - col % 4 + r % 4;
            float sum = 0.0f;
            for (int p = 0; p < k && tr < m && tc < n; p++)
                sum += a[(size_t)tr * k + p] * b[(size_t)p * n + tc];
            c[(size_t)r * n + col] = sum;
        }
}

/* It was told of its loads, its accumulator and its barriers (a student's, 2026-11-28). */
Test(matmul_checker, names_a_register_tile_stored_transposed)
{
    const tl_shape shapes[] = {{300, 7, 40}, {1027, 5, 3}, {7, 1, 1}, {64, 64, 16}};
    for (size_t i = 0; i < sizeof shapes / sizeof *shapes; i++) {
        tl_check_matmul(&product_verdict, tile_stored_transposed, 1, &product_here, shapes[i], 99,
                        &tl_product_words);
        const char *msg = product_verdict.message;
        cr_assert(!product_verdict.ok && strstr(msg, "each 4 x 4 block of the product transposed") &&
                      !strstr(msg, "__syncthreads") && !strstr(msg, "C holds the transposed product"),
                  "%s", msg);
    }
}

/* Reads past A or B: the tile's bounds, or an index's row length; only the index where no
 * tile hangs over an edge. */
Test(matmul_checker, names_the_row_length_beside_the_bounds_for_a_read_past_the_end)
{
    tl_check_matmul(&product_verdict, b_with_row_length_k, 1, &product_here, (tl_shape){1, 1, 7}, 99,
                    &tl_product_words);
    const char *msg = product_verdict.message;
    cr_assert(!product_verdict.ok && strstr(msg, "A tile that hangs over the edge") &&
                  strstr(msg, "an index with the wrong row length runs past the end") &&
                  strstr(msg, "B[p * n + col] (B's rows are n long)"),
              "%s", msg);
    planted_tile = 16, planted_grid = GRID_RIGHT;
    tl_check_matmul(&product_verdict, b_with_row_length_k, 1, &product_in_blocks, (tl_shape){32, 16, 32},
                    99, &tl_product_words);
    cr_assert(!product_verdict.ok && strstr(msg, "no tile hangs over an edge: an index runs past the end") &&
                  !strstr(msg, "A tile that hangs over the edge"),
              "%s", msg);
    /* Stores past the end of each row: named as such, not as values computed wrong. */
    tl_check_matmul(&product_verdict, store_past_the_row, 1, &product_here, (tl_shape){9, 7, 5}, 99,
                    &tl_product_words);
    cr_assert(!product_verdict.ok && strstr(msg, "wrote past the end of C") &&
                  strstr(msg, "lands in the next row, at C[row + 1][col - n]") &&
                  !strstr(msg, "values are computed but wrong"),
              "%s", msg);
    /* The naive kernel's hint named the loop's and the thread's bounds alone, of a student's
     * naive b[p * k + col] whose bounds were right (2026-11-28). */
    tl_check_matmul(&product_verdict, b_with_row_length_k, 0, &product_here, (tl_shape){1, 1, 7}, 99,
                    &tl_product_words);
    cr_assert(!product_verdict.ok && strstr(msg, "p < k, not p <= k") &&
                  strstr(msg, "an index with the wrong row length runs past the end: A's rows are k "
                              "long, B's n long") &&
                  !strstr(msg, "tile"),
              "%s", msg);
}
