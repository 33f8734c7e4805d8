/*
 * CUDA's intrinsic functions for the emulator (the CUDA Math API's
 * "Integer Intrinsics", "Single and Double Precision Intrinsics" and "Type
 * Casting Intrinsics"), and the device's clock and traps. Integer ones are
 * exact here as there; floating ones are exact here where a GPU's fast
 * versions (__expf, __sinf, ...) may round, and the ones of a named
 * rounding mode (_rd, _ru, _rz) round as named (intrinsics.c).
 */
#ifndef TILELAB_EMU_DEVICE_FUNCTIONS_H
#define TILELAB_EMU_DEVICE_FUNCTIONS_H

#include "cuda_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif
/* intrinsics.c: op on a, b, c in rounding mode mode (TL_ROUND_...), float and double. */
enum { TL_ROUND_RN, TL_ROUND_RZ, TL_ROUND_RU, TL_ROUND_RD };
enum { TL_OP_ADD, TL_OP_SUB, TL_OP_MUL, TL_OP_DIV, TL_OP_FMA, TL_OP_SQRT, TL_OP_RCP, TL_OP_F2D,
       TL_OP_I2F, TL_OP_U2F, TL_OP_L2F, TL_OP_UL2F, TL_OP_L2D, TL_OP_UL2D };
float tl_emu_cuda_fround(int op, int mode, double a, double b, double c, long long i);
double tl_emu_cuda_dround(int op, int mode, double a, double b, double c, long long i);
/* __trap(): the kernel ends with cudaErrorLaunchFailure, as on a GPU. */
void tl_emu_cuda_trap(const char *file, int line);
/* this_grid().sync() at file:line, in a launch that is not cooperative (a lab's never is):
 * the kernel ends with cudaErrorLaunchFailure, as on a GPU. */
void tl_emu_cuda_grid_sync(const char *file, int line);
#ifdef __cplusplus
}
#endif

#ifdef __cplusplus

