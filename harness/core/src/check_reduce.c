/*
 * Correctness of a sum of n floats: the one float the lab stored against
 * the exact sum, with what a wrong one says about the kernel.
 *
 * A float sum depends on its order, and the bound on that (check_reduce.h,
 * tl_reduce_tolerance) grows with n until it says nothing: at 2^26 terms of
 * about 1, (n - 1) u sum|x| is 4 times the sum. So the data are chosen for
 * the bound to be 0: multiples of 1/8 whose magnitudes add up to less than
 * 2^24 eighths, which every order sums exactly. Then a sum is right or it
 * is not, and what is missing from a wrong one is an exact number: a tail's
 * sum, whole blocks' partial sums, the whole sum again. Past 2^20 elements
 * that budget makes the data sparse (zeros between), dense again over the
 * last 2^16, where the lost tails are. There every value is positive, so
 * that the sums of the last t elements grow with t: an amount missing is
 * one tail's sum at most, never a coincidence of several.
 */
#include "check_reduce.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launch.h"

#define UNIT_ROUNDOFF (1.0 / 16777216.0)
#define QUANTA_LIMIT 16777216.0          /* 2^24: a float holds every integer below it */
#define DENSE ((size_t)1 << 20)          /* up to here every element is nonzero */
#define DENSE_TAIL ((size_t)1 << 16)     /* and over the last this many, whatever n */
#define MAX_QUANTA 15                    /* values are +-1/8 .. +-15/8 */

double tl_reduce_tolerance(size_t n, double abs_sum, double quantum)
{
    if (abs_sum / quantum < QUANTA_LIMIT)
        return 0.0;
    double nu = (double)(n ? n - 1 : 0) * UNIT_ROUNDOFF;
    return nu < 1.0 ? nu / (1.0 - nu) * abs_sum : INFINITY;
}

/* ---------------------------------------------------------------- the data */

/*
 * The values in order, a block at a time: the fill and the check that in
 * came back unchanged. A block of the sparse head is `every` elements with
 * one nonzero at most, at a place drawn for it, so that filling and
 * checking 2^31 elements costs a draw a block, not one an element (a
 * GPU's test past 2^31 fills and checks 8 GiB within a call's time limit).
 */
typedef struct {
    uint64_t state;
    size_t n, i, head, every; /* head: the elements before the dense tail, in blocks of `every` */
    double budget;            /* quanta the head may still use */
} fill_stream;

static void fill_start(fill_stream *f, size_t n, uint64_t seed)
{
    size_t tail = n < DENSE_TAIL ? n : DENSE_TAIL;
    f->state = seed ^ ((uint64_t)n * 0x9e3779b97f4a7c15u);
    f->n = n;
    f->i = 0;
    f->head = n - tail;
    f->every = f->head <= DENSE ? 1 : (f->head + DENSE - 1) / DENSE;
    f->budget = QUANTA_LIMIT - 1 - (double)MAX_QUANTA * (double)tail;
}

/* The elements of the next block, at most f->every: the rest of the head's block, or one. */
static size_t block_length(const fill_stream *f)
{
    if (f->i >= f->head)
        return 1;
    return f->head - f->i < f->every ? f->head - f->i : f->every;
}

/*
 * The next block's values into x (block_length of them), their sum and
 * magnitudes added to *sum and *mags, in quanta; returns how many. In the
 * head a value of k quanta is kept while the budget lasts.
 */
static size_t fill_block(fill_stream *f, float *x, double *sum, double *mags)
{
    size_t len = block_length(f);
    uint64_t r = tl_rand_next(&f->state);
    int k = 1 + (int)(r % MAX_QUANTA), q = r >> 63 ? -k : k;
    size_t at = (size_t)((r >> 8) % len);
    int head = f->i < f->head;
    f->i += len;
    memset(x, 0, len * sizeof *x);
    if (head && f->budget < k)
        return len;
    if (head)
        f->budget -= k;
    else
        q = k; /* the dense end: every value positive */
    x[at] = (float)(q * TL_REDUCE_QUANTUM);
    *sum += q;
    *mags += k;
    return len;
}

