/*
 * The reduction's checker (lab 10) against planted mistakes, written for
 * the CPU in the shape of the kernels students write: a grid of blocks,
 * each taking blockDim.x * PER consecutive elements in turn, and a launch
 * logged as the GPU glue logs it. Each mistake must fail with a message
 * that names it, and nothing right may fail. The races (a missing
 * __syncthreads() between rounds, a last warp without __syncwarp()) need
 * threads: the emulator's race check names them (tests/lab10_test.c's
 * planted kernels run there); here their values, elements added twice or
 * not at all, are planted. n past 2^31 needs 8 GiB a copy: lab 10's suite
 * runs it on a GPU.
 */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check_reduce.h"
#include "op.h"
#include "launch.h"

static tl_verdict verdict;

typedef enum {
    RIGHT,             /* every element once */
    GRID_ROUNDED_DOWN, /* n / (B * PER) blocks, no loop: the tail lost */
    STORES_NOT_ADDS,   /* each block stores its partial: the last block's stays */
    SHORT_SECOND_PASS, /* a second launch of one block of K threads adds K partials */
    ONE_PARTIAL_LOST,  /* *d_out += partial racing: block 1's lost */
    EACH_BLOCK_ALL,    /* every block sums the whole array */
    NOTHING_STORED,    /* the kernel never stores */
    ATOMIC_UNSET,      /* atomicAdd into *d_out never set to 0 */
    READS_PAST_END,    /* the last thread reads x[n] */
    UNWRITTEN_SLOT,    /* a shared slot never stored is added */
    IN_PLACE,          /* the tree runs in d_in */
    PAST_OUT,          /* the partials stored at d_out[blockIdx.x] */
    SLOT_TWICE,        /* a round read a slot before its partner stored it */
    ZERO_BLOCKS,       /* n = 0 launched anyway: a grid of 0 blocks, refused */
    GPU_NAN,           /* atomicAdd onto the unset *d_out on a GPU: its NaN, 0x7fffffff */
    NOTHING_ADDED,     /* *d_out set to 0, and the kernel never adds */
    EACH_THREAD_ADDS,  /* every thread of a block adds the block's sum */
    WARP_HALF_OUT,     /* the tree stops at 32 slots, and the warp's shuffles add 16 of them */
    STEP_PAST_N,       /* a grid-stride loop stepping by blockDim.x * blockDim.x: one element a thread */
    SHUFFLE_OWN_VALUE, /* __shfl_down_sync(mask, v, 16, 16): every value added to itself */
    FLOAT4_TAIL,       /* float4 loads over n / 4 * 4 elements: the last n % 4 lost */
} mistake;

static mistake planted;
static unsigned grid_of = 8, block_of = 32, per = 4, second_threads = 4;

/* The grid a launch takes for n: rounded up, or down for GRID_ROUNDED_DOWN. */
static unsigned blocks_for(size_t n)
{
    size_t each = (size_t)block_of * per;
    if (planted == GRID_ROUNDED_DOWN)
        return (unsigned)(n / each);
    return grid_of;
}