/* ---- integer intrinsics */
static inline unsigned int __brev(unsigned int x)
{
    unsigned int r = 0;
    for (int i = 0; i < 32; i++, x >>= 1)
        r = (r << 1) | (x & 1u);
    return r;
}
static inline unsigned long long __brevll(unsigned long long x)
{
    return (unsigned long long)__brev((unsigned int)x) << 32 | __brev((unsigned int)(x >> 32));
}
static inline unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s)
{
    unsigned long long bytes = (unsigned long long)y << 32 | x;
    unsigned int r = 0;
    for (int n = 0; n < 4; n++)
        r |= (unsigned int)(bytes >> (8 * ((s >> (4 * n)) & 7)) & 0xff) << (8 * n);
    return r;
}
static inline int __clz(int x) { return x ? __builtin_clz((unsigned int)x) : 32; }
static inline int __clzll(long long x) { return x ? __builtin_clzll((unsigned long long)x) : 64; }
static inline int __ffs(int x) { return __builtin_ffs(x); }
static inline int __ffsll(long long x) { return __builtin_ffsll(x); }
static inline int __popc(unsigned int x) { return __builtin_popcount(x); }
static inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
/* The n-th set bit of mask from base, toward the high bits (n > 0) or the low (n < 0). */
static inline unsigned int __fns(unsigned int mask, unsigned int base, int offset)
{
    if (offset == 0)
        return base < 32 && (mask >> base & 1u) ? base : 0xffffffffu;
    int count = (offset > 0 ? offset : -offset) - 1, step = offset > 0 ? 1 : -1;
    for (int pos = (int)base; pos >= 0 && pos < 32; pos += step)
        if ((mask >> pos & 1u) && count-- == 0)
            return (unsigned int)pos;
    return 0xffffffffu;
}
static inline unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift)
{
    return (unsigned int)((((unsigned long long)hi << 32 | lo) << (shift & 31)) >> 32);
}
static inline unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int shift)
{
    return shift >= 32 ? lo : __funnelshift_l(lo, hi, shift);
}
static inline unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift)
{
    return (unsigned int)(((unsigned long long)hi << 32 | lo) >> (shift & 31));
}
static inline unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int shift)
{
    return shift >= 32 ? hi : __funnelshift_r(lo, hi, shift);
}
static inline int __hadd(int x, int y) { return (int)(((long long)x + y) >> 1); }
static inline int __rhadd(int x, int y) { return (int)(((long long)x + y + 1) >> 1); }
static inline unsigned int __uhadd(unsigned int x, unsigned int y) { return (unsigned int)(((unsigned long long)x + y) >> 1); }
static inline unsigned int __urhadd(unsigned int x, unsigned int y) { return (unsigned int)(((unsigned long long)x + y + 1) >> 1); }
/* The low 24 bits of each, signed or not; the low 32 bits of the product. */
static inline int __mul24(int x, int y)
{
    return (int)(unsigned int)((long long)((x << 8) >> 8) * (long long)((y << 8) >> 8));
}
static inline unsigned int __umul24(unsigned int x, unsigned int y)
{
    return (x & 0xffffffu) * (y & 0xffffffu);
}
static inline int __mulhi(int x, int y) { return (int)(((long long)x * y) >> 32); }
static inline unsigned int __umulhi(unsigned int x, unsigned int y) { return (unsigned int)(((unsigned long long)x * y) >> 32); }
static inline long long __mul64hi(long long x, long long y) { return (long long)(((__int128)x * y) >> 64); }
static inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y)
{
    return (unsigned long long)(((unsigned __int128)x * y) >> 64);
}
static inline unsigned int __sad(int x, int y, unsigned int z) { return (unsigned int)(x > y ? (long long)x - y : (long long)y - x) + z; }
static inline unsigned int __usad(unsigned int x, unsigned int y, unsigned int z) { return (x > y ? x - y : y - x) + z; }
/* Dot products of bytes (and halves with bytes) with an accumulator. */
static inline int __dp4a(int a, int b, int c)
{
    for (int i = 0; i < 32; i += 8)
        c += (int)(signed char)(a >> i) * (int)(signed char)(b >> i);
    return c;
}
static inline unsigned int __dp4a(unsigned int a, unsigned int b, unsigned int c)
{
    for (int i = 0; i < 32; i += 8)
        c += (a >> i & 0xffu) * (b >> i & 0xffu);
    return c;
}
static inline int __dp2a_lo(int a, int b, int c)
{
    return c + (int)(short)a * (int)(signed char)b + (int)(short)(a >> 16) * (int)(signed char)(b >> 8);
}
static inline int __dp2a_hi(int a, int b, int c)
{
    return c + (int)(short)a * (int)(signed char)(b >> 16) + (int)(short)(a >> 16) * (int)(signed char)(b >> 24);
}
static inline unsigned int __dp2a_lo(unsigned int a, unsigned int b, unsigned int c)
{
    return c + (a & 0xffffu) * (b & 0xffu) + (a >> 16) * (b >> 8 & 0xffu);
}
static inline unsigned int __dp2a_hi(unsigned int a, unsigned int b, unsigned int c)
{
    return c + (a & 0xffffu) * (b >> 16 & 0xffu) + (a >> 16) * (b >> 24);
}

/* ---- DPX (sm_90; the Math API's SIMD intrinsics __vimax*, __vimin*, __viadd*, __vib*): the
 * max or min of two or three values, of a + b and c (the add wraps, as the instruction's does),
 * at least 0 where the name ends _relu; on 32-bit ints or on each 16-bit half (s16x2, u16x2:
 * shorts packed in an unsigned int). __vibmax and __vibmin also say whether a won (a >= b,
 * a <= b), for each half. */