double tl_reduce_fill(float *x, size_t n, uint64_t seed, double *abs_sum)
{
    fill_stream f;
    double sum = 0, mags = 0;
    fill_start(&f, n, seed);
    for (size_t i = 0; i < n;)
        i += fill_block(&f, x + i, &sum, &mags);
    if (abs_sum)
        *abs_sum = mags * TL_REDUCE_QUANTUM;
    return sum * TL_REDUCE_QUANTUM;
}

/* Index of the first element of x that is not the fill's, or n (n, too, where no memory
 * for a block is left: the sum's check still stands). */
static size_t first_changed(const float *x, size_t n, uint64_t seed)
{
    fill_stream f;
    double sum = 0, mags = 0;
    fill_start(&f, n, seed);
    float *want = malloc(f.every * sizeof *want);
    for (size_t i = 0; want && i < n;) {
        size_t len = fill_block(&f, want, &sum, &mags);
        if (memcmp(x + i, want, len * sizeof *want))
            for (size_t j = 0; j < len; j++)
                if (tl_float_bits(x[i + j]) != tl_float_bits(want[j])) {
                    free(want);
                    return i + j;
                }
        i += len;
    }
    free(want);
    return n;
}

/* ---------------------------------------------------------------- the diagnosis */

/* What the diagnosis knows: the data in quanta's terms, the launches. */
typedef struct {
    const float *x;
    size_t n;
    double exact, got; /* in quanta; got is an integer where it is right or a sum of elements */
    unsigned grid, block; /* the first launch's blocks and threads a block (0: none known) */
} reduce_case;

static double quanta(float v)
{
    return (double)v / TL_REDUCE_QUANTUM;
}

/*
 * Of the t (1 <= t <= n - 1) whose last t elements sum to `missing`, and
 * whose n - t, the elements kept, is a whole number of the launch's blocks
 * (of warps, where no launch is known): the one whose n - t is most even
 * (blocks and rounds cover powers of two), the smallest such; 0 for none.
 * A grid stops at the end of a block or a round, never within one: an
 * amount that only a tail ending elsewhere sums to is not a lost tail. Over
 * the last DENSE_TAIL elements, all positive, one t at most sums to any
 * amount; before them signs mix, and a sum of the right amount may turn up
 * by chance at one of many t: there only a t at which a whole number of
 * the launch's rounds ends counts.
 */
/* A tail of t elements that float4 loads over the first n / 4 * 4 leave out: they stop at a
 * multiple of 4 (README.md, step 8: the up to three after the last whole one need loads of
 * their own). */
static int float4_tail(size_t kept, size_t t)
{
    return t < 4 && kept % 4 == 0;
}

static size_t lost_tail(const reduce_case *c, double missing)
{
    size_t unit = c->block ? c->block : 32;
    unsigned long long round = (unsigned long long)c->grid * c->block;
    double suffix = 0;
    size_t best = 0;
    int best_zeros = -1;
    for (size_t t = 1; t < c->n; t++) {
        suffix += quanta(c->x[c->n - t]);
        if (suffix != missing)
            continue;
        size_t kept = c->n - t;
        int zeros = 0;
        if (!float4_tail(kept, t) && (kept % unit || (t > DENSE_TAIL && (!round || kept % round))))
            continue;
        while (zeros < 62 && !(kept >> zeros & 1))
            zeros++;
        if (zeros > best_zeros)
            best = t, best_zeros = zeros;
    }
    return best;
}

