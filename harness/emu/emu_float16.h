/*
 * What cuda_fp16.h and cuda_bf16.h share: the 16-bit float types as CUDA
 * declares them (a struct of the bits, __x; implicit conversions from and to
 * float; the arithmetic and comparison operators and the __h functions), each
 * operation computed in float and rounded once to the type, to nearest even,
 * as a GPU's f16 and bf16 instructions round. Float has at least twice the
 * type's significand bits and two more, so rounding a float sum, difference,
 * product, quotient or square root once more gives the correctly rounded
 * result (no double-rounding error); fma goes through double.
 */
#ifndef TILELAB_EMU_FLOAT16_H
#define TILELAB_EMU_FLOAT16_H

#include "cuda_runtime.h"
#include "sm_30_intrinsics.h"

#ifdef __cplusplus

enum { TL_EMU_RN, TL_EMU_RZ, TL_EMU_RD, TL_EMU_RU };

/* float to binary16, to nearest even (gcc's _Float16 rounds so, and keeps subnormals); a NaN
 * is the canonical 0x7fff, as cvt.rn.f16.f32 gives. */
static inline unsigned short tl_emu_half_rn(double v)
{
    if (v != v)
        return 0x7fff;
    return __builtin_bit_cast(unsigned short, (_Float16)v);
}
static inline float tl_emu_half_value(unsigned short b)
{
    if ((b & 0x7c00) == 0x7c00 && (b & 0x3ff))
        return __builtin_bit_cast(float, 0x7fffffffu);
    return (float)__builtin_bit_cast(_Float16, b);
}

/* float to bfloat16, to nearest even: float's upper half, rounded on the lower. */
static inline unsigned short tl_emu_bf16_rn(float v)
{
    unsigned int u = __builtin_bit_cast(unsigned int, v);
    if (v != v)
        return 0x7fff;
    u += 0x7fffu + ((u >> 16) & 1);
    return (unsigned short)(u >> 16);
}
static inline unsigned short tl_emu_bf16_rn(double v)
{
    /* to float to nearest even first would round twice: a double that float rounds to a
     * tie between two bfloat16s. Round to float toward zero, and keep in its last bit
     * whether anything was cut off (sticky), so that the second rounding sees it. */
    float f = (float)v;
    if (f == f && (double)f != v && !__builtin_isinf(f)) {
        unsigned int u = __builtin_bit_cast(unsigned int, f);
        if (__builtin_fabs((double)f) > __builtin_fabs(v))
            u--; /* toward zero */
        f = __builtin_bit_cast(float, u | 1u);
    }
    return tl_emu_bf16_rn(f);
}
static inline float tl_emu_bf16_value(unsigned short b)
{
    if ((b & 0x7f80) == 0x7f80 && (b & 0x7f))
        return __builtin_bit_cast(float, 0x7fffffffu);
    return __builtin_bit_cast(float, (unsigned int)b << 16);
}

/* bits one step of the type away from b, up (toward +inf) or down. */
static inline unsigned short tl_emu_f16_step(unsigned short b, int up)
{
    if ((b & 0x7fff) == 0)
        return up ? 0x0001 : 0x8001;
    return (unsigned short)(((b & 0x8000) != 0) == up ? b - 1 : b + 1);
}

/* v rounded in the given mode: to nearest even, then one step back where that went the
 * wrong way (past v, away from zero for RZ). value gives back what bits hold. */
static inline unsigned short tl_emu_f16_round(double v, int mode, unsigned short (*rn)(double),
                                              float (*value)(unsigned short))
{
    unsigned short b = rn(v);
    double got = value(b);
    if (v != v || got == v)
        return b;
    if (mode == TL_EMU_RU && got < v)
        return tl_emu_f16_step(b, 1);
    if (mode == TL_EMU_RD && got > v)
        return tl_emu_f16_step(b, 0);
    if (mode == TL_EMU_RZ && __builtin_fabs(got) > __builtin_fabs(v))
        return tl_emu_f16_step(b, v < 0);
    return b;
}
static inline unsigned short tl_emu_bf16_rn_of_double(double v) { return tl_emu_bf16_rn(v); }

/*
 * T, its pair T2, their raw forms, and how a double rounds to T (RN) and T's bits read as a
 * float (VALUE). As in CUDA, numbers convert to T implicitly (assigning one is constructing a
 * T), T to float implicitly and to the integers explicitly.
 */