template <class T> static inline T tl_emu_dpx_max(T a, T b) { return a > b ? a : b; }
template <class T> static inline T tl_emu_dpx_min(T a, T b) { return a < b ? a : b; }
template <class T> static inline T tl_emu_dpx_relu(T a) { return a > 0 ? a : (T)0; }
template <class T> static inline T tl_emu_dpx_add(T a, T b)
{
    typedef typename std::make_unsigned<T>::type U;
    return (T)(U)((U)a + (U)b);
}
/* f on each 16-bit half of a, b and c, as T (short or unsigned short). */
template <class T, class F> static inline unsigned int tl_emu_dpx_halves(unsigned int a, unsigned int b, unsigned int c, F f)
{
    unsigned int lo = (unsigned short)f((T)a, (T)b, (T)c);
    unsigned int hi = (unsigned short)f((T)(a >> 16), (T)(b >> 16), (T)(c >> 16));
    return hi << 16 | lo;
}
/* NAME_s32, _u32, _s16x2, _u16x2 of F(x, y, z) (the third operand unused where the name has two). */
#define TL_EMU_DPX_ALL(name, F) \
    static inline int name##_s32(const int a, const int b, const int c) { return F(int, a, b, c); } \
    static inline unsigned int name##_u32(const unsigned int a, const unsigned int b, const unsigned int c) \
    { \
        return F(unsigned int, a, b, c); \
    } \
    static inline unsigned int name##_s16x2(const unsigned int a, const unsigned int b, const unsigned int c) \
    { \
        return tl_emu_dpx_halves<short>(a, b, c, [](short x, short y, short z) { return F(short, x, y, z); }); \
    } \
    static inline unsigned int name##_u16x2(const unsigned int a, const unsigned int b, const unsigned int c) \
    { \
        return tl_emu_dpx_halves<unsigned short>(a, b, c, [](unsigned short x, unsigned short y, unsigned short z) { \
            return F(unsigned short, x, y, z); \
        }); \
    }
/* NAME_s32_relu and _s16x2_relu of F, with three operands or two. */
#define TL_EMU_DPX_RELU3(name, F) \
    static inline int name##_s32_relu(const int a, const int b, const int c) { return tl_emu_dpx_relu(F(int, a, b, c)); } \
    static inline unsigned int name##_s16x2_relu(const unsigned int a, const unsigned int b, const unsigned int c) \
    { \
        return tl_emu_dpx_halves<short>(a, b, c, [](short x, short y, short z) { return tl_emu_dpx_relu(F(short, x, y, z)); }); \
    }
#define TL_EMU_DPX_RELU2(name, F) \
    static inline int name##_s32_relu(const int a, const int b) { return tl_emu_dpx_relu(F(int, a, b, 0)); } \
    static inline unsigned int name##_s16x2_relu(const unsigned int a, const unsigned int b) \
    { \
        return tl_emu_dpx_halves<short>(a, b, 0u, [](short x, short y, short z) { return tl_emu_dpx_relu(F(short, x, y, z)); }); \
    }
