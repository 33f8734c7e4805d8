/* The in-place transpose (lab 9): the square n x n matrix replaced by its transpose. */
#include "lab_words.h"
#include "op.h"

TL_ENTRY_POINT(transpose_inplace);

/* the n x n matrix, n = rows */
static size_t floats(tl_shape s, int i)
{
    return i == 0 ? (size_t)s.rows * (size_t)s.rows : 0;
}

static double work(tl_shape s)
{
    return 2.0 * (double)s.rows * s.cols * sizeof(float);
}

/* The diagonal stays where it is. */
static double least_floats(tl_shape s)
{
    return 2.0 * ((double)s.rows * s.rows - s.rows);
}

static void check(tl_verdict *v, const char *entry, tl_entry_fn fn, const tl_backend *b, tl_shape s,
                  uint64_t seed)
{
    (void)entry;
    tl_check_inplace(v, (tl_inplace_fn)fn, b, s.rows, seed, &tl_inplace_words);
}

const tl_op tl_operation_inplace = {
    .name = "inplace",
    .summary = "a square matrix transposed in its own memory",
    .call = &tl_call_inplace,
    .entries = {{TL_ENTRY_FNS(transpose_inplace), "student", "your code", "reference", "reference"}},
    .floats = floats,
    .work = work,
    .unit = "GB/s",
    .rate_is = "GB/s = (bytes read + bytes written) / 1e9 / seconds",
    .least_floats = least_floats,
    .dims = 2,
    .sizes_are = "N (an N x N matrix: in place means square)",
    .bench_cpu = {"1024,2048,4096,8192,16384,4097", 20},
    .bench_gpu = {"1024,2048,4096,8192,16384,4097", 20},
    .sanitize_sizes = "33,97,1000,1,256",
    .profile_size = {512, 512, 512},
    .grade_size = "4096",
    .held_back = "sides",
    .held_back_are = "N,N,...          in-place transposes (lab 9): N x N matrices",
    .hints = {.side = "TILE_DIM",
              .grid_x = "(n + TILE_DIM - 1) / TILE_DIM tiles a side for x",
              .grid_y = "(n + TILE_DIM - 1) / TILE_DIM tiles a side for y",
              .outside = "a thread read or wrote outside the n x n matrix or a __shared__ array: "
                         "check r < n && c < n before each access, on both sides of a swap, the "
                         "element (r, c) at r * n + c and its mirror (c, r) at c * n + r (a tiled "
                         "kernel: the tile and its mirror tile)"},
    .check = check,
};