static void hint_tail(char *msg, size_t len, const reduce_case *c, size_t t)
{
    size_t kept = c->n - t;
    unsigned long long threads = (unsigned long long)c->grid * c->block;
    tl_appendf(msg, len,
               "  hint: the sum lacks exactly the last %zu element(s), x[%zu] to x[%zu]: what is "
               "missing, %.9g, is their sum. It holds the first %zu.\n",
               t, kept, c->n - 1, (c->exact - c->got) * TL_REDUCE_QUANTUM, kept);
    if (c->n > (size_t)INT_MAX && kept <= (size_t)1 << 31 && kept + ((size_t)1 << 24) > (size_t)1 << 31) {
        tl_appendf(msg, len,
                   "  hint: it stops near 2^31 = 2147483648 elements, where an int index "
                   "overflows: with n = %zu, index with size_t (size_t i = (size_t)blockIdx.x * "
                   "blockDim.x + threadIdx.x; the stride too), never int or unsigned.\n",
                   c->n);
        return;
    }
    /* Launches are read only where the first was (c->grid): a CPU run leaves the log alone. */
    const tl_launch *second = c->grid && tl_launch_count() > 1 ? tl_launch_get(1) : NULL;
    unsigned long long second_threads =
        second ? (unsigned long long)second->grid[0] * second->grid[1] * second->grid[2] *
                     second->block[0] * second->block[1] * second->block[2]
               : 0;
    if (second_threads && c->grid > second_threads && kept % second_threads == 0) {
        tl_appendf(msg, len,
                   "  Your second launch has %llu threads in all, your first %u blocks, and the "
                   "first %zu elements are %llu x %zu: if each thread of the second launch adds "
                   "one block's partial sum, it adds %llu of the %u, and the rest are lost. Loop "
                   "over the partials (j += blockDim.x) while j is below the number of blocks.\n",
                   second_threads, c->grid, kept, second_threads, (size_t)(kept / second_threads),
                   second_threads, c->grid);
        return;
    }
    if (threads && kept % threads == 0) {
        tl_appendf(msg, len,
                   "  Your first launch, %u block(s) of %u threads, %llu threads in all, covers "
                   "%zu = %llu x %zu elements, exactly those it summed: the part of a last round "
                   "that does not fill every thread was left out. Round the number of blocks up "
                   "((n + per_block - 1) / per_block), or loop while the index is below n, and "
                   "test each element's index (i < n, for each of a thread's elements) rather "
                   "than stopping at the last whole round.\n",
                   c->grid, c->block, threads, kept, threads, (size_t)(kept / threads));
        /* One element a thread and no more: a grid too small, or a grid-stride loop whose
         * step ran past n from the first element (blockDim.x * blockDim.x for gridDim.x *
         * blockDim.x: a student's, 2026-11-29, told only to round the grid up). */
        if (kept == threads)
            tl_appendf(msg, len,
                       "  If your threads loop over their elements, each left after its first: a "
                       "grid-stride loop steps by the grid's threads, gridDim.x * blockDim.x "
                       "(here %llu), times a thread's elements per step; a longer step "
                       "(blockDim.x * blockDim.x, say) jumps past n at once.\n",
                       threads);
        return;
    }
    if (float4_tail(kept, t) && !(c->block && kept % c->block == 0)) {
        tl_appendf(msg, len,
                   "  n = %zu is %zu whole groups of four and %zu more: a thread that loads four at "
                   "a time (a float4 over in, n / 4 of them) leaves out the last n %% 4 = %zu. Add "
                   "those after the float4 loop, one a thread (i = n / 4 * 4 + threadIdx.x of one "
                   "block, while i < n): README.md, step 8.\n",
                   c->n, kept / 4, t, t);
        return;
    }
    if (c->block && kept % c->block == 0) {
        tl_appendf(msg, len,
                   "  %zu is a multiple of your blocks' %u threads: the usual cause is a block "
                   "count rounded down (n / blockDim.x), or a test that drops a partial block's "
                   "elements (a thread with i + blockDim.x >= n adding neither element). Round "
                   "up, and test each element's index against n on its own.\n",
                   kept, c->block);
        return;
    }
    tl_appendf(msg, len, "  n = %zu is not a multiple of what a block or a round covers: round the "
                         "number of blocks up, and test each element's index (i < n) on its own.\n",
               c->n);
}