static void planted_reduce(float *out, const float *in, size_t n)
{
    unsigned g = blocks_for(n);
    size_t chunk = (size_t)block_of * per;
    float part[1024] = {0}; /* blocks_for() stays below: 100003 / 128 = 781 */
    for (size_t i = 0; i < n; i++) {
        if (planted == GRID_ROUNDED_DOWN && i >= (size_t)g * chunk)
            break;
        if (planted == WARP_HALF_OUT && i % 32 >= 16)
            continue;
        if (planted == STEP_PAST_N && i >= (size_t)g * block_of)
            break;
        if (planted == FLOAT4_TAIL && i >= n / 4 * 4)
            break;
        part[i / chunk % g] += in[i];
    }
    float sum = 0;
    switch (planted) {
    case NOTHING_STORED:
        return;
    case ATOMIC_UNSET:
        for (unsigned b = 0; b < g; b++)
            out[0] += part[b];
        return;
    case GPU_NAN:
        out[0] = tl_bits_float(0x7fffffffu);
        return;
    case NOTHING_ADDED:
        out[0] = 0.0f;
        return;
    case EACH_THREAD_ADDS:
        for (unsigned b = 0; b < g; b++)
            for (unsigned t = 0; t < block_of; t++)
                sum += part[b];
        break;
    case STORES_NOT_ADDS:
        for (unsigned b = 0; b < g; b++)
            out[0] = part[b];
        return;
    case SHORT_SECOND_PASS:
        for (unsigned b = 0; b < second_threads; b++)
            sum += part[b];
        break;
    case ONE_PARTIAL_LOST:
        for (unsigned b = 0; b < g; b++)
            sum += b == 1 ? 0 : part[b];
        break;
    case EACH_BLOCK_ALL:
        for (unsigned b = 0; b < g; b++)
            for (unsigned c = 0; c < g; c++)
                sum += part[c];
        break;
    case READS_PAST_END:
        sum = in[n];
        for (unsigned b = 0; b < g; b++)
            sum += part[b];
        break;
    case UNWRITTEN_SLOT:
        sum = tl_bits_float(TL_SHARED_POISON_BITS);
        for (unsigned b = 0; b < g; b++)
            sum += part[b];
        break;
    case IN_PLACE:
        for (unsigned b = 0; b < g; b++)
            sum += part[b];
        ((float *)in)[0] = sum;
        break;
    case PAST_OUT:
        for (unsigned b = 0; b < g; b++)
            out[b] = part[b];
        return;
    case SHUFFLE_OWN_VALUE:
        for (unsigned b = 0; b < g; b++)
            sum += 2 * part[b];
        break;
    case SLOT_TWICE:
        for (unsigned b = 0; b < g; b++)
            sum += part[b];
        sum += in[n / 2]; /* its slot read again: x[n / 2] twice */
        break;
    default:
        for (unsigned b = 0; b < g; b++)
            sum += part[b];
    }
    out[0] = sum;
}

/* The planted grid run on the host, its launches logged as gpu.c logs a lab's. */
static int run_planted(const tl_call *call, tl_entry_fn fn, tl_matrix *const m[], tl_shape s,
                       char *why, size_t why_len)
{
    size_t n = tl_shape_elements(s);
    unsigned g = blocks_for(n);
    tl_launch_reset();
    if (planted == ZERO_BLOCKS && n == 0) {
        tl_launch_note((unsigned[3]){0, 1, 1}, (unsigned[3]){block_of, 1, 1}, 0, "reduce_kernel");
        snprintf(why, why_len, "launching your kernel: CUDA error cudaErrorInvalidValue");
        return -1;
    }
    tl_launch_note((unsigned[3]){g ? g : 1, 1, 1}, (unsigned[3]){block_of, 1, 1}, 0, "reduce_kernel");
    if (planted == SHORT_SECOND_PASS)
        tl_launch_note((unsigned[3]){1, 1, 1}, (unsigned[3]){second_threads, 1, 1}, 0, "add_partials");
    return tl_cpu_backend.run(call, fn, m, s, why, why_len);
}

static const tl_backend planted_gpu = {"planted GPU", 1, run_planted};

static void expect_caught(mistake what, size_t n, const char *hint, const char *never)
{
    planted = what;
    tl_check_reduce(&verdict, planted_reduce, &planted_gpu, n, 99);
    cr_assert(!verdict.ok, "planted mistake %d passed at n = %zu", (int)what, n);
    cr_assert(strstr(verdict.message, hint), "the message for n = %zu lacks \"%s\":\n%s", n, hint,
              verdict.message);
    cr_assert(!never || !strstr(verdict.message, never),
              "the message says \"%s\", which misleads here:\n%s", never, verdict.message);
    char size[64];
    snprintf(size, sizeof size, "n = %zu floats", n);
    cr_assert(strstr(verdict.message, size), "the message must name n:\n%s", verdict.message);
}

Test(reduce_checker, accepts_every_right_sum_in_any_order)
{
    static const size_t sizes[] = {0, 1, 2, 31, 127, 128, 129, 1000, 4097, 100003};
    planted = RIGHT;
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        tl_check_reduce(&verdict, planted_reduce, &planted_gpu, sizes[i], 99);
        cr_assert(verdict.ok, "n = %zu: %s", sizes[i], verdict.message);
        cr_assert_eq(verdict.message[0], '\0');
    }
}

/* Every order of the fill's data sums exactly: a float loop forwards, backwards, pairwise. */
static float pairwise(const float *x, size_t n)
{
    return n == 1 ? x[0] : pairwise(x, n / 2) + pairwise(x + n / 2, n - n / 2);
}

