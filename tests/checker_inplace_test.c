/*
 * The in-place checker against planted mistakes, written for the CPU with
 * the shape of the GPU kernels students write: each must fail with a
 * message that names it. The race of a pair without its barrier needs
 * threads: it is in the emulator's corpus (tests/emu_corpus/lab09-*.cu).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "lab.h"
#include "lab_words.h"
#include "launch.h"

#define T 16

static tl_verdict verdict;

static void expect_caught(tl_inplace_fn fn, int n, const char *hint)
{
    tl_check_inplace(&verdict, fn, &tl_cpu_backend, n, 99, &tl_inplace_words);
    cr_assert(!verdict.ok, "a planted mistake passed at n = %d", n);
    cr_assert(strstr(verdict.message, hint), "the message for n = %d lacks \"%s\":\n%s", n, hint,
              verdict.message);
    char shape[32];
    snprintf(shape, sizeof shape, "%d x %d", n, n);
    cr_assert(strstr(verdict.message, shape), "the message must name the size:\n%s",
              verdict.message);
}

static void swap(float *mat, int n, int r, int c)
{
    float tmp = mat[(size_t)r * n + c];
    mat[(size_t)r * n + c] = mat[(size_t)c * n + r];
    mat[(size_t)c * n + r] = tmp;
}

static void correct(float *mat, int n)
{
    for (int y = 0; y < n; y++)
        for (int x = 0; x < y; x++)
            swap(mat, n, y, x);
}

Test(inplace_checker, accepts_a_correct_transpose)
{
    static const int sides[] = {1, 2, 17, 64, 100};
    for (size_t i = 0; i < sizeof sides / sizeof *sides; i++) {
        tl_check_inplace(&verdict, correct, &tl_cpu_backend, sides[i], 99, &tl_inplace_words);
        cr_assert(verdict.ok, "%s", verdict.message);
        cr_assert_eq(verdict.message[0], '\0');
    }
}

/* The naive kernel without x < y: the threads at (r, c) and (c, r) both swap. */
static void swaps_twice(float *mat, int n)
{
    for (int y = 0; y < n; y++)
        for (int x = 0; x < n; x++)
            if (x != y)
                swap(mat, n, y, x);
}

/* The blog's tiled kernel: each tile transposed where it lies, as a block of
 * T x T threads would, through a tile of shared memory. */
static void tiles_not_swapped(float *mat, int n)
{
    float tile[T][T];
    for (int r0 = 0; r0 < n; r0 += T)
        for (int c0 = 0; c0 < n; c0 += T) {
            memset(tile, 0, sizeof tile);
            for (int y = 0; y < T; y++)
                for (int x = 0; x < T; x++)
                    if (r0 + y < n && c0 + x < n)
                        tile[y][x] = mat[(size_t)(r0 + y) * n + c0 + x];
            for (int y = 0; y < T; y++)
                for (int x = 0; x < T; x++)
                    if (r0 + y < n && c0 + x < n)
                        mat[(size_t)(r0 + y) * n + c0 + x] = tile[x][y];
        }
}

/* A swap that writes one side before it reads the other. */
static void swap_without_tmp(float *mat, int n)
{
    for (int y = 0; y < n; y++)
        for (int x = 0; x < y; x++) {
            mat[(size_t)y * n + x] = mat[(size_t)x * n + y];
            mat[(size_t)x * n + y] = mat[(size_t)y * n + x];
        }
}

/* The last tile's bounds test forgotten on the mirror side. */
static void writes_past_the_end(float *mat, int n)
{
    correct(mat, n);
    mat[(size_t)n * n + 3] = 0.0f;
}

/* Writes past the end through all the margin the checker guards: a count that stops there. */
static void writes_through_the_margin(float *mat, int n)
{
    correct(mat, n);
    for (size_t i = 0; i < TL_MARGIN; i++)
        mat[(size_t)n * n + i] = 0.0f;
}

static void reads_past_the_end(float *mat, int n)
{
    correct(mat, n);
    mat[(size_t)n * n - 1] = mat[(size_t)n * n];
}

static void a_stub(float *mat, int n)
{
    TODO("write the kernel");
    (void)mat;
    (void)n;
}

Test(inplace_checker, names_the_pairs_swapped_twice)
{
    expect_caught(swaps_twice, 37, "swapped twice");
    cr_assert(strstr(verdict.message, "x < y"), "%s", verdict.message);
}

/* The handout's steps, as the caller names them: the checker knows none of its own. */
Test(inplace_checker, cites_the_handout_its_caller_names)
{
    static const tl_lab_words other = {.tile = "SIDE", .block_rows = "STEPS",
                                       .pairs_step = "the notes, part A", .tiles_step = "the notes, part B",
                                       .both_steps = "the notes, parts A and B",
                                       .tiles_in_pairs = "the notes, on pairs"};
    tl_check_inplace(&verdict, swaps_twice, &tl_cpu_backend, 37, 99, &other);
    cr_assert(strstr(verdict.message, "x < y (the notes, part A)"), "%s", verdict.message);
    cr_assert(!strstr(verdict.message, "README.md"), "%s", verdict.message);
}