#define TL_EMU_FLOAT16_TYPE(T, T2, RAW, RAW2, RN, VALUE)                                        \
    struct RAW {                                                                               \
        unsigned short x;                                                                      \
    };                                                                                         \
    struct RAW2 {                                                                              \
        unsigned short x, y;                                                                   \
    };                                                                                         \
    struct __align__(2) T {                                                                    \
        unsigned short __x;                                                                    \
        T() = default;                                                                         \
        T(const RAW &r) : __x(r.x) {}                                                          \
        T(float f) : __x(RN(f)) {}                                                             \
        T(double f) : __x(RN(f)) {}                                                            \
        T(int i) : __x(RN((double)i)) {}                                                       \
        T(unsigned int i) : __x(RN((double)i)) {}                                              \
        T(short i) : __x(RN((double)i)) {}                                                     \
        T(unsigned short i) : __x(RN((double)i)) {}                                            \
        T(long i) : __x(RN((double)i)) {}                                                      \
        T(unsigned long i) : __x(RN((double)i)) {}                                             \
        T(long long i) : __x(RN((double)i)) {}                                                 \
        T(unsigned long long i) : __x(RN((double)i)) {}                                        \
        operator float() const { return VALUE(__x); }                                          \
        operator RAW() const { return RAW{__x}; }                                              \
        explicit operator bool() const { return (__x & 0x7fff) != 0; }                         \
        explicit operator int() const { return tl_emu_f16_int(VALUE(__x)); }                   \
        explicit operator unsigned int() const { return tl_emu_f16_uint(VALUE(__x)); }         \
        explicit operator short() const { return (short)tl_emu_f16_int(VALUE(__x)); }          \
        explicit operator unsigned short() const { return (unsigned short)tl_emu_f16_uint(VALUE(__x)); } \
        explicit operator long long() const { return (long long)tl_emu_f16_int(VALUE(__x)); }  \
    };                                                                                         \
    struct __align__(4) T2 {                                                                   \
        T x, y;                                                                                \
        T2() = default;                                                                        \
        T2(const T &a, const T &b) : x(a), y(b) {}                                             \
        T2(const RAW2 &r) : x(RAW{r.x}), y(RAW{r.y}) {}                                        \
        operator RAW2() const { return RAW2{x.__x, y.__x}; }                                   \
    };                                                                                         \
    static inline T __hadd(T a, T b) { return (float)a + (float)b; }                          \
    static inline T __hsub(T a, T b) { return (float)a - (float)b; }                          \
    static inline T __hmul(T a, T b) { return (float)a * (float)b; }                          \
    static inline T __hdiv(T a, T b) { return (float)a / (float)b; }                          \
    static inline T __hadd_rn(T a, T b) { return __hadd(a, b); }                              \
    static inline T __hsub_rn(T a, T b) { return __hsub(a, b); }                              \
    static inline T __hmul_rn(T a, T b) { return __hmul(a, b); }                              \
    static inline T __hfma(T a, T b, T c) { return (double)(float)a * (float)b + (float)c; }  \
    static inline T __hadd_sat(T a, T b) { return tl_emu_f16_sat(__hadd(a, b)); }            \
    static inline T __hsub_sat(T a, T b) { return tl_emu_f16_sat(__hsub(a, b)); }            \
    static inline T __hmul_sat(T a, T b) { return tl_emu_f16_sat(__hmul(a, b)); }            \
    static inline T __hfma_sat(T a, T b, T c) { return tl_emu_f16_sat(__hfma(a, b, c)); }    \
    static inline T __hneg(T a) { return RAW{(unsigned short)(a.__x ^ 0x8000)}; }             \
    static inline T __habs(T a) { return RAW{(unsigned short)(a.__x & 0x7fff)}; }             \
    static inline bool __hisnan(T a) { float f = a; return f != f; }                           \
    static inline int __hisinf(T a) { float f = a; return __builtin_isinf(f) ? (f < 0 ? -1 : 1) : 0; } \
    static inline bool __heq(T a, T b) { return (float)a == (float)b; }                       \
    static inline bool __hne(T a, T b) { return (float)a != (float)b && !__hisnan(a) && !__hisnan(b); } \
    static inline bool __hlt(T a, T b) { return (float)a < (float)b; }                        \
    static inline bool __hle(T a, T b) { return (float)a <= (float)b; }                       \
    static inline bool __hgt(T a, T b) { return (float)a > (float)b; }                        \
    static inline bool __hge(T a, T b) { return (float)a >= (float)b; }                       \
    static inline bool __hequ(T a, T b) { return !((float)a < (float)b || (float)a > (float)b); } \
    static inline bool __hneu(T a, T b) { return !((float)a == (float)b); }                   \
    static inline bool __hltu(T a, T b) { return !((float)a >= (float)b); }                   \
    static inline bool __hleu(T a, T b) { return !((float)a > (float)b); }                    \
    static inline bool __hgtu(T a, T b) { return !((float)a <= (float)b); }                   \
    static inline bool __hgeu(T a, T b) { return !((float)a < (float)b); }                    \
    static inline T __hmax(T a, T b) { return fmaxf((float)a, (float)b); }                    \
    static inline T __hmin(T a, T b) { return fminf((float)a, (float)b); }                    \
    static inline T hsqrt(T a) { return sqrtf((float)a); }                                    \
    static inline T hrsqrt(T a) { return 1.0 / sqrt((double)(float)a); }                      \
    static inline T hrcp(T a) { return 1.0f / (float)a; }                                     \
    static inline T hexp(T a) { return expf((float)a); }                                      \
    static inline T hlog(T a) { return logf((float)a); }                                      \
    static inline T hsin(T a) { return sinf((float)a); }                                      \
    static inline T hcos(T a) { return cosf((float)a); }                                      \
    static inline T hfloor(T a) { return floorf((float)a); }                                  \
    static inline T hceil(T a) { return ceilf((float)a); }                                    \
    static inline T htrunc(T a) { return truncf((float)a); }                                  \
    static inline T hrint(T a) { return rintf((float)a); }                                    \
    static inline T operator+(const T &a, const T &b) { return __hadd(a, b); }                \
    static inline T operator-(const T &a, const T &b) { return __hsub(a, b); }                \
    static inline T operator*(const T &a, const T &b) { return __hmul(a, b); }                \
    static inline T operator/(const T &a, const T &b) { return __hdiv(a, b); }                \
    static inline T &operator+=(T &a, const T &b) { return a = __hadd(a, b); }                \
    static inline T &operator-=(T &a, const T &b) { return a = __hsub(a, b); }                \
    static inline T &operator*=(T &a, const T &b) { return a = __hmul(a, b); }                \
    static inline T &operator/=(T &a, const T &b) { return a = __hdiv(a, b); }               \
    static inline T operator+(const T &a) { return a; }                                       \
    static inline T operator-(const T &a) { return __hneg(a); }                               \
    static inline T &operator++(T &a) { return a = __hadd(a, T(1.0f)); }                      \
    static inline T &operator--(T &a) { return a = __hsub(a, T(1.0f)); }                      \
    static inline T operator++(T &a, int) { T old = a; ++a; return old; }                     \
    static inline T operator--(T &a, int) { T old = a; --a; return old; }                     \
    static inline bool operator==(const T &a, const T &b) { return __heq(a, b); }             \
    static inline bool operator!=(const T &a, const T &b) { return __hneu(a, b); }            \
    static inline bool operator<(const T &a, const T &b) { return __hlt(a, b); }              \
    static inline bool operator<=(const T &a, const T &b) { return __hle(a, b); }             \
    static inline bool operator>(const T &a, const T &b) { return __hgt(a, b); }              \
    static inline bool operator>=(const T &a, const T &b) { return __hge(a, b); }             \
    /* pairs: each half on its own */                                                          \
    static inline T2 __hadd2(T2 a, T2 b) { return T2(__hadd(a.x, b.x), __hadd(a.y, b.y)); }  \
    static inline T2 __hsub2(T2 a, T2 b) { return T2(__hsub(a.x, b.x), __hsub(a.y, b.y)); }  \
    static inline T2 __hmul2(T2 a, T2 b) { return T2(__hmul(a.x, b.x), __hmul(a.y, b.y)); }  \
    static inline T2 __h2div(T2 a, T2 b) { return T2(__hdiv(a.x, b.x), __hdiv(a.y, b.y)); }  \
    static inline T2 __hfma2(T2 a, T2 b, T2 c)                                                 \
    {                                                                                          \
        return T2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));                               \
    }                                                                                          \
    static inline T2 __hneg2(T2 a) { return T2(__hneg(a.x), __hneg(a.y)); }                   \
    static inline T2 __habs2(T2 a) { return T2(__habs(a.x), __habs(a.y)); }                   \
    static inline T2 __hmax2(T2 a, T2 b) { return T2(__hmax(a.x, b.x), __hmax(a.y, b.y)); }  \
    static inline T2 __hmin2(T2 a, T2 b) { return T2(__hmin(a.x, b.x), __hmin(a.y, b.y)); }  \
    static inline bool __hbeq2(T2 a, T2 b) { return __heq(a.x, b.x) && __heq(a.y, b.y); }    \
    static inline T2 operator+(const T2 &a, const T2 &b) { return __hadd2(a, b); }            \
    static inline T2 operator-(const T2 &a, const T2 &b) { return __hsub2(a, b); }            \
    static inline T2 operator*(const T2 &a, const T2 &b) { return __hmul2(a, b); }            \
    static inline T2 operator/(const T2 &a, const T2 &b) { return __h2div(a, b); }            \
    static inline T2 &operator+=(T2 &a, const T2 &b) { return a = __hadd2(a, b); }            \
    static inline T2 &operator-=(T2 &a, const T2 &b) { return a = __hsub2(a, b); }            \
    static inline T2 &operator*=(T2 &a, const T2 &b) { return a = __hmul2(a, b); }            \
    static inline T2 operator-(const T2 &a) { return __hneg2(a); }                            \
    static inline float __low2float(T2 a) { return a.x; }                                      \
    static inline float __high2float(T2 a) { return a.y; }                                     \
    static inline T2 __lows2half2(T2 a, T2 b) { return T2(a.x, b.x); }                        \
    static inline T2 __highs2half2(T2 a, T2 b) { return T2(a.y, b.y); }                       \
    static inline T2 __lowhigh2highlow(T2 a) { return T2(a.y, a.x); }                          \
    /* a warp exchanges T as the 16 bits it is, T2 as its 32 */                               \
    TL_EMU_FLOAT16_SHFL(T, unsigned short)                                                     \
    TL_EMU_FLOAT16_SHFL(T2, unsigned int)