Test(reduce_checker, every_order_sums_the_data_exactly)
{
    static const size_t sizes[] = {1, 1000, (size_t)1 << 20, ((size_t)3 << 20) + 7};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        size_t n = sizes[k];
        float *x = malloc(n * sizeof *x), up = 0, down = 0;
        double abs_sum, exact = tl_reduce_fill(x, n, 7, &abs_sum);
        size_t nonzero = 0;
        for (size_t i = 0; i < n; i++)
            up += x[i], nonzero += x[i] != 0;
        for (size_t i = n; i-- > 0;)
            down += x[i];
        cr_expect_eq((double)up, exact, "n = %zu: forwards %.9g, exact %.9g", n, (double)up, exact);
        cr_expect_eq((double)down, exact, "n = %zu: backwards %.9g", n, (double)down);
        cr_expect_eq((double)pairwise(x, n), exact, "n = %zu: pairwise", n);
        cr_expect(abs_sum < 16777216.0 * TL_REDUCE_QUANTUM, "n = %zu: magnitudes %g", n, abs_sum);
        cr_expect_eq(tl_reduce_tolerance(n, abs_sum, TL_REDUCE_QUANTUM), 0.0);
        /* dense to 2^20, and the last 2^16 always: where tails are lost */
        size_t dense = n <= ((size_t)1 << 20) ? n : (size_t)1 << 16;
        for (size_t i = n - dense; i < n; i++)
            cr_assert(x[i] != 0, "n = %zu: x[%zu] is 0 in the dense part", n, i);
        cr_expect(nonzero > n / 8 || nonzero > ((size_t)1 << 19), "n = %zu: only %zu nonzero", n, nonzero);
        free(x);
    }
}

/* Past 2^24 quanta the bound is Higham's, and a float sum in a shuffled order stays within it. */
Test(reduce_checker, the_bound_holds_a_sum_of_any_data)
{
    size_t n = 1 << 16;
    float *x = malloc(n * sizeof *x), sum = 0;
    uint64_t state = 5;
    double exact = 0, mags = 0;
    for (size_t i = 0; i < n; i++) {
        x[i] = (float)((double)(tl_rand_next(&state) >> 11) / 9007199254740992.0 * 1000.0 - 1.0);
        exact += x[i], mags += fabs(x[i]);
    }
    for (size_t i = 0; i < n; i++)
        sum += x[(i * 40503) % n];
    double tol = tl_reduce_tolerance(n, mags, 0x1p-24);
    cr_assert(tol > 0 && fabs(sum - exact) <= tol, "error %g, bound %g", fabs(sum - exact), tol);
    cr_assert(fabs(sum - exact) > 0, "this data rounds: the test must need the bound");
    free(x);
}

Test(reduce_checker, names_a_lost_tail_by_the_launch)
{
    block_of = 32, per = 4;
    /* 3 whole blocks of 128 and 77 left: the grid rounded down covers 384 */
    expect_caught(GRID_ROUNDED_DOWN, 461, "lacks exactly the last 77 element(s), x[384] to x[460]",
                  NULL);
    expect_caught(GRID_ROUNDED_DOWN, 461, "covers 384 = 96 x 4 elements", "block's elements");
    expect_caught(GRID_ROUNDED_DOWN, 100003, "Round the number of blocks up", NULL);
}

/* float4 loads over the whole groups of four leave n % 4 out, at no block's end (a student's
 * n = 31 was told of missing barriers, *d_out += sum and shuffle widths, 2026-11-28). */
Test(reduce_checker, names_a_tail_float4_loads_left_out)
{
    grid_of = 8, block_of = 256, per = 4;
    expect_caught(FLOAT4_TAIL, 31, "lacks exactly the last 3 element(s), x[28] to x[30]", "atomicAdd");
    expect_caught(FLOAT4_TAIL, 31, "leaves out the last n % 4 = 3", "__syncthreads");
    expect_caught(FLOAT4_TAIL, 100003, "leaves out the last n % 4 = 3", NULL);
    grid_of = 8, block_of = 32, per = 4;
}

Test(reduce_checker, names_a_partial_stored_not_added)
{
    grid_of = 8, block_of = 32, per = 4;
    expect_caught(STORES_NOT_ADDS, 5000, "holds exactly the sum of one block's elements: those of "
                                         "block 7 of your 8", "last");
    expect_caught(STORES_NOT_ADDS, 5000, "atomicAdd(d_out, sum)", NULL);
}