Test(inplace_checker, names_the_blogs_bug)
{
    static const char bug[] = "each tile is transposed, but tiles were not swapped with their "
                              "mirror across the diagonal";
    expect_caught(tiles_not_swapped, 64, bug);
    cr_assert(strstr(verdict.message, "16 x 16 tile"), "the tile's side:\n%s", verdict.message);
    expect_caught(tiles_not_swapped, 100, bug);
    expect_caught(tiles_not_swapped, 17, bug);
}

Test(inplace_checker, names_a_lost_swap)
{
    expect_caught(swap_without_tmp, 33, "was lost");
}

Test(inplace_checker, catches_accesses_outside_the_matrix)
{
    expect_caught(writes_past_the_end, 20, "wrote 1 element(s) past the end of the matrix");
    expect_caught(writes_through_the_margin, 20, "wrote at least 1024 elements");
    cr_assert(!strstr(verdict.message, "wrote 1024 element(s)"), "%s", verdict.message);
    expect_caught(reads_past_the_end, 20, "outside the matrix");
}

Test(inplace_checker, says_a_stub_is_not_written)
{
    expect_caught(a_stub, 8, "not implemented yet");
    cr_assert(strstr(verdict.message, "write the kernel"), "%s", verdict.message);
    cr_assert(!strstr(verdict.message, "swapped twice"), "a stub is not a bug:\n%s", verdict.message);
}

Test(inplace_checker, names_the_first_mismatch)
{
    expect_caught(swap_without_tmp, 3, "first mismatch: mat[0][1] should be the old mat[1][0]");
}

/*
 * The GPU's diagnoses read the launch: a backend that runs the planted
 * mistake here and logs the launch of a kernel with blocks of T x 4
 * threads, a tile of T x T each, over a square grid of a block for every
 * tile (square_grid) or a 1-D grid of a block for every pair.
 */
static int square_grid;

static int run_as_launched(const tl_call *call, tl_entry_fn fn, tl_matrix *const m[], tl_shape s,
                           char *why, size_t why_len)
{
    unsigned tiles = ((unsigned)s.rows + T - 1) / T;
    tl_launch l = {{square_grid ? tiles : tiles * (tiles + 1) / 2, square_grid ? tiles : 1, 1},
                   {T, 4, 1}, 0, "planted", ""};
    tl_launch_reset();
    tl_launch_add(&l);
    return tl_cpu_backend.run(call, fn, m, s, why, why_len);
}

static const tl_backend planted_gpu = {"planted GPU", 1, run_as_launched};

/* on the planted GPU: caught, saying `hint`, and never `never` (a diagnosis that misled). */
static void expect_on_gpu(tl_inplace_fn fn, int n, const char *hint, const char *never)
{
    tl_check_inplace(&verdict, fn, &planted_gpu, n, 99, &tl_inplace_words);
    cr_assert(!verdict.ok, "a planted mistake passed at n = %d", n);
    cr_assert(strstr(verdict.message, hint), "the message for n = %d lacks \"%s\":\n%s", n, hint,
              verdict.message);
    cr_assert(!never || !strstr(verdict.message, never),
              "the message for n = %d says \"%s\", which misleads here:\n%s", n, never,
              verdict.message);
}

/* Tile (R, C) swapped with its mirror, as a block of the square grid does (on the diagonal,
 * transposed where it lies); with `lose_one_side`, as when a second block read the pair
 * between the first's two writes: tile (C, R) keeps its own values, and so does (R, C). */
static void swap_tiles(float *mat, int n, int R, int C, int lose_one_side)
{
    for (int y = R * T; y < n && y < (R + 1) * T; y++)
        for (int x = C * T; x < n && x < (C + 1) * T; x++)
            if (R != C || x < y) {
                if (lose_one_side)
                    mat[(size_t)y * n + x] = mat[(size_t)x * n + y];
                else
                    swap(mat, n, y, x);
            }
}

/* A square grid whose blocks below the diagonal do not return: each pair swapped by two
 * blocks, one after the other as the emulator runs them, so the second undoes the first. */
static void two_blocks_a_pair(float *mat, int n)
{
    int tiles = (n + T - 1) / T;
    for (int R = 0; R < tiles; R++)
        for (int C = 0; C < tiles; C++)
            swap_tiles(mat, n, R, C, 0);
}

/* The same, as a GPU may run it: where the two blocks overlap (here every other pair), the
 * second reads one side of the pair already swapped, the other not, and one value is lost;
 * the other pairs come out right, both blocks having read them before either wrote. */
static void two_blocks_overlapping(float *mat, int n)
{
    int tiles = (n + T - 1) / T;
    for (int R = 0; R < tiles; R++)
        for (int C = 0; C <= R; C++)
            swap_tiles(mat, n, C, R, C != R && (R + C) % 2);
}