#define TL_EMU_DPX_MAX3(T, x, y, z) tl_emu_dpx_max<T>(tl_emu_dpx_max<T>(x, y), z)
#define TL_EMU_DPX_MIN3(T, x, y, z) tl_emu_dpx_min<T>(tl_emu_dpx_min<T>(x, y), z)
#define TL_EMU_DPX_ADDMAX(T, x, y, z) tl_emu_dpx_max<T>(tl_emu_dpx_add<T>(x, y), z)
#define TL_EMU_DPX_ADDMIN(T, x, y, z) tl_emu_dpx_min<T>(tl_emu_dpx_add<T>(x, y), z)
#define TL_EMU_DPX_MAX2(T, x, y, z) ((void)(z), tl_emu_dpx_max<T>(x, y))
#define TL_EMU_DPX_MIN2(T, x, y, z) ((void)(z), tl_emu_dpx_min<T>(x, y))
TL_EMU_DPX_ALL(__vimax3, TL_EMU_DPX_MAX3)
TL_EMU_DPX_ALL(__vimin3, TL_EMU_DPX_MIN3)
TL_EMU_DPX_ALL(__viaddmax, TL_EMU_DPX_ADDMAX)
TL_EMU_DPX_ALL(__viaddmin, TL_EMU_DPX_ADDMIN)
TL_EMU_DPX_RELU3(__vimax3, TL_EMU_DPX_MAX3)
TL_EMU_DPX_RELU3(__vimin3, TL_EMU_DPX_MIN3)
TL_EMU_DPX_RELU3(__viaddmax, TL_EMU_DPX_ADDMAX)
TL_EMU_DPX_RELU3(__viaddmin, TL_EMU_DPX_ADDMIN)
TL_EMU_DPX_RELU2(__vimax, TL_EMU_DPX_MAX2)
TL_EMU_DPX_RELU2(__vimin, TL_EMU_DPX_MIN2)
#undef TL_EMU_DPX_ALL
#undef TL_EMU_DPX_RELU3
#undef TL_EMU_DPX_RELU2
#undef TL_EMU_DPX_MAX3
#undef TL_EMU_DPX_MIN3
#undef TL_EMU_DPX_ADDMAX
#undef TL_EMU_DPX_ADDMIN
#undef TL_EMU_DPX_MAX2
#undef TL_EMU_DPX_MIN2
static inline int __vibmax_s32(const int a, const int b, bool *const pred) { return *pred = a >= b, a >= b ? a : b; }
static inline unsigned int __vibmax_u32(const unsigned int a, const unsigned int b, bool *const pred)
{
    return *pred = a >= b, a >= b ? a : b;
}
static inline int __vibmin_s32(const int a, const int b, bool *const pred) { return *pred = a <= b, a <= b ? a : b; }
static inline unsigned int __vibmin_u32(const unsigned int a, const unsigned int b, bool *const pred)
{
    return *pred = a <= b, a <= b ? a : b;
}
/* Each half's max or min (high half of a against high half of b), and whether a's half won. */
template <class T> static inline unsigned int tl_emu_dpx_pick(unsigned int a, unsigned int b, int max, bool *hi, bool *lo)
{
    T ah = (T)(a >> 16), bh = (T)(b >> 16), al = (T)a, bl = (T)b;
    *hi = max ? ah >= bh : ah <= bh;
    *lo = max ? al >= bl : al <= bl;
    return (unsigned int)(unsigned short)(*hi ? ah : bh) << 16 | (unsigned short)(*lo ? al : bl);
}
static inline unsigned int __vibmax_s16x2(const unsigned int a, const unsigned int b, bool *const pred_hi, bool *const pred_lo)
{
    return tl_emu_dpx_pick<short>(a, b, 1, pred_hi, pred_lo);
}
static inline unsigned int __vibmax_u16x2(const unsigned int a, const unsigned int b, bool *const pred_hi, bool *const pred_lo)
{
    return tl_emu_dpx_pick<unsigned short>(a, b, 1, pred_hi, pred_lo);
}
static inline unsigned int __vibmin_s16x2(const unsigned int a, const unsigned int b, bool *const pred_hi, bool *const pred_lo)
{
    return tl_emu_dpx_pick<short>(a, b, 0, pred_hi, pred_lo);
}
static inline unsigned int __vibmin_u16x2(const unsigned int a, const unsigned int b, bool *const pred_hi, bool *const pred_lo)
{
    return tl_emu_dpx_pick<unsigned short>(a, b, 0, pred_hi, pred_lo);
}

/* ---- SIMD (the Math API's "SIMD Intrinsics", __vadd2, __vcmpgtu4, __vsads2, ...): an unsigned
 * int as two 16-bit halves (the names ending 2) or four bytes (4), each read as signed (s, ss:
 * as two's complement) or unsigned (u, us), worked on alone and put back; ss and us saturate
 * to the part's range, the others wrap. __vavgs rounds half away from zero ((a + b + 1) >> 1
 * where a + b >= 0, (a + b) >> 1 below: CUDA's own comment on its definition), __vavgu up,
 * __vhaddu down; __vcmp gives all of a part's bits where it holds, __vset 1; __vsads and
 * __vsadu sum the parts' absolute differences into one unsigned int. */