Test(reduce_checker, names_partials_a_second_pass_left_out)
{
    grid_of = 8, block_of = 32, per = 4, second_threads = 4;
    expect_caught(SHORT_SECOND_PASS, 5000, "blocks 0 to 3 of your 8", NULL);
    expect_caught(SHORT_SECOND_PASS, 5000, "second launch has 4 threads a block", NULL);
}

Test(reduce_checker, names_one_lost_partial)
{
    grid_of = 8, block_of = 32, per = 2;
    expect_caught(ONE_PARTIAL_LOST, 3000, "lacks exactly the partial sum of block 1 of your 8", NULL);
    expect_caught(ONE_PARTIAL_LOST, 3000, "atomicAdd", NULL);
}

Test(reduce_checker, names_every_block_summing_everything)
{
    grid_of = 6, block_of = 32, per = 4;
    expect_caught(EACH_BLOCK_ALL, 2000, "exactly 6 times the right one", NULL);
    expect_caught(EACH_BLOCK_ALL, 2000, "each block summed the whole array", NULL);
}

Test(reduce_checker, names_a_sum_of_nothing_and_a_sum_added_by_every_thread)
{
    grid_of = 4, block_of = 32, per = 4;
    expect_caught(NOTHING_ADDED, 1000, "the sum is 0: nothing was added", "times the right one");
    expect_caught(EACH_THREAD_ADDS, 1000, "exactly 32 times the right one", NULL);
    expect_caught(EACH_THREAD_ADDS, 1000, "every thread of a block added the block's sum", "grid");
}

Test(reduce_checker, names_an_output_never_stored_or_added_to_unset)
{
    grid_of = 4, block_of = 32, per = 4;
    expect_caught(NOTHING_STORED, 1000, "nothing was stored to it", NULL);
    /* a last block never found: a student's count of blocks done, never set back (2026-11-29) */
    expect_caught(NOTHING_STORED, 1000, "count of blocks done that an earlier call left past 0", NULL);
    expect_caught(ATOMIC_UNSET, 1000, "without setting it to 0 first", NULL);
    expect_caught(NOTHING_STORED, 0, "should be 0 (the sum of no elements)", "atomicAdd");
    /* a GPU adds to the harness's NaN and makes its own: the cause is still named */
    expect_caught(GPU_NAN, 1000, "atomicAdd added to *d_out without setting it to 0 first", NULL);
    expect_caught(GPU_NAN, 1000, "On a GPU every NaN an addition makes is the same", NULL);
}

Test(reduce_checker, names_a_launch_of_no_blocks_for_no_elements)
{
    expect_caught(ZERO_BLOCKS, 0, "return before the launch", "past 2^31");
    cr_assert(verdict.run_failed, "the call failed: %s", verdict.message);
}

Test(reduce_checker, tells_where_a_nan_came_from)
{
    grid_of = 4, block_of = 32, per = 4;
    expect_caught(READS_PAST_END, 1001, "read past x[n - 1]", "__shared__");
    expect_caught(UNWRITTEN_SLOT, 1001, "fills __shared__ memory", "past x[n - 1]");
}

Test(reduce_checker, names_writes_to_the_input_and_past_the_output)
{
    grid_of = 4, block_of = 32, per = 4;
    expect_caught(IN_PLACE, 1000, "the input was changed (x[0] first)", NULL);
    expect_caught(PAST_OUT, 1000, "wrote past *d_out", NULL);
}

Test(reduce_checker, names_elements_added_twice_or_not_at_all)
{
    grid_of = 4, block_of = 32, per = 4;
    expect_caught(SLOT_TWICE, 1000, "__syncthreads() missing between two rounds", "lacks exactly");
    expect_caught(SLOT_TWICE, 1000, "__syncwarp()", NULL);
    /* A warp's last step over half the values the tree left (a student's shuffles in lanes
     * t < 16 after rounds that stop at 32 slots, 2026-11-28): the hint named only barriers. */
    expect_caught(WARP_HALF_OUT, 1000, "rounds that stop at 32 slots and shuffles over 16 lanes",
                  "lacks exactly");
}

/* A student's grid-stride loop stepping by blockDim.x * blockDim.x (2026-11-29): its threads
 * add one element each and leave; and shuffles of width 16 from offset 16, which hand each lane
 * its own value: both were told of other causes alone. */
