/*
 * The functions of the CUDA Math API that C's library lacks (rsqrtf,
 * sinpif, normcdff, erfinvf, norm3df, normf, erfcxf, cyl_bessel_i0f,
 * ...), for the emulator: computed from C's, to double precision (or
 * long double) where the float ones are concerned.
 */
#ifndef TILELAB_EMU_MATH_FUNCTIONS_H
#define TILELAB_EMU_MATH_FUNCTIONS_H

#include <math.h>

#ifdef __cplusplus

/* erfinv by Newton's method from a first guess (Giles' single-precision form). */
static inline double tl_emu_erfinv(double y)
{
    if (y <= -1.0 || y >= 1.0)
        return y == -1.0 ? -HUGE_VAL : y == 1.0 ? HUGE_VAL : NAN;
    double w = -log((1.0 - y) * (1.0 + y)), x;
    if (w < 5.0) {
        w -= 2.5;
        x = 2.81022636e-08;
        x = 3.43273939e-07 + x * w, x = -3.5233877e-06 + x * w, x = -4.39150654e-06 + x * w;
        x = 0.00021858087 + x * w, x = -0.00125372503 + x * w, x = -0.00417768164 + x * w;
        x = 0.246640727 + x * w, x = 1.50140941 + x * w;
    } else {
        w = sqrt(w) - 3.0;
        x = -0.000200214257;
        x = 0.000100950558 + x * w, x = 0.00134934322 + x * w, x = -0.00367342844 + x * w;
        x = 0.00573950773 + x * w, x = -0.0076224613 + x * w, x = 0.00943887047 + x * w;
        x = 1.00167406 + x * w, x = 2.83297682 + x * w;
    }
    x *= y;
    for (int i = 0; i < 3; i++)
        x -= (erf(x) - y) / (1.1283791670955126 * exp(-x * x));
    return x;
}

static inline float rsqrtf(float x) { return (float)(1.0 / sqrt((double)x)); }
static inline double rsqrt(double x) { return 1.0 / sqrt(x); }
static inline float rcbrtf(float x) { return (float)(1.0 / cbrt((double)x)); }
static inline double rcbrt(double x) { return 1.0 / cbrt(x); }
static inline double sinpi(double x) { return fmod(x, 1.0) == 0.0 ? copysign(0.0, x) : sin(M_PI * x); }
static inline double cospi(double x) { return fmod(x + 0.5, 1.0) == 0.0 ? 0.0 : cos(M_PI * x); }
static inline float sinpif(float x) { return (float)sinpi(x); }
static inline float cospif(float x) { return (float)cospi(x); }
static inline void sincospi(double x, double *s, double *c) { *s = sinpi(x), *c = cospi(x); }
static inline void sincospif(float x, float *s, float *c) { *s = sinpif(x), *c = cospif(x); }
static inline double normcdf(double x) { return 0.5 * erfc(-x / M_SQRT2); }
static inline float normcdff(float x) { return (float)normcdf(x); }
static inline double erfinv(double y) { return tl_emu_erfinv(y); }
static inline float erfinvf(float y) { return (float)tl_emu_erfinv(y); }
static inline double erfcinv(double y) { return tl_emu_erfinv(1.0 - y); }
static inline float erfcinvf(float y) { return (float)tl_emu_erfinv(1.0 - (double)y); }
static inline double normcdfinv(double p) { return -M_SQRT2 * erfcinv(2.0 * p); }
static inline float normcdfinvf(float p) { return (float)normcdfinv(p); }
static inline double norm3d(double a, double b, double c) { return sqrt(a * a + b * b + c * c); }
static inline float norm3df(float a, float b, float c) { return (float)norm3d(a, b, c); }
static inline double rnorm3d(double a, double b, double c) { return 1.0 / norm3d(a, b, c); }
static inline float rnorm3df(float a, float b, float c) { return (float)rnorm3d(a, b, c); }
static inline double norm4d(double a, double b, double c, double d) { return sqrt(a * a + b * b + c * c + d * d); }
static inline float norm4df(float a, float b, float c, float d) { return (float)norm4d(a, b, c, d); }
static inline double rnorm4d(double a, double b, double c, double d) { return 1.0 / norm4d(a, b, c, d); }
static inline float rnorm4df(float a, float b, float c, float d) { return (float)rnorm4d(a, b, c, d); }
static inline double rhypot(double a, double b) { return 1.0 / hypot(a, b); }
static inline float rhypotf(float a, float b) { return (float)rhypot(a, b); }
static inline double norm(int dim, const double *p)
{
    long double sum = 0.0L;
    for (int i = 0; i < dim; i++)
        sum += (long double)p[i] * p[i];
    return (double)sqrtl(sum);
}
static inline float normf(int dim, const float *p)
{
    double sum = 0.0;
    for (int i = 0; i < dim; i++)
        sum += (double)p[i] * p[i];
    return (float)sqrt(sum);
}
static inline double rnorm(int dim, const double *p) { return 1.0 / norm(dim, p); }
static inline float rnormf(int dim, const float *p)
{
    double sum = 0.0;
    for (int i = 0; i < dim; i++)
        sum += (double)p[i] * p[i];
    return (float)(1.0 / sqrt(sum));
}

/* exp(x^2) erfc(x), in long double (whose erfc reaches x = 106) up to x = 100 (x^2 as a sum
 * of two, exactly), and past it by its asymptotic series 1/(x sqrt(pi)) (1 - 1/(2x^2) + 3/(2x^2)^2 - 15/(2x^2)^3 ...). */
static inline long double tl_emu_erfcx(long double x)
{
    if (x != x)
        return x;
    if (x < 100.0L) {
        long double h = x * x, l = fmal(x, x, -h); /* x^2 = h + l exactly */
        return expl(h) * (1.0L + l) * erfcl(x);
    }
    long double t = 1.0L / (2.0L * x * x), term = 1.0L, sum = 1.0L;
    for (int k = 1; k < 6; k++)
        sum += term *= -(2 * k - 1) * t;
    return sum / (x * 1.7724538509055160273L);
}
static inline double erfcx(double x) { return (double)tl_emu_erfcx(x); }
static inline float erfcxf(float x) { return (float)tl_emu_erfcx(x); }

/* The modified Bessel functions of the first kind, I0 and I1, by their power series
 * sum ((x/2)^(2k+n) / (k! (k+n)!)), whose terms are all positive: long double keeps it to an
 * ulp of double; past |x| = 713.99 I0 is beyond double, and past 89.4 I1 beyond float. */
static inline long double tl_emu_bessel_i(int n, long double x)
{
    if (x != x)
        return x;
    long double ax = fabsl(x);
    if (ax > 800.0L)
        return n ? copysignl(HUGE_VALL, x) : HUGE_VALL;
    long double q = ax * ax / 4.0L, term = n ? ax / 2.0L : 1.0L, sum = term;
    for (int k = 1; term > sum * 1e-21L; k++)
        sum += term *= q / ((long double)k * (k + n));
    return n ? copysignl(sum, x) : sum;
}
static inline double cyl_bessel_i0(double x) { return (double)tl_emu_bessel_i(0, x); }
static inline double cyl_bessel_i1(double x) { return (double)tl_emu_bessel_i(1, x); }
static inline float cyl_bessel_i0f(float x) { return (float)tl_emu_bessel_i(0, x); }
static inline float cyl_bessel_i1f(float x) { return (float)tl_emu_bessel_i(1, x); }

#endif /* __cplusplus */

#endif