/* got = m times exact, m >= 2: every element counted m times. */
static int hint_times(char *msg, size_t len, const reduce_case *c)
{
    if (c->exact == 0 || c->got == 0 || fmod(c->got, c->exact) != 0)
        return 0;
    double m = c->got / c->exact;
    if (m < 2 || m > 1 << 20)
        return 0;
    tl_appendf(msg, len, "  hint: the sum is exactly %.0f times the right one: every element was "
                         "added %.0f times.", m, m);
    if (c->grid > 1 && m == c->grid)
        tl_appendf(msg, len, " %.0f is your grid's number of blocks: each block summed the whole "
                             "array. A block starts at blockIdx.x * (the elements a block takes) "
                             "and a grid-stride loop steps by blockDim.x * gridDim.x (times a "
                             "thread's elements), not by blockDim.x.\n", m);
    else if (c->block > 1 && m == c->block)
        tl_appendf(msg, len, " %.0f is your blocks' number of threads: every thread of a block "
                             "added the block's sum to *d_out. Only one does: if (threadIdx.x "
                             "== 0) atomicAdd(d_out, sum);\n", m);
    else
        tl_appendf(msg, len, " A stride too short (each thread's loop overlapping the next "
                             "thread's), or the result added to *d_out more than once%s.\n",
                   m == 2 ? "; or a warp shuffle whose offset is not below its width "
                            "(__shfl_down_sync(mask, v, 16, 16): the width cuts the warp into "
                            "segments of 16 lanes, and a lane whose source lies past its segment "
                            "gets its own value back, so v += doubles it)"
                          : "");
    return 1;
}

/*
 * Whole blocks' partial sums, as a block takes `chunk` consecutive elements
 * in turn, block b those with i / chunk % grid == b: as a grid-stride loop
 * does (NVIDIA's several elements a thread, float4 loads, a block's first
 * add during load), and a grid of blocks of `chunk` elements each without
 * one. Three mistakes leave whole partials: a block that stores its sum
 * instead of adding it (the last one's stays), a second pass that adds only
 * the first K partials, and one block's partial lost. Before the dense
 * positive end the data's signs mix, and the sums of the first K blocks
 * wander: one of them may equal any sum by chance. So a first K counts
 * only where the second launch says K (its threads, or its block's), as a
 * second pass of one partial a thread does.
 */
static int hint_blocks(char *msg, size_t len, const reduce_case *c)
{
    unsigned g = c->grid;
    if (g < 2 || c->block == 0)
        return 0;
    const tl_launch *second = tl_launch_count() > 1 ? tl_launch_get(1) : NULL;
    unsigned second_block = second ? second->block[0] * second->block[1] * second->block[2] : 0;
    unsigned long long second_threads =
        second ? (unsigned long long)second_block * second->grid[0] * second->grid[1] * second->grid[2] : 0;
    double *part = malloc(g * sizeof *part);
    if (!part)
        return 0;
    int said = 0;
    for (size_t chunk = c->block; !said && chunk <= c->n && chunk <= (size_t)c->block << 6; chunk *= 2) {
        memset(part, 0, g * sizeof *part);
        for (size_t i = 0; i < c->n; i++)
            part[i / chunk % g] += quanta(c->x[i]);
        double prefix = 0;
        unsigned one = g, first = 0, lacks = g;
        for (unsigned b = 0; b < g; b++) {
            if (part[b] == c->got && part[b] != c->exact && part[b] != 0)
                one = b;
            prefix += part[b];
            if (b + 1 < g && prefix == c->got && prefix != 0 &&
                (b + 1 == second_threads || b + 1 == second_block))
                first = b + 1;
            if (part[b] != 0 && c->exact - part[b] == c->got)
                lacks = b;
        }
        const char *how = "each block taking";
        if (first) {
            tl_appendf(msg, len,
                       "  hint: *d_out holds exactly the partial sums of blocks 0 to %u of your "
                       "%u (%s %zu consecutive elements in turn): those of blocks %u to %u are "
                       "missing.",
                       first - 1, g, how, chunk, first, g - 1);
            tl_appendf(msg, len, " Your second launch has %u threads a block (%llu in all): if "
                                 "each adds one partial, it adds %u of the %u. Loop over the "
                                 "partials (j += blockDim.x) while j is below the number of "
                                 "blocks.\n",
                       second_block, second_threads, first, g);
            said = 1;
        } else if (one < g) {
            tl_appendf(msg, len,
                       "  hint: *d_out holds exactly the sum of one block's elements: those of "
                       "block %u of your %u, %s %zu consecutive elements in turn (i / %zu %% "
                       "gridDim.x == %u). The blocks' partial sums replaced each other where they "
                       "should add up: a block that stores its sum (*d_out = sum) overwrites the "
                       "others'. Add it, atomicAdd(d_out, sum), with *d_out set to 0 before the "
                       "kernel (cudaMemset), or store one partial a block and add them in a "
                       "second pass.\n",
                       one, g, how, chunk, chunk, one);
            said = 1;
        } else if (lacks < g) {
            tl_appendf(msg, len,
                       "  hint: the sum lacks exactly the partial sum of block %u of your %u (%s "
                       "%zu consecutive elements in turn, i / %zu %% gridDim.x == %u): one block's "
                       "contribution never arrived, as when two blocks add to *d_out without an "
                       "atomic (*d_out += sum: both read the old value, one write is lost). Use "
                       "atomicAdd(d_out, sum).\n",
                       lacks, g, how, chunk, chunk, lacks);
            said = 1;
        }
    }
    free(part);
    return said;
}