template <int W, bool S, class F> static inline unsigned int tl_emu_simd(unsigned int a, unsigned int b, F f)
{
    const unsigned int mask = (1u << W) - 1, sign = S ? 1u << (W - 1) : 0u;
    const int lo = S ? -(int)sign : 0, hi = S ? (int)sign - 1 : (int)mask;
    unsigned int r = 0;
    for (int s = 0; s < 32; s += W) {
        int x = (int)((a >> s & mask) ^ sign) - (int)sign, y = (int)((b >> s & mask) ^ sign) - (int)sign;
        r |= ((unsigned int)f(x, y, lo, hi) & mask) << s;
    }
    return r;
}
template <int W, bool S> static inline unsigned int tl_emu_simd_sad(unsigned int a, unsigned int b)
{
    unsigned int sum = 0;
    tl_emu_simd<W, S>(a, b, [&sum](int x, int y, int, int) { return (int)(sum += (unsigned int)(x > y ? x - y : y - x)); });
    return sum;
}
static inline int tl_emu_simd_clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }
#define TL_EMU_SIMD(name, S, expr)                                                              \
    static inline unsigned int name##2(unsigned int a, unsigned int b)                          \
    {                                                                                           \
        return tl_emu_simd<16, S>(a, b, [](int x, int y, int lo, int hi) { (void)y, (void)lo, (void)hi; return (expr); }); \
    }                                                                                           \
    static inline unsigned int name##4(unsigned int a, unsigned int b)                          \
    {                                                                                           \
        return tl_emu_simd<8, S>(a, b, [](int x, int y, int lo, int hi) { (void)y, (void)lo, (void)hi; return (expr); }); \
    }
#define TL_EMU_SIMD1(name, S, expr)                                                             \
    static inline unsigned int name##2(unsigned int a)                                          \
    {                                                                                           \
        return tl_emu_simd<16, S>(a, 0u, [](int x, int, int lo, int hi) { (void)lo, (void)hi; return (expr); }); \
    }                                                                                           \
    static inline unsigned int name##4(unsigned int a)                                          \
    {                                                                                           \
        return tl_emu_simd<8, S>(a, 0u, [](int x, int, int lo, int hi) { (void)lo, (void)hi; return (expr); }); \
    }
#define TL_EMU_SIMD_SIGNS(name, expr) TL_EMU_SIMD(name##s, true, expr) TL_EMU_SIMD(name##u, false, expr)
TL_EMU_SIMD1(__vabs, true, x < 0 ? -x : x)
TL_EMU_SIMD1(__vabsss, true, tl_emu_simd_clamp(x < 0 ? -x : x, lo, hi))
TL_EMU_SIMD1(__vneg, true, -x)
TL_EMU_SIMD1(__vnegss, true, tl_emu_simd_clamp(-x, lo, hi))
TL_EMU_SIMD(__vadd, false, x + y)
TL_EMU_SIMD(__vaddss, true, tl_emu_simd_clamp(x + y, lo, hi))
TL_EMU_SIMD(__vaddus, false, tl_emu_simd_clamp(x + y, lo, hi))
TL_EMU_SIMD(__vsub, false, x - y)
TL_EMU_SIMD(__vsubss, true, tl_emu_simd_clamp(x - y, lo, hi))
TL_EMU_SIMD(__vsubus, false, tl_emu_simd_clamp(x - y, lo, hi))
TL_EMU_SIMD(__vavgs, true, x + y >= 0 ? (x + y + 1) >> 1 : (x + y) >> 1)
TL_EMU_SIMD(__vavgu, false, (x + y + 1) >> 1)
TL_EMU_SIMD(__vhaddu, false, (x + y) >> 1)
TL_EMU_SIMD(__vabsdiffs, true, x > y ? x - y : y - x)
TL_EMU_SIMD(__vabsdiffu, false, x > y ? x - y : y - x)
TL_EMU_SIMD_SIGNS(__vmax, x > y ? x : y)
TL_EMU_SIMD_SIGNS(__vmin, x < y ? x : y)
TL_EMU_SIMD(__vcmpeq, false, x == y ? -1 : 0)
TL_EMU_SIMD(__vcmpne, false, x != y ? -1 : 0)
TL_EMU_SIMD_SIGNS(__vcmpge, x >= y ? -1 : 0)
TL_EMU_SIMD_SIGNS(__vcmpgt, x > y ? -1 : 0)
TL_EMU_SIMD_SIGNS(__vcmple, x <= y ? -1 : 0)
TL_EMU_SIMD_SIGNS(__vcmplt, x < y ? -1 : 0)
TL_EMU_SIMD(__vseteq, false, x == y)
TL_EMU_SIMD(__vsetne, false, x != y)
TL_EMU_SIMD_SIGNS(__vsetge, x >= y)
TL_EMU_SIMD_SIGNS(__vsetgt, x > y)
TL_EMU_SIMD_SIGNS(__vsetle, x <= y)
TL_EMU_SIMD_SIGNS(__vsetlt, x < y)
#undef TL_EMU_SIMD
#undef TL_EMU_SIMD1
#undef TL_EMU_SIMD_SIGNS
static inline unsigned int __vsads2(unsigned int a, unsigned int b) { return tl_emu_simd_sad<16, true>(a, b); }
static inline unsigned int __vsads4(unsigned int a, unsigned int b) { return tl_emu_simd_sad<8, true>(a, b); }
static inline unsigned int __vsadu2(unsigned int a, unsigned int b) { return tl_emu_simd_sad<16, false>(a, b); }
static inline unsigned int __vsadu4(unsigned int a, unsigned int b) { return tl_emu_simd_sad<8, false>(a, b); }

