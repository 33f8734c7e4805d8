/* Lab NN: row sums on the GPU (tests/newop_test.sh's throwaway operation). */
#define TL_SUITE labNN
#include "tl_test.h"

static void expect(int rows, int cols)
{
    tl_expect(TL_ENTRY(row_sum), (tl_shape){rows, cols, 1});
}

TL_TEST(labNN, one_by_one, 10)
{
    expect(1, 1);
}

TL_TEST(labNN, thin_shapes, 10)
{
    expect(1, 1000);
    expect(1000, 1);
}

TL_TEST(labNN, rectangles, 20)
{
    expect(97, 89);
    expect(129, 257);
    expect(300, 31);
}