/* A NaN: which marker it is says where it came from (check.c's margins, the emulator's shared poison). */
static void hint_nan(char *msg, size_t len, const reduce_case *c, uint32_t bits, int on_gpu)
{
    if (bits == TL_MARGIN_BITS)
        tl_appendf(msg, len,
                   "  hint: the sum is the NaN that fills the memory around the input: a thread "
                   "read past x[n - 1] (or before x[0]). Each load needs its own bounds test, "
                   "i < n, for every element a thread reads (the second of a first add during "
                   "load, i + blockDim.x < n, too)%s.\n",
                   c->n > (size_t)INT_MAX ? "; with n past 2^31, an int index that overflowed "
                                            "reads before x[0]: index with size_t"
                                          : "");
    else if (bits == TL_SHARED_POISON_BITS)
        tl_appendf(msg, len,
                   "  hint: the sum is the NaN that fills __shared__ memory before a block writes "
                   "it: a slot the tree read was never stored. Every thread stores its slot, "
                   "0.0f where it has no element (a thread past n must not skip the store or "
                   "return before it), and the tree reads only slots below blockDim.x, a power "
                   "of two.\n");
    else
        tl_appendf(msg, len,
                   "  hint: the sum is NaN, and no element of the input is one. %s"
                   "A load past x[n - 1] (its margins hold NaN), a __shared__ slot read before "
                   "any thread stored it, an accumulator never set to 0 (float sum; holds what "
                   "its register held), or atomicAdd added to *d_out without setting it to 0 "
                   "first (it holds a NaN before the call: cudaMemset(d_out, 0, sizeof(float)) "
                   "before the kernel) give one.\n",
                   on_gpu ? "On a GPU every NaN an addition makes is the same, so the sum no "
                            "longer says which: the emulator's run of the same file (GPU=emu) "
                            "keeps it. "
                          : "");
}

