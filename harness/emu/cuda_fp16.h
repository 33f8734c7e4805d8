/*
 * cuda_fp16.h as lab files use it (the Math API's "Half Precision
 * Intrinsics"): __half and __half2, their conversions in each rounding mode,
 * arithmetic and comparisons (emu_float16.h, shared with cuda_bf16.h).
 */
#ifndef TILELAB_EMU_CUDA_FP16_H
#define TILELAB_EMU_CUDA_FP16_H

#include "emu_float16.h"

#ifdef __cplusplus

TL_EMU_FLOAT16_TYPE(__half, __half2, __half_raw, __half2_raw, tl_emu_half_rn, tl_emu_half_value)
typedef __half half;
typedef __half2 half2;
TL_EMU_ATOMIC_ADD_VECTOR(__half, TL_ATOMIC_F16)
TL_EMU_ATOMIC_ADD_VECTOR(__half2, TL_ATOMIC_F16)

static inline __half tl_emu_half_bits(unsigned short b) { return __half_raw{b}; }
static inline __half tl_emu_half_round(double v, int mode)
{
    return tl_emu_half_bits(tl_emu_f16_round(v, mode, tl_emu_half_rn, tl_emu_half_value));
}

static inline __half __float2half(float f) { return f; }
static inline __half __float2half_rn(float f) { return f; }
static inline __half __float2half_rz(float f) { return tl_emu_half_round(f, TL_EMU_RZ); }
static inline __half __float2half_rd(float f) { return tl_emu_half_round(f, TL_EMU_RD); }
static inline __half __float2half_ru(float f) { return tl_emu_half_round(f, TL_EMU_RU); }
static inline __half __double2half(double d) { return d; }
static inline float __half2float(__half h) { return h; }
static inline __half2 __float2half2_rn(float f) { return __half2(f, f); }
static inline __half2 __floats2half2_rn(float a, float b) { return __half2(a, b); }
static inline __half2 __float22half2_rn(float2 f) { return __half2(f.x, f.y); }
static inline float2 __half22float2(__half2 h) { return make_float2(h.x, h.y); }
static inline __half2 __halves2half2(__half a, __half b) { return __half2(a, b); }
static inline __half2 __half2half2(__half a) { return __half2(a, a); }
static inline __half __low2half(__half2 h) { return h.x; }
static inline __half __high2half(__half2 h) { return h.y; }
static inline __half2 __low2half2(__half2 h) { return __half2(h.x, h.x); }
static inline __half2 __high2half2(__half2 h) { return __half2(h.y, h.y); }

#define TL_EMU_HALF_INT(T, name)                                                                \
    static inline __half __##name##2half_rn(T i) { return tl_emu_half_round((double)i, TL_EMU_RN); } \
    static inline __half __##name##2half_rz(T i) { return tl_emu_half_round((double)i, TL_EMU_RZ); } \
    static inline __half __##name##2half_rd(T i) { return tl_emu_half_round((double)i, TL_EMU_RD); } \
    static inline __half __##name##2half_ru(T i) { return tl_emu_half_round((double)i, TL_EMU_RU); }
TL_EMU_HALF_INT(int, int)
TL_EMU_HALF_INT(unsigned int, uint)
TL_EMU_HALF_INT(short, short)
TL_EMU_HALF_INT(unsigned short, ushort)
TL_EMU_HALF_INT(long long, ll)
TL_EMU_HALF_INT(unsigned long long, ull)
#undef TL_EMU_HALF_INT
static inline int __half2int_rz(__half h) { return (int)h; }
static inline int __half2int_rn(__half h) { return tl_emu_f16_int(rintf(h)); }
static inline int __half2int_rd(__half h) { return tl_emu_f16_int(floorf(h)); }
static inline int __half2int_ru(__half h) { return tl_emu_f16_int(ceilf(h)); }
static inline unsigned int __half2uint_rz(__half h) { return (unsigned int)h; }
static inline unsigned int __half2uint_rn(__half h) { return tl_emu_f16_uint(rintf(h)); }
static inline short __half2short_rz(__half h) { return (short)h; }
static inline unsigned short __half2ushort_rz(__half h) { return (unsigned short)h; }
static inline long long __half2ll_rz(__half h) { return (long long)h; }
static inline short __half_as_short(__half h) { return (short)h.__x; }
static inline unsigned short __half_as_ushort(__half h) { return h.__x; }
static inline __half __short_as_half(short i) { return tl_emu_half_bits((unsigned short)i); }
static inline __half __ushort_as_half(unsigned short i) { return tl_emu_half_bits(i); }

#endif
#endif
