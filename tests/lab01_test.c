/* Lab 1: the naive CPU transpose. */
#define TL_SUITE lab01
#define TL_LARGE 4096
#include "transpose_tests.h"