static void explain(char *msg, size_t len, const reduce_case *c, float got, int on_gpu)
{
    uint32_t bits = tl_float_bits(got);
    double exact = c->exact * TL_REDUCE_QUANTUM;
    if (bits == TL_POISON_BITS) {
        if (c->n == 0)
            tl_appendf(msg, len, "  *d_out should be 0 (the sum of no elements) and was never "
                                 "written. Store 0 there when n is 0 (cudaMemset(d_out, 0, "
                                 "sizeof(float))): a grid of (0 + B - 1) / B = 0 blocks is "
                                 "refused, so no kernel may be launched for it.\n");
        else
            tl_appendf(msg, len, "  *d_out should be %.9g and still holds what the harness put "
                                 "there before the call, a NaN: nothing was stored to it, or "
                                 "atomicAdd added to it without setting it to 0 first "
                                 "(cudaMemset(d_out, 0, sizeof(float)) before the kernel; NaN "
                                 "plus anything is NaN). Where the last block to finish stores "
                                 "it, no block found itself the last: a count of blocks done "
                                 "that an earlier call left past 0 (__device__ variables keep "
                                 "their values from call to call: the last block sets it back "
                                 "to 0, or atomicInc(&done, gridDim.x - 1) wraps it there).\n",
                       exact);
        return;
    }
    tl_appendf(msg, len, "  *d_out should be %.9g, got %.9g", exact, (double)got);
    if (got != got) {
        tl_appendf(msg, len, "\n");
        hint_nan(msg, len, c, bits, on_gpu);
        return;
    }
    tl_appendf(msg, len, " (off by %.9g; the data are multiples of 1/8 whose magnitudes add up to "
                         "less than 2^21, which every order of summation adds exactly)\n",
               (double)got - exact);
    if (c->n == 0) {
        tl_appendf(msg, len, "  hint: with n = 0 there is nothing to add: the sum is 0.\n");
        return;
    }
    if (got == 0) {
        tl_appendf(msg, len, "  hint: the sum is 0: nothing was added to *d_out after it was set "
                             "to 0%s.\n",
                   c->n > (size_t)INT_MAX ? ", as when n, past 2^31, went through an int and came "
                                            "out negative: keep it size_t"
                                          : "");
        return;
    }
    if (hint_times(msg, len, c))
        return;
    /* Only an integer number of quanta is a sum of elements. */
    if (c->got == floor(c->got)) {
        if (c->n > (size_t)UINT_MAX) {
            size_t kept = c->n & UINT_MAX;
            double prefix = 0;
            for (size_t i = 0; i < kept; i++)
                prefix += quanta(c->x[i]);
            if (prefix == c->got) {
                tl_appendf(msg, len, "  hint: the sum holds exactly the first %zu elements, n mod "
                                     "2^32: n went through a 32-bit int or unsigned. Keep it, and "
                                     "every index, size_t.\n", kept);
                return;
            }
        }
        size_t t = lost_tail(c, c->exact - c->got);
        if (t) {
            hint_tail(msg, len, c, t);
            return;
        }
        if (hint_blocks(msg, len, c))
            return;
    }
    tl_appendf(msg, len,
               "  hint: elements were added twice or not at all, and not as a tail or whole "
               "blocks' partial sums. In a tree in shared memory, a __syncthreads() missing "
               "between two rounds lets a thread read its partner's slot before the partner "
               "stored this round's value; a last warp unrolled without __syncwarp() between its "
               "steps (or without volatile on the shared pointer) does the same within a warp; "
               "compute-sanitizer --tool racecheck names both on a GPU. Blocks that add their "
               "partials with *d_out += sum instead of atomicAdd lose some of them. And a warp's "
               "last step must start from every value the tree left: rounds that stop at 32 "
               "slots and shuffles over 16 lanes (or a mask of lanes that do not all call them: "
               "a lane that takes no part hands over 0 on an H100) leave values out; a shuffle's "
               "offset as large as its width hands a lane its own value (added twice). A "
               "grid-stride loop steps by the grid's threads, gridDim.x * blockDim.x: a shorter "
               "step adds elements twice, a longer one (blockDim.x * blockDim.x) skips some.\n");
}

/* Whether a launch of the call asked for a grid with a side of 0, which CUDA refuses. */
static int launched_no_blocks(void)
{
    int n = tl_launch_count() < TL_MAX_LAUNCHES ? tl_launch_count() : TL_MAX_LAUNCHES;
    for (int i = 0; i < n; i++) {
        const tl_launch *l = tl_launch_get(i);
        if (!l->grid[0] || !l->grid[1] || !l->grid[2])
            return 1;
    }
    return 0;
}

