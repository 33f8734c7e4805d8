/*
 * The SIMD intrinsics (__vadd2, __vcmpgtu4, __vsads2, ...) that tests/emu_cuda_kernels.cu
 * calls and tests/emu_cuda_test.c checks, in order: F(name, bits of a part, signed, what each
 * part gets), the one-operand ones apart. Plain C: the test's C file includes it too.
 */
#ifndef TILELAB_TESTS_EMU_SIMD_CUH
#define TILELAB_TESTS_EMU_SIMD_CUH

#define TL_SIMD_BOTH(F, n, s, kind) F(n##2, 16, s, kind) F(n##4, 8, s, kind)
#define TL_SIMD_SIGNS(F, n, kind) TL_SIMD_BOTH(F, n##s, 1, kind) TL_SIMD_BOTH(F, n##u, 0, kind)
#define TL_SIMD_UNARY(F)                                                                        \
    TL_SIMD_BOTH(F, __vabs, 1, SIMD_ABS) TL_SIMD_BOTH(F, __vabsss, 1, SIMD_ABS_SAT)            \
    TL_SIMD_BOTH(F, __vneg, 1, SIMD_NEG) TL_SIMD_BOTH(F, __vnegss, 1, SIMD_NEG_SAT)
#define TL_SIMD_BINARY(F)                                                                       \
    TL_SIMD_BOTH(F, __vadd, 0, SIMD_ADD) TL_SIMD_BOTH(F, __vaddss, 1, SIMD_ADD_SAT)            \
    TL_SIMD_BOTH(F, __vaddus, 0, SIMD_ADD_SAT) TL_SIMD_BOTH(F, __vsub, 0, SIMD_SUB)            \
    TL_SIMD_BOTH(F, __vsubss, 1, SIMD_SUB_SAT) TL_SIMD_BOTH(F, __vsubus, 0, SIMD_SUB_SAT)      \
    TL_SIMD_BOTH(F, __vavgs, 1, SIMD_AVG) TL_SIMD_BOTH(F, __vavgu, 0, SIMD_AVG)                \
    TL_SIMD_BOTH(F, __vhaddu, 0, SIMD_HADD) TL_SIMD_BOTH(F, __vabsdiffs, 1, SIMD_ABSDIFF)      \
    TL_SIMD_BOTH(F, __vabsdiffu, 0, SIMD_ABSDIFF) TL_SIMD_SIGNS(F, __vmax, SIMD_MAX)           \
    TL_SIMD_SIGNS(F, __vmin, SIMD_MIN) TL_SIMD_BOTH(F, __vcmpeq, 0, SIMD_CMP_EQ)               \
    TL_SIMD_BOTH(F, __vcmpne, 0, SIMD_CMP_NE) TL_SIMD_SIGNS(F, __vcmpge, SIMD_CMP_GE)          \
    TL_SIMD_SIGNS(F, __vcmpgt, SIMD_CMP_GT) TL_SIMD_SIGNS(F, __vcmple, SIMD_CMP_LE)            \
    TL_SIMD_SIGNS(F, __vcmplt, SIMD_CMP_LT) TL_SIMD_BOTH(F, __vseteq, 0, SIMD_SET_EQ)          \
    TL_SIMD_BOTH(F, __vsetne, 0, SIMD_SET_NE) TL_SIMD_SIGNS(F, __vsetge, SIMD_SET_GE)          \
    TL_SIMD_SIGNS(F, __vsetgt, SIMD_SET_GT) TL_SIMD_SIGNS(F, __vsetle, SIMD_SET_LE)            \
    TL_SIMD_SIGNS(F, __vsetlt, SIMD_SET_LT) TL_SIMD_SIGNS(F, __vsad, SIMD_SAD)

/* The pairs of operands each function gets: parts at their limits (0x8000, 0x7fff, 0x80,
 * 0x7f, 0xff), equal and unequal parts, and sums whose halves round. */
#define TL_SIMD_PAIRS                                                                           \
    {0x1234aba5u, 0x1234aba6u}, {0x80007fffu, 0x7fff8000u}, {0x807f01ffu, 0x7f80ff01u},         \
    {0xfffe0003u, 0x00030001u}, {0x00000000u, 0xffffffffu}, {0x7f80fe05u, 0x7f81fd04u},         \
    {0x8001fffbu, 0x8000fffcu}
#define TL_SIMD_PAIR_COUNT 7

#endif
