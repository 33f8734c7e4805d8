/*
 * cuda_fp16.h and cuda_bf16.h at their edges: ties to even, overflow, the
 * subnormals, NaN, the directed roundings, arithmetic rounded once. Included by
 * tests/emu_cuda_kernels.cu (the emulator's run, held to the values in
 * tests/emu_cuda_test.c) and by tests/probes/half_precision.cu (a GPU's).
 */
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#define TL_HALF_RESULTS 24

__global__ void half_precision(unsigned *out)
{
    const float tie = 1.0f + 1.0f / 2048, tie_up = 1.0f + 3.0f / 2048, above = 1.0f + 1.0f / (1 << 20);
    int k = 0;
    out[k++] = __half_as_ushort(__float2half(tie));                 /* 0x3c00: to even, down */
    out[k++] = __half_as_ushort(__float2half_rn(tie_up));           /* 0x3c02: to even, up */
    out[k++] = __half_as_ushort(__float2half(65519.0f));            /* 0x7bff: the largest */
    out[k++] = __half_as_ushort(__float2half(65520.0f));            /* 0x7c00: a tie past it, inf */
    out[k++] = __half_as_ushort(__float2half_rz(65520.0f));         /* 0x7bff */
    out[k++] = __half_as_ushort(__float2half(1.0f / (1 << 25)));    /* 0x0000: half the least subnormal */
    out[k++] = __half_as_ushort(__float2half(1.5f / (1 << 25)));    /* 0x0001 */
    out[k++] = __half_as_ushort(__float2half(__int_as_float(0x7fc00001))); /* 0x7fff: NaN */
    out[k++] = __half_as_ushort(__float2half_ru(above));            /* 0x3c01 */
    out[k++] = __half_as_ushort(__float2half_rd(-above));           /* 0xbc01 */
    out[k++] = __half_as_ushort(__float2half_rd(above));            /* 0x3c00 */
    out[k++] = __float_as_uint(__half2float(__ushort_as_half(0x0001))); /* 0x33800000: 2^-24 */
    __half a = __float2half(2048.0f), one = __float2half(1.0f);
    out[k++] = __half_as_ushort(__hadd(a, one));                    /* 0x6800: 2049 ties to 2048 */
    out[k++] = __half_as_ushort(a + one + one);                     /* 0x6800: each add rounds */
    out[k++] = __half_as_ushort(__hmul(__float2half(tie_up), __float2half(tie_up))); /* 0x3c04 */
    out[k++] = __half_as_ushort(__hfma(a, one, one));               /* 0x6800 */
    __half2 p = __floats2half2_rn(1.5f, -2.0f), q = __hmul2(p, __float2half2_rn(2.0f));
    out[k++] = (unsigned)__half_as_ushort(__low2half(q)) << 16 | __half_as_ushort(__high2half(q)); /* 0x4200c400 */
    out[k++] = __hlt(__float2half(1.0f), __float2half(2.0f)) * 10 + (__float2half(3.0f) == __float2half(3.0f)); /* 11 */
    out[k++] = (unsigned)__half2int_rz(__float2half(-2.75f));       /* -2 */
    const float bf_tie = 1.0f + 1.0f / 256, bf_tie_up = 1.0f + 3.0f / 256;
    out[k++] = __bfloat16_as_ushort(__float2bfloat16(bf_tie));      /* 0x3f80 */
    out[k++] = __bfloat16_as_ushort(__float2bfloat16(bf_tie_up));   /* 0x3f82 */
    out[k++] = __bfloat16_as_ushort(__float2bfloat16_rz(1.99f));    /* 0x3ffe */
    out[k++] = __float_as_uint(__bfloat162float(__float2bfloat16(3.0f))); /* 0x40400000 */
    out[k++] = __bfloat16_as_ushort(__hadd(__float2bfloat16(256.0f), __float2bfloat16(1.0f))); /* 0x4380: 257 ties to 256 */
}