void tl_check_reduce(tl_verdict *v, tl_reduce_fn fn, const tl_backend *backend, size_t n,
                     uint64_t seed)
{
    tl_matrix out = {NULL, NULL, 0}, in = out;
    char *msg = v->message;
    size_t len = sizeof v->message;
    memset(v, 0, sizeof *v);
    tl_appendf(msg, len, "reduce() of n = %zu floats on the %s (TILELAB_SEED=%llu):\n", n,
               backend->name, (unsigned long long)seed);
    if (tl_matrix_alloc(&out, 1) || tl_matrix_alloc(&in, n)) {
        tl_appendf(msg, len, "  not enough host memory\n");
        goto done;
    }
    double abs_sum, exact = tl_reduce_fill(in.data, n, seed, &abs_sum);
    tl_matrix_fill_margins(&in, TL_MARGIN_BITS);
    out.data[0] = tl_bits_float(TL_POISON_BITS);
    tl_matrix_fill_margins(&out, TL_GUARD_BITS);

    tl_shape shape;
    if (tl_count_shape(n, &shape) != 0) {
        tl_appendf(msg, len, "  n = %zu is no count a shape of ints carries (shapes.h)\n", n);
        goto done;
    }
    tl_todo_reset();
    char why[4096] = "";
    int ran = backend->run(&tl_call_reduce, (tl_entry_fn)fn, (tl_matrix *[]){&out, &in}, shape, why,
                           sizeof why);
    const char *todo = tl_note_run(msg, len, ran, why);
    v->run_failed = ran != 0;
    if (ran != 0) {
        /* Only where that was the failure: a kernel of one block that fails at n = 0 (a
         * grid's sync, an access) has another cause, which the lines above name. */
        if (n == 0 && launched_no_blocks())
            tl_appendf(msg, len, "  hint: with n = 0 a grid of (0 + B - 1) / B = 0 blocks is refused "
                                 "(a launch needs at least one): store 0 in *d_out "
                                 "(cudaMemset(d_out, 0, sizeof(float))) and return before the "
                                 "launch.\n");
        if (n > (size_t)INT_MAX)
            tl_appendf(msg, len, "  hint: n = %zu is past 2^31: an int index (int i = blockIdx.x "
                                 "* blockDim.x + threadIdx.x) overflows to a negative one there, "
                                 "far outside the array. Index with size_t.\n", n);
        goto done;
    }
    float got = out.data[0];
    double tol = tl_reduce_tolerance(n, abs_sum, TL_REDUCE_QUANTUM);
    int right = fabs((double)got - exact) <= tol;
    v->wrong = !right;

    size_t before = tl_find_not_bits(out.base, TL_MARGIN, TL_GUARD_BITS) != TL_MARGIN;
    size_t after = tl_find_not_bits(out.data + 1, TL_MARGIN, TL_GUARD_BITS) != TL_MARGIN;
    if (after)
        tl_appendf(msg, len, "  wrote past *d_out, which is one float: the partial sums of the "
                             "blocks need an array of their own (a __device__ array), d_out[0] "
                             "alone takes the result.\n");
    if (before)
        tl_appendf(msg, len, "  wrote before *d_out: a negative index?\n");
    size_t changed = first_changed(in.data, n, seed);
    int margins = tl_find_not_bits(in.base, TL_MARGIN, TL_MARGIN_BITS) != TL_MARGIN ||
                  tl_find_not_bits(in.data + n, TL_MARGIN, TL_MARGIN_BITS) != TL_MARGIN;
    if (changed < n)
        tl_appendf(msg, len, "  the input was changed (x[%zu] first): it is const. Add up in "
                             "registers and shared memory, or in a __device__ array of your "
                             "own, never in place in d_in.\n", changed);
    else if (margins)
        tl_appendf(msg, len, "  something was written just outside the input: it is const, and "
                             "nothing may be written around it either.\n");
    if (!right && todo)
        tl_appendf(msg, len, "  *d_out is wrong.\n");
    else if (!right) {
        const tl_launch *l = backend->on_gpu && tl_launch_count() > 0 ? tl_launch_get(0) : NULL;
        reduce_case c = {in.data, n, exact / TL_REDUCE_QUANTUM, quanta(got), 0, 0};
        if (l) {
            c.grid = l->grid[0] * l->grid[1] * l->grid[2];
            c.block = l->block[0] * l->block[1] * l->block[2];
        }
        explain(msg, len, &c, got, backend->on_gpu);
    }
    v->ok = right && !before && !after && changed == n && !margins;
done:
    if (v->ok)
        msg[0] = '\0';
    tl_matrix_free(&out);
    tl_matrix_free(&in);
}
