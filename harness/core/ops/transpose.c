/* The out-of-place transpose (labs 1-6): out (cols x rows) = in (rows x cols) transposed. */
#include "lab_words.h"
#include "op.h"

TL_ENTRY_POINT(transpose);

/* out (cols x rows) and in (rows x cols) */
static size_t floats(tl_shape s, int i)
{
    return i < 2 ? (size_t)s.rows * (size_t)s.cols : 0;
}

static double work(tl_shape s)
{
    return 2.0 * (double)s.rows * s.cols * sizeof(float);
}

static double least_floats(tl_shape s)
{
    return 2.0 * s.rows * (double)s.cols;
}

/* out is cols x rows */
static int out_width(tl_shape s)
{
    return s.rows;
}

static void check(tl_verdict *v, const char *entry, tl_entry_fn fn, const tl_backend *b, tl_shape s,
                  uint64_t seed)
{
    (void)entry;
    tl_check_transpose(v, (tl_transpose_fn)fn, b, s, seed, &tl_transpose_words);
}

const tl_op tl_operation_transpose = {
    .name = "transpose",
    .summary = "a matrix transposed into another",
    .call = &tl_call_transpose,
    .entries = {{TL_ENTRY_FNS(transpose), "student", "your code", "reference", "reference"}},
    .floats = floats,
    .work = work,
    .unit = "GB/s",
    .rate_is = "GB/s = (bytes read + bytes written) / 1e9 / seconds",
    .least_floats = least_floats,
    .out_width = out_width,
    .dims = 2,
    .sizes_are = "N (square) or ROWSxCOLS",
    /* 1000, 1500: a textbook BLOCK shows its gain */
    .bench_cpu = {"256,512,1000,1024,1500,2048,4096,4097x8191", 7},
    .bench_gpu = {"1024,2048,4096,8192,16384,4097x8191", 20},
    .sanitize_sizes = "33x31,97x89,1000x37,1x300,256",
    .profile_size = {512, 512, 512},
    .grade_size = "4096", /* far past the GPU's L2 cache */
    .held_back = "shapes",
    .held_back_are = "RxC,RxC,...     transposes: rows x cols, no spaces",
    .hints = {.side = "TILE_DIM",
              .grid_x = "(cols + TILE_DIM - 1) / TILE_DIM for x",
              .grid_y = "(rows + TILE_DIM - 1) / TILE_DIM for y",
              .grid_y_steps = "(rows + BLOCK_ROWS - 1) / BLOCK_ROWS for y (a thread an element; "
                              "(rows + TILE_DIM - 1) / TILE_DIM where each block covers a TILE_DIM x "
                              "TILE_DIM tile)",
              .outside = "a thread read or wrote outside in, out or a __shared__ array: check the "
                         "bounds test (c < cols && r < rows for in[r * cols + c]; out is cols x rows, "
                         "so out[c * rows + r] needs the same test) and the indices"},
    .check = check,
};