/* The four shuffles of T, which a warp exchanges as the unsigned integer B of its size. */
#define TL_EMU_FLOAT16_SHFL(T, B)                                                              \
    static inline T __shfl_sync(unsigned m, T v, int l, int w = warpSize, TL_EMU_AT)           \
    {                                                                                          \
        unsigned b = __shfl_sync(m, (unsigned)__builtin_bit_cast(B, v), l, w, tl_file, tl_line); \
        return __builtin_bit_cast(T, (B)b);                                                    \
    }                                                                                          \
    static inline T __shfl_up_sync(unsigned m, T v, unsigned d, int w = warpSize, TL_EMU_AT)   \
    {                                                                                          \
        unsigned b = __shfl_up_sync(m, (unsigned)__builtin_bit_cast(B, v), d, w, tl_file, tl_line); \
        return __builtin_bit_cast(T, (B)b);                                                    \
    }                                                                                          \
    static inline T __shfl_down_sync(unsigned m, T v, unsigned d, int w = warpSize, TL_EMU_AT) \
    {                                                                                          \
        unsigned b = __shfl_down_sync(m, (unsigned)__builtin_bit_cast(B, v), d, w, tl_file, tl_line); \
        return __builtin_bit_cast(T, (B)b);                                                    \
    }                                                                                          \
    static inline T __shfl_xor_sync(unsigned m, T v, int l, int w = warpSize, TL_EMU_AT)       \
    {                                                                                          \
        unsigned b = __shfl_xor_sync(m, (unsigned)__builtin_bit_cast(B, v), l, w, tl_file, tl_line); \
        return __builtin_bit_cast(T, (B)b);                                                    \
    }

/* float to int as cvt.rzi.s32 does it: toward zero, saturated, NaN as 0. */
static inline int tl_emu_f16_int(float f)
{
    if (f != f)
        return 0;
    if (f >= 2147483648.0f)
        return 2147483647;
    if (f <= -2147483648.0f)
        return (int)-2147483647 - 1;
    return (int)f;
}
static inline unsigned int tl_emu_f16_uint(float f)
{
    if (f != f || f <= 0)
        return 0;
    return f >= 4294967296.0f ? 4294967295u : (unsigned int)f;
}
/* _sat: clamped to [0, 1], NaN as 0 */
template <class T> static inline T tl_emu_f16_sat(T a)
{
    float f = a;
    return f != f || f <= 0 ? T(0.0f) : f >= 1 ? T(1.0f) : a;
}

#endif
#endif