/* ---- floating-point intrinsics: the rounding mode in the name */
#define TL_EMU_FOUR_MODES(F)                                                                   \
    F(rn, TL_ROUND_RN) F(rz, TL_ROUND_RZ) F(ru, TL_ROUND_RU) F(rd, TL_ROUND_RD)
#define TL_EMU_FLOAT_OPS(suffix, mode)                                                         \
    static inline float __fadd_##suffix(float a, float b) { return tl_emu_cuda_fround(TL_OP_ADD, mode, a, b, 0, 0); } \
    static inline float __fsub_##suffix(float a, float b) { return tl_emu_cuda_fround(TL_OP_SUB, mode, a, b, 0, 0); } \
    static inline float __fmul_##suffix(float a, float b) { return tl_emu_cuda_fround(TL_OP_MUL, mode, a, b, 0, 0); } \
    static inline float __fdiv_##suffix(float a, float b) { return tl_emu_cuda_fround(TL_OP_DIV, mode, a, b, 0, 0); } \
    static inline float __fmaf_##suffix(float a, float b, float c) { return tl_emu_cuda_fround(TL_OP_FMA, mode, a, b, c, 0); } \
    static inline float __fmaf_ieee_##suffix(float a, float b, float c) { return tl_emu_cuda_fround(TL_OP_FMA, mode, a, b, c, 0); } \
    static inline float __fsqrt_##suffix(float a) { return tl_emu_cuda_fround(TL_OP_SQRT, mode, a, 0, 0, 0); } \
    static inline float __frcp_##suffix(float a) { return tl_emu_cuda_fround(TL_OP_RCP, mode, a, 0, 0, 0); } \
    static inline double __dadd_##suffix(double a, double b) { return tl_emu_cuda_dround(TL_OP_ADD, mode, a, b, 0, 0); } \
    static inline double __dsub_##suffix(double a, double b) { return tl_emu_cuda_dround(TL_OP_SUB, mode, a, b, 0, 0); } \
    static inline double __dmul_##suffix(double a, double b) { return tl_emu_cuda_dround(TL_OP_MUL, mode, a, b, 0, 0); } \
    static inline double __ddiv_##suffix(double a, double b) { return tl_emu_cuda_dround(TL_OP_DIV, mode, a, b, 0, 0); } \
    static inline double __fma_##suffix(double a, double b, double c) { return tl_emu_cuda_dround(TL_OP_FMA, mode, a, b, c, 0); } \
    static inline double __dsqrt_##suffix(double a) { return tl_emu_cuda_dround(TL_OP_SQRT, mode, a, 0, 0, 0); } \
    static inline double __drcp_##suffix(double a) { return tl_emu_cuda_dround(TL_OP_RCP, mode, a, 0, 0, 0); } \
    static inline float __double2float_##suffix(double a) { return tl_emu_cuda_fround(TL_OP_F2D, mode, a, 0, 0, 0); } \
    static inline float __int2float_##suffix(int i) { return tl_emu_cuda_fround(TL_OP_I2F, mode, 0, 0, 0, i); } \
    static inline float __uint2float_##suffix(unsigned int i) { return tl_emu_cuda_fround(TL_OP_U2F, mode, 0, 0, 0, i); } \
    static inline float __ll2float_##suffix(long long i) { return tl_emu_cuda_fround(TL_OP_L2F, mode, 0, 0, 0, i); } \
    static inline float __ull2float_##suffix(unsigned long long i) { return tl_emu_cuda_fround(TL_OP_UL2F, mode, 0, 0, 0, (long long)i); } \
    static inline double __ll2double_##suffix(long long i) { return tl_emu_cuda_dround(TL_OP_L2D, mode, 0, 0, 0, i); } \
    static inline double __ull2double_##suffix(unsigned long long i) { return tl_emu_cuda_dround(TL_OP_UL2D, mode, 0, 0, 0, (long long)i); }
