/*
 * cuda_bf16.h as lab files use it (the Math API's "Bfloat16 Precision
 * Intrinsics"): __nv_bfloat16 and __nv_bfloat162, their conversions in each
 * rounding mode, arithmetic and comparisons (emu_float16.h, shared with
 * cuda_fp16.h, which CUDA's cuda_bf16.h includes too).
 */
#ifndef TILELAB_EMU_CUDA_BF16_H
#define TILELAB_EMU_CUDA_BF16_H

#include "cuda_fp16.h"

#ifdef __cplusplus

TL_EMU_FLOAT16_TYPE(__nv_bfloat16, __nv_bfloat162, __nv_bfloat16_raw, __nv_bfloat162_raw,
                    tl_emu_bf16_rn, tl_emu_bf16_value)
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;
TL_EMU_ATOMIC_ADD_VECTOR(__nv_bfloat16, TL_ATOMIC_BF16)
TL_EMU_ATOMIC_ADD_VECTOR(__nv_bfloat162, TL_ATOMIC_BF16)

static inline __nv_bfloat16 tl_emu_bf16_bits(unsigned short b) { return __nv_bfloat16_raw{b}; }
static inline __nv_bfloat16 tl_emu_bf16_round(double v, int mode)
{
    return tl_emu_bf16_bits(tl_emu_f16_round(v, mode, tl_emu_bf16_rn_of_double, tl_emu_bf16_value));
}

static inline __nv_bfloat16 __float2bfloat16(float f) { return f; }
static inline __nv_bfloat16 __float2bfloat16_rn(float f) { return f; }
static inline __nv_bfloat16 __float2bfloat16_rz(float f) { return tl_emu_bf16_round(f, TL_EMU_RZ); }
static inline __nv_bfloat16 __float2bfloat16_rd(float f) { return tl_emu_bf16_round(f, TL_EMU_RD); }
static inline __nv_bfloat16 __float2bfloat16_ru(float f) { return tl_emu_bf16_round(f, TL_EMU_RU); }
static inline __nv_bfloat16 __double2bfloat16(double d) { return d; }
static inline float __bfloat162float(__nv_bfloat16 h) { return h; }
static inline __nv_bfloat162 __float2bfloat162_rn(float f) { return __nv_bfloat162(f, f); }
static inline __nv_bfloat162 __floats2bfloat162_rn(float a, float b) { return __nv_bfloat162(a, b); }
static inline __nv_bfloat162 __float22bfloat162_rn(float2 f) { return __nv_bfloat162(f.x, f.y); }
static inline float2 __bfloat1622float2(__nv_bfloat162 h) { return make_float2(h.x, h.y); }
static inline __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) { return __nv_bfloat162(a, b); }
static inline __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 a) { return __nv_bfloat162(a, a); }
static inline __nv_bfloat16 __low2bfloat16(__nv_bfloat162 h) { return h.x; }
static inline __nv_bfloat16 __high2bfloat16(__nv_bfloat162 h) { return h.y; }
static inline __nv_bfloat16 __int2bfloat16_rn(int i) { return tl_emu_bf16_round((double)i, TL_EMU_RN); }
static inline __nv_bfloat16 __uint2bfloat16_rn(unsigned int i) { return tl_emu_bf16_round((double)i, TL_EMU_RN); }
static inline int __bfloat162int_rz(__nv_bfloat16 h) { return (int)h; }
static inline int __bfloat162int_rn(__nv_bfloat16 h) { return tl_emu_f16_int(rintf(h)); }
static inline unsigned int __bfloat162uint_rz(__nv_bfloat16 h) { return (unsigned int)h; }
static inline short __bfloat16_as_short(__nv_bfloat16 h) { return (short)h.__x; }
static inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 h) { return h.__x; }
static inline __nv_bfloat16 __short_as_bfloat16(short i) { return tl_emu_bf16_bits((unsigned short)i); }
static inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short i) { return tl_emu_bf16_bits(i); }

#endif
#endif
