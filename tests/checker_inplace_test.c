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

#define T 16

static tl_verdict verdict;

static void expect_caught(tl_inplace_fn fn, int n, const char *hint)
{
    tl_check_inplace(&verdict, fn, &tl_cpu_backend, n, 99);
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
        tl_check_inplace(&verdict, correct, &tl_cpu_backend, sides[i], 99);
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