TL_EMU_FOUR_MODES(TL_EMU_FLOAT_OPS)
#undef TL_EMU_FLOAT_OPS
static inline double __int2double_rn(int i) { return (double)i; }
static inline double __uint2double_rn(unsigned int i) { return (double)i; }
static inline float __frsqrt_rn(float a) { return 1.0f / sqrtf(a); }
static inline float __fdividef(float a, float b) { return a / b; }
static inline float fdividef(float a, float b) { return a / b; }
static inline float __saturatef(float a) { return a < 0.0f ? 0.0f : a > 1.0f ? 1.0f : a != a ? 0.0f : a; }

/* The fast single-precision functions (exact here). glibc declares these names without
 * defining them: macros give them functions of the emulator's own. */
static inline float tl_emu_expf(float x) { return expf(x); }
static inline float tl_emu_exp10f(float x) { return exp10f(x); }
static inline float tl_emu_logf(float x) { return logf(x); }
static inline float tl_emu_log2f(float x) { return log2f(x); }
static inline float tl_emu_log10f(float x) { return log10f(x); }
static inline float tl_emu_sinf(float x) { return sinf(x); }
static inline float tl_emu_cosf(float x) { return cosf(x); }
static inline float tl_emu_tanf(float x) { return tanf(x); }
static inline float tl_emu_powf(float x, float y) { return powf(x, y); }
static inline void tl_emu_sincosf(float x, float *s, float *c) { *s = sinf(x), *c = cosf(x); }
#define __expf tl_emu_expf
#define __exp10f tl_emu_exp10f
#define __logf tl_emu_logf
#define __log2f tl_emu_log2f
#define __log10f tl_emu_log10f
#define __sinf tl_emu_sinf
#define __cosf tl_emu_cosf
#define __tanf tl_emu_tanf
#define __powf tl_emu_powf
#define __sincosf tl_emu_sincosf

/* ---- conversions: to an integer, rounded as named and clamped to its range (NaN is 0) */
template <class I, class F> static inline I tl_emu_to_integer(F v, int mode)
{
    if (v != v)
        return 0;
    F r = mode == TL_ROUND_RN ? nearbyint(v) : mode == TL_ROUND_RZ ? trunc(v)
        : mode == TL_ROUND_RU ? ceil(v) : floor(v);
    if (r <= (F)std::numeric_limits<I>::min())
        return std::numeric_limits<I>::min();
    if (r >= (F)std::numeric_limits<I>::max())
        return std::numeric_limits<I>::max();
    return (I)r;
}
#define TL_EMU_TO_INTEGER(suffix, mode)                                                        \
    static inline int __float2int_##suffix(float v) { return tl_emu_to_integer<int>(v, mode); } \
    static inline unsigned int __float2uint_##suffix(float v) { return tl_emu_to_integer<unsigned int>(v, mode); } \
    static inline long long __float2ll_##suffix(float v) { return tl_emu_to_integer<long long>(v, mode); } \
    static inline unsigned long long __float2ull_##suffix(float v) { return tl_emu_to_integer<unsigned long long>(v, mode); } \
    static inline int __double2int_##suffix(double v) { return tl_emu_to_integer<int>(v, mode); } \
    static inline unsigned int __double2uint_##suffix(double v) { return tl_emu_to_integer<unsigned int>(v, mode); } \
    static inline long long __double2ll_##suffix(double v) { return tl_emu_to_integer<long long>(v, mode); } \
    static inline unsigned long long __double2ull_##suffix(double v) { return tl_emu_to_integer<unsigned long long>(v, mode); }
TL_EMU_FOUR_MODES(TL_EMU_TO_INTEGER)
#undef TL_EMU_TO_INTEGER
#undef TL_EMU_FOUR_MODES