/* The pairs correct, then shared memory nobody wrote where `unloaded` says. */
static int (*unloaded)(int r, int c, int n);
static void reads_unloaded_tile(float *mat, int n)
{
    correct(mat, n);
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            if (unloaded(r, c, n))
                mat[(size_t)r * n + c] = tl_bits_float(TL_SHARED_POISON_BITS);
}

/* The mirror tile loaded with tile (R, C)'s bounds: in the pairs of the last column of tiles,
 * the elements of (R, C) whose mirror lies past its own bounds. */
static int mirror_past_bounds(int r, int c, int n)
{
    int last = (n - 1) / T * T;
    return r < last && c >= last && c - last < T && r % T >= n - last && r % T > 0;
}

/* A loop over j that stops a step short (j < T - 4): in every tile the rows it never loads,
 * written back transposed, as columns. (A missing barrier the emulator names as a race.) */
static int loop_a_step_short(int r, int c, int n)
{
    (void)r, (void)n;
    return c % T >= T - 4;
}

/* A square grid whose blocks on and below the diagonal leave (R >= C): the pairs swapped, the
 * tiles on the diagonal never touched. */
static void diagonal_tiles_skipped(float *mat, int n)
{
    int tiles = (n + T - 1) / T;
    for (int R = 0; R < tiles; R++)
        for (int C = R + 1; C < tiles; C++)
            swap_tiles(mat, n, R, C, 0);
}

Test(inplace_checker, names_the_tiles_on_the_diagonal_untouched)
{
    square_grid = 1;
    expect_on_gpu(diagonal_tiles_skipped, 40, "no block transposed the tiles on the diagonal",
                  "swapped twice");
    cr_assert(strstr(verdict.message, "R > C, not R >= C"), "%s", verdict.message);
    /* Within one tile the values cannot tell it from pairs swapped twice: both are named. */
    static const char either[] = "either no thread transposed that tile";
    expect_on_gpu(diagonal_tiles_skipped, 13, either, "Every pair (r, c), (c, r) was swapped twice");
    cr_assert(strstr(verdict.message, "swapped twice, by the thread at (r, c)"), "%s", verdict.message);
    expect_on_gpu(swaps_twice, 13, either, "Every pair (r, c), (c, r) was swapped twice");
    /* Without a launch to read (the CPU), the naive kernel's hint as before. */
    expect_caught(swaps_twice, 13, "Every pair (r, c), (c, r) was swapped twice");
}

Test(inplace_checker, names_two_blocks_on_one_pair)
{
    static const char two[] = "so two blocks work each pair: block (R, C) swaps it, and block "
                              "(C, R) swaps it back";
    square_grid = 1;
    expect_on_gpu(two_blocks_a_pair, 17, two, "tiles were not swapped");
    expect_on_gpu(two_blocks_a_pair, 40, two, "tiles were not swapped");
    expect_on_gpu(two_blocks_a_pair, 64, "the 16 x 16 tiles on the diagonal, which came out right",
                  "that value was");
    expect_on_gpu(two_blocks_overlapping, 64, "or, where the two swaps overlapped, with one side "
                  "of the pair lost", "x < y");
    /* A grid of a block a pair has no second block: the pairs came back, said so, no more. */
    square_grid = 0;
    expect_on_gpu(two_blocks_a_pair, 40, "swapped twice (the second swap undoing the first) or "
                  "never swapped", "two blocks work each pair");
    /* The threads of one block that both swap: the whole matrix back, the naive kernel's hint. */
    expect_on_gpu(swaps_twice, 40, "x < y", "two blocks work each pair");
}

/* One element of a matrix within one tile: its last row's first, as a load bound one short
 * (r < n - 1) leaves it out. */
static int last_row_first(int r, int c, int n)
{
    return r == n - 1 && c == 0;
}

Test(inplace_checker, names_the_loads_that_left_shared_memory_unwritten_never_the_barrier)
{
    static const char barrier[] = "Put __syncthreads() between loading both tiles";
    square_grid = 0;
    unloaded = mirror_past_bounds;
    expect_on_gpu(reads_unloaded_tile, 33, "the whole tiles hold none, so the barrier", barrier);
    expect_on_gpu(reads_unloaded_tile, 33, "test each load and each store with the row and column "
                  "of the element it touches", barrier);
    expect_on_gpu(reads_unloaded_tile, 70, "n = 70 leaves the last row and column of tiles 6 wide",
                  barrier);
    unloaded = loop_a_step_short;
    expect_on_gpu(reads_unloaded_tile, 33, "the loads leave out elements the stores write back",
                  "the whole tiles hold none");
    expect_on_gpu(reads_unloaded_tile, 64, "the loop over j covers every row of the tile", barrier);
    expect_on_gpu(reads_unloaded_tile, 64, "would have been named as a race", barrier);
    /* Within one tile: the loads, never the barrier. */
    unloaded = last_row_first;
    expect_on_gpu(reads_unloaded_tile, 9, "the loads leave out elements the stores write back",
                  barrier);
}
