/* Lab 8: sgemm, the extension: lab 7's shapes, and a tile of C per thread. */
#define TL_SUITE lab08
#include "matmul_tests.h"
#include "gpu_technique.h"

MATMUL_TESTS(sgemm, sgemm)

/* Held-back MxNxK shapes, run by the grader (see transpose_tests.h). */
TL_HELD_BACK(lab08_hidden, held_back_shapes, 120)
{
    tl_shape shapes[64];
    int n = tl_hidden_shapes(shapes, 64);
    for (int i = 0; i < n; i++)
        tl_expect_matmul(TL_ENTRY(sgemm), shapes[i].rows, shapes[i].cols, shapes[i].depth);
}

/*
 * Each thread a tile of C in registers (16 elements at least), from tiles of A
 * and B in shared memory, and the floats it reads from shared memory used for
 * more than one multiply-add: a TM x TN tile reads TM + TN floats a step
 * along k for TM * TN multiply-adds (4 x 4: 0.5 a multiply-add; lab 7's loop:
 * 2). The emulator counts the loads of its own build (g++), which may read
 * one operand again where nvcc keeps it in a register: a 4 x 4 tile written
 * as acc[i][j] += as[q][i] * bs[q][j] reads 1.25 there, a row of 16 1.06.
 * A thread that walks its 16 elements of C reading both operands from shared
 * memory for each multiply-add (2 each) has the elements but not the
 * blocking (tests/emu_corpus/lab08-tile-of-c-without-register-reuse.cu).
 *
 * Both at shapes drawn for each hand-in (gpu_technique.h), never one public
 * shape (tests/hostile/lab08-register-blocked-at-check-shape.cu). Elements a
 * thread at sides with tails, counted over C rounded up to whole tiles of 128
 * (the idle threads of a block on the edge are the tile's, not the
 * technique's; a thread of one element stays under 4 at these sides). The
 * reads a multiply-add where m and n are drawn multiples of 128, so that a
 * tile that divides 128 computes no padding whose reads would count against
 * it; k keeps its tail.
 */
static tl_shape lab08_whole_tiles_shape(void)
{
    tl_shape s = tl_technique_shape(4, 8, 1);
    s.rows = s.rows / 128 * 128;
    s.cols = s.cols / 128 * 128;
    return s;
}

TL_TECHNIQUE(lab08_technique, each_thread_computes_a_tile_of_c, 20)
{
    tl_shape s = tl_technique_shape(2, 4, 0);
    tl_emu_stats t = tl_counts_of(TL_ENTRY(sgemm), s.rows, s.cols, s.depth);
    double threads = (double)t.threads, each = tl_tiled_area(s.rows, s.cols, 128) / threads;
    cr_assert(each >= 16,
              "for a %d x %d C, %llu threads ran: %.1f elements of C each (%.1f counting C as whole "
              "tiles of 128 x 128, which excuses the idle threads of blocks on its edges): register "
              "blocking gives each thread a tile of C (at least 4 x 4, 16 elements) to keep in "
              "registers. README.md, step 1.",
              s.rows, s.cols, t.threads, (double)s.rows * s.cols / threads, each);

    tl_shape w = lab08_whole_tiles_shape();
    t = tl_counts_of(TL_ENTRY(sgemm), w.rows, w.cols, w.depth);
    tl_expect_tile_reuse(&t, w.rows, w.cols, w.depth, 8);
    double fmas = (double)w.rows * w.cols * w.depth, read = tl_shared_floats(t.shared_load_ideal);
    cr_assert(read <= 1.5 * fmas,
              "for a %d x %d x %d product, your kernels read %.0f floats from shared memory for its "
              "%.0f multiply-adds, %.2f each: every multiply-add reads its operands from shared "
              "memory again, as lab 7's loop does (2 each). Register blocking reads a row of the A "
              "tile and a column of the B tile into registers once a step along k and multiplies "
              "every pair of them: TM + TN floats for TM x TN multiply-adds (0.5 each for 4 x 4, "
              "0.25 for 8 x 8). README.md, step 1.",
              w.rows, w.cols, w.depth, read, fmas, read / fmas);
}