Test(reduce_checker, names_a_step_past_n_and_a_shuffle_of_a_lanes_own_value)
{
    grid_of = 2, block_of = 32, per = 4;
    expect_caught(STEP_PAST_N, 1000, "lacks exactly the last 936 element(s)", NULL);
    expect_caught(STEP_PAST_N, 1000, "gridDim.x * blockDim.x (here 64)", NULL);
    grid_of = 1, block_of = 256;
    expect_caught(SHUFFLE_OWN_VALUE, 3, "exactly 2 times the right one", NULL);
    expect_caught(SHUFFLE_OWN_VALUE, 3, "offset is not below its width", NULL);
}

/*
 * Before the last 2^16 elements signs mix, and some prefix of a whole
 * number of blocks may sum to one block's partial by chance (the emulator's
 * run of a kernel storing its partials found one at n = 100003, 391 blocks
 * of 256): only the partial is named there. A second pass over the first
 * 256 of 391 partials of consecutive blocks is a lost tail, named by the
 * second launch.
 */
Test(reduce_checker, names_the_mistake_not_a_coincidence)
{
    grid_of = 391, block_of = 256, per = 1, second_threads = 256;
    expect_caught(STORES_NOT_ADDS, 100003, "one block's elements: those of block 390 of your 391",
                  "lacks exactly the last");
    expect_caught(SHORT_SECOND_PASS, 100003, "lacks exactly the last 34467 element(s)", NULL);
    expect_caught(SHORT_SECOND_PASS, 100003, "Your second launch has 256 threads in all, your "
                                             "first 391 blocks", "rounded down");
}

/* n rides in a tl_shape of ints as rows x cols of them (tl_count_shape): every n comes back
 * whole, past 2^31 too, and a prime past INT_MAX, which no such shape holds, is refused. */
Test(reduce_checker, a_shape_carries_n_past_2_31)
{
    static const size_t sizes[] = {0, 1, (1u << 30) - 1, 1u << 30, 2147483647u,
                                   ((size_t)1 << 31) + ((size_t)1 << 20) + 5, (size_t)1 << 40};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        tl_shape s = {-1, -1, -1};
        cr_expect_eq(tl_count_shape(sizes[i], &s), 0, "%zu has no shape", sizes[i]);
        cr_expect_eq(tl_shape_elements(s), sizes[i], "%zu came back as %zu", sizes[i], tl_shape_elements(s));
        cr_expect(s.rows >= 1 && s.cols >= 0, "%zu: %d x %d", sizes[i], s.rows, s.cols);
    }
    tl_shape s = {1, 1, 1}, prime = s;
    cr_expect_eq(tl_count_shape(2147483659u, &prime), -1, "the prime 2^31 + 11 became %d x %d",
                 prime.rows, prime.cols);
    cr_expect_eq(tl_count_shape(((size_t)1 << 31) + 7, &s), 0);
    char said[128];
    tl_call_reduce.describe(said, sizeof said, "reduce", s);
    cr_expect_str_eq(said, "reduce() of n = 2147483655 floats");
}

/* A reduction's sizes are counts of floats (op.h's dims 1), a transpose's still shapes. */
Test(reduce_checker, its_sizes_are_counts)
{
    tl_shape s[4];
    char why[256], said[64];
    const tl_op *reduce = tl_op_named("reduce"), *transpose = tl_op_named("transpose");
    cr_assert(reduce && transpose);
    cr_assert_eq(tl_op_parse_sizes(reduce, "4194304,1073741824,2148532229", s, 4, why, sizeof why), 3, "%s", why);
    cr_expect_eq(tl_shape_elements(s[0]), (size_t)4194304);
    cr_expect_eq(tl_shape_elements(s[1]), (size_t)1 << 30);
    cr_expect_eq(tl_shape_elements(s[2]), (size_t)2148532229u);
    tl_op_size(reduce, said, sizeof said, s[2]);
    cr_expect_str_eq(said, "2148532229");
    cr_expect_eq(tl_op_parse_sizes(reduce, "0", s, 4, why, sizeof why), -1);
    cr_expect(strstr(why, "count of elements"), "%s", why);
    cr_expect_eq(tl_op_parse_sizes(reduce, "64x64", s, 4, why, sizeof why), -1);
    cr_assert_eq(tl_op_parse_sizes(transpose, "4096", s, 4, why, sizeof why), 1, "%s", why);
    cr_expect(s[0].rows == 4096 && s[0].cols == 4096);
}