/* ---- a value's bits as another type */
static inline int __float_as_int(float a) { return __builtin_bit_cast(int, a); }
static inline unsigned int __float_as_uint(float a) { return __builtin_bit_cast(unsigned int, a); }
static inline float __int_as_float(int i) { return __builtin_bit_cast(float, i); }
static inline float __uint_as_float(unsigned int i) { return __builtin_bit_cast(float, i); }
static inline long long __double_as_longlong(double a) { return __builtin_bit_cast(long long, a); }
static inline double __longlong_as_double(long long i) { return __builtin_bit_cast(double, i); }
static inline int __double2hiint(double a) { return (int)(__builtin_bit_cast(unsigned long long, a) >> 32); }
static inline int __double2loint(double a) { return (int)__builtin_bit_cast(unsigned long long, a); }
static inline double __hiloint2double(int hi, int lo)
{
    return __builtin_bit_cast(double, (unsigned long long)(unsigned int)hi << 32 | (unsigned int)lo);
}

/* ---- the space of memory a generic address lies in: a thread's own variables are local, a
 * __constant__ variable constant, a __shared__ array or the dynamic shared memory shared (the
 * block's; a launch has no clusters), and anything else global, device memory or not (a GPU
 * tells by the address's window, not by what lies there). */
static inline unsigned int __isGlobal(const void *ptr) { return tl_emu_cuda_space(ptr) == TL_SPACE_GLOBAL; }
static inline unsigned int __isShared(const void *ptr) { return tl_emu_cuda_space(ptr) == TL_SPACE_SHARED; }
static inline unsigned int __isConstant(const void *ptr) { return tl_emu_cuda_space(ptr) == TL_SPACE_CONSTANT; }
static inline unsigned int __isLocal(const void *ptr) { return tl_emu_cuda_space(ptr) == TL_SPACE_LOCAL; }
static inline unsigned int __isClusterShared(const void *ptr) { return __isShared(ptr); }
/* A kernel's __grid_constant__ parameter is one the emulator cannot tell from its other
 * variables: 0, as a GPU gives for any address but such a parameter's (README.md: limits). */
static inline unsigned int __isGridConstant(const void *ptr) { return (void)ptr, 0u; }

/* ---- a generic address as an address of one space and back (__cvta_*): global, constant,
 * local and grid-constant addresses are the generic ones; a shared address has 32 bits, as a
 * GPU's has (a program may keep it in an unsigned int): here the distance from the dynamic
 * shared memory (a static __shared__ array's may be below it), which turns back into the same
 * generic address. */
static inline size_t __cvta_generic_to_global(const void *ptr) { return (size_t)ptr; }
static inline size_t __cvta_generic_to_constant(const void *ptr) { return (size_t)ptr; }
static inline size_t __cvta_generic_to_local(const void *ptr) { return (size_t)ptr; }
static inline size_t __cvta_generic_to_grid_constant(const void *ptr) { return (size_t)ptr; }
static inline size_t __cvta_generic_to_shared(const void *ptr)
{
    return (unsigned int)((uintptr_t)ptr - (uintptr_t)tl_emu_cuda_dynamic_shared);
}
static inline void *__cvta_global_to_generic(size_t rawbits) { return (void *)rawbits; }
static inline void *__cvta_constant_to_generic(size_t rawbits) { return (void *)rawbits; }
static inline void *__cvta_local_to_generic(size_t rawbits) { return (void *)rawbits; }
static inline void *__cvta_grid_constant_to_generic(size_t rawbits) { return (void *)rawbits; }
static inline void *__cvta_shared_to_generic(size_t rawbits)
{
    return (void *)((uintptr_t)tl_emu_cuda_dynamic_shared + (uintptr_t)(intptr_t)(int)(unsigned int)rawbits);
}

/* ---- the device's clock (host time here), and a kernel that stops itself */
static inline long long clock64(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}
static inline void __nanosleep(unsigned int ns) { (void)ns; }
#define __trap() tl_emu_cuda_trap(__FILE__, __LINE__)
#define __brkpt() tl_emu_cuda_trap(__FILE__, __LINE__)

#endif /* __cplusplus */

#endif
