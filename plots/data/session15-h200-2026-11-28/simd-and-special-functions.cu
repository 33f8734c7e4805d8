// Session 15: the SIMD intrinsics on the GPU against the plain-C reading of the Math API that
// emu-test holds the emulator to (tests/emu_cuda_test.c's simd_want), every function on every
// pair of tests/emu_simd.cuh; and erfcxf, cyl_bessel_i0f/i1f, normf/rnormf on the GPU against
// long double references, in float ulps (the emulator is held within 1).
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include "emu_simd.cuh"
enum { SIMD_ABS, SIMD_ABS_SAT, SIMD_NEG, SIMD_NEG_SAT, SIMD_ADD, SIMD_ADD_SAT, SIMD_SUB, SIMD_SUB_SAT,
       SIMD_AVG, SIMD_HADD, SIMD_ABSDIFF, SIMD_MAX, SIMD_MIN, SIMD_CMP_EQ, SIMD_CMP_NE, SIMD_CMP_GE,
       SIMD_CMP_GT, SIMD_CMP_LE, SIMD_CMP_LT, SIMD_SET_EQ, SIMD_SET_NE, SIMD_SET_GE, SIMD_SET_GT,
       SIMD_SET_LE, SIMD_SET_LT, SIMD_SAD };

static long long simd_part(int kind, long long x, long long y, long long lo, long long hi, long long all)
{
    long long v;
    switch (kind) {
    case SIMD_ABS: return llabs(x);
    case SIMD_ABS_SAT: v = llabs(x); break;
    case SIMD_NEG: return -x;
    case SIMD_NEG_SAT: v = -x; break;
    case SIMD_ADD: return x + y;
    case SIMD_ADD_SAT: v = x + y; break;
    case SIMD_SUB: return x - y;
    case SIMD_SUB_SAT: v = x - y; break;
    /* signed: half away from zero (CUDA's comment on __vavgs); unsigned: half up */
    case SIMD_AVG: return x + y < 0 ? -((-(x + y) + 1) / 2) : (x + y + 1) / 2;
    case SIMD_HADD: return (x + y) / 2;
    case SIMD_ABSDIFF: case SIMD_SAD: return llabs(x - y);
    case SIMD_MAX: return x > y ? x : y;
    case SIMD_MIN: return x < y ? x : y;
    case SIMD_CMP_EQ: return x == y ? all : 0;
    case SIMD_CMP_NE: return x != y ? all : 0;
    case SIMD_CMP_GE: return x >= y ? all : 0;
    case SIMD_CMP_GT: return x > y ? all : 0;
    case SIMD_CMP_LE: return x <= y ? all : 0;
    case SIMD_CMP_LT: return x < y ? all : 0;
    case SIMD_SET_EQ: return x == y;
    case SIMD_SET_NE: return x != y;
    case SIMD_SET_GE: return x >= y;
    case SIMD_SET_GT: return x > y;
    case SIMD_SET_LE: return x <= y;
    default: return x < y;
    }
    return v < lo ? lo : v > hi ? hi : v;
}

static unsigned simd_want(int kind, int bits, int is_signed, unsigned a, unsigned b)
{
    unsigned r = 0, sum = 0;
    long long all = (1ll << bits) - 1, lo = is_signed ? -(1ll << (bits - 1)) : 0;
    long long hi = is_signed ? (1ll << (bits - 1)) - 1 : all;
    for (int s = 0; s < 32; s += bits) {
        long long x = a >> s & all, y = b >> s & all;
        if (is_signed && x > hi)
            x -= all + 1;
        if (is_signed && y > hi)
            y -= all + 1;
        long long v = simd_part(kind, x, y, lo, hi, all);
        sum += (unsigned)v;
        r |= (unsigned)(v & all) << s;
    }
    return kind == SIMD_SAD ? sum : r;
}

#define SIMD_ENTRY(name, bits, s, kind) {#name, bits, s, kind},
static const struct simd_function {
    const char *name;
    int bits, is_signed, kind;
} simd_functions[] = {TL_SIMD_UNARY(SIMD_ENTRY) TL_SIMD_BINARY(SIMD_ENTRY)};
#undef SIMD_ENTRY
static double ulps(float got, long double want)
{
    if (isinf((float)want))
        return got == (float)want ? 0.0 : INFINITY;
    if (want == 0.0L)
        return got == 0.0f ? 0.0 : INFINITY;
    float w = fabsf((float)want);
    return (double)(fabsl((long double)got - want) / (long double)(nextafterf(w, INFINITY) - w));
}

/* References in long double, by other means than the emulator's: exp(x^2) erfc(x) by its
 * definition below 3 and by Laplace's continued fraction from 3; I0 and I1 by their integrals
 * (1/pi) int_0^pi exp(x cos t) cos(nt) dt, the trapezoid rule (exact to long double for a
 * periodic integrand at 4000 points). */
static long double erfcx_reference(long double x)
{
    if (x < 3.0L)
        return expl(x * x) * erfcl(x);
    long double f = x;
    for (int k = 4000; k >= 1; k--)
        f = x + (k / 2.0L) / f;
    return 1.0L / (sqrtl(3.14159265358979323846264338327950288L) * f);
}

static long double bessel_i_reference(int n, long double x)
{
    if (n == 1 && x == 0.0L)
        return 0.0L; /* odd: the sum's rounding would give about 1e-20 */
    const int m = 4000;
    const long double pi = 3.14159265358979323846264338327950288L;
    long double sum = 0.0L;
    for (int i = 0; i <= m; i++) {
        long double t = pi * i / m, w = i == 0 || i == m ? 0.5L : 1.0L;
        sum += w * expl(x * cosl(t)) * (n ? cosl(t) : 1.0L);
    }
    return sum / m;
}

static long double norm_reference(int dim, const float *p, int reciprocal)
{
    long double sum = 0.0L;
    for (int i = 0; i < dim; i++)
        sum += (long double)p[i] * p[i];
    return reciprocal ? 1.0L / sqrtl(sum) : sqrtl(sum);
}

__global__ void simd_all(unsigned *out, const unsigned *pairs)
{
    int k = 0;
    for (int p = 0; p < TL_SIMD_PAIR_COUNT; p++) {
        unsigned a = pairs[2 * p], b = pairs[2 * p + 1];
#define UNARY(name, bits, s, kind) out[k++] = name(a);
#define BINARY(name, bits, s, kind) out[k++] = name(a, b);
        TL_SIMD_UNARY(UNARY)
        TL_SIMD_BINARY(BINARY)
#undef UNARY
#undef BINARY
    }
}
__global__ void special(float *out, const float *in, int n)
{
    int j = 0;
    for (int i = 0; i < n; i++) {
        out[j++] = erfcxf(in[i]);
        out[j++] = cyl_bessel_i0f(in[i]);
        out[j++] = cyl_bessel_i1f(in[i]);
        out[j++] = normf(i + 1, in);
        out[j++] = rnormf(i + 1, in);
    }
}
int main()
{
    static const unsigned pairs[][2] = {TL_SIMD_PAIRS};
    enum { F = sizeof simd_functions / sizeof *simd_functions };
    unsigned *dp, *dout, out[TL_SIMD_PAIR_COUNT * F];
    cudaMalloc(&dp, sizeof pairs); cudaMalloc(&dout, sizeof out);
    cudaMemcpy(dp, pairs, sizeof pairs, cudaMemcpyHostToDevice);
    simd_all<<<1, 1>>>(dout, dp);
    cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
    int bad = 0, k = 0;
    for (int p = 0; p < TL_SIMD_PAIR_COUNT; p++)
        for (int f = 0; f < F; f++, k++) {
            const struct simd_function *s = &simd_functions[f];
            unsigned want = simd_want(s->kind, s->bits, s->is_signed, pairs[p][0], pairs[p][1]);
            if (out[k] != want) {
                bad++;
                printf("DIFFER %s(0x%08x, 0x%08x): GPU 0x%08x, reference 0x%08x\n", s->name, pairs[p][0], pairs[p][1], out[k], want);
            }
        }
    printf("simd: %d of %d results differ from the reference\n", bad, TL_SIMD_PAIR_COUNT * F);
    const float in[] = {-20.0f, -3.5f, -1.0f, -0.25f, 0.0f, 1e-6f, 0.5f, 1.0f, 2.5f, 3.0f, 7.5f, 10.0f, 26.0f, 60.0f, 88.0f, 100.0f, 1000.0f, 1e4f};
    const int n = sizeof in / sizeof *in;
    float *din, *dfo, fo[5 * n];
    cudaMalloc(&din, sizeof in); cudaMalloc(&dfo, sizeof fo);
    cudaMemcpy(din, in, sizeof in, cudaMemcpyHostToDevice);
    special<<<1, 1>>>(dfo, din, n);
    cudaMemcpy(fo, dfo, sizeof fo, cudaMemcpyDeviceToHost);
    double worst[5] = {0};
    const char *names[5] = {"erfcxf", "cyl_bessel_i0f", "cyl_bessel_i1f", "normf", "rnormf"};
    for (int i = 0; i < n; i++) {
        long double w[5] = {erfcx_reference(in[i]), bessel_i_reference(0, in[i]), bessel_i_reference(1, in[i]),
                            norm_reference(i + 1, in, 0), norm_reference(i + 1, in, 1)};
        for (int f = 0; f < 5; f++) {
            double u = ulps(fo[5 * i + f], w[f]);
            if (u > worst[f]) worst[f] = u;
            if (u > 1) printf("ULPS %s(%g): GPU %.9g, reference %.9Lg, %.2f ulps\n", names[f], in[i], fo[5 * i + f], w[f], u);
        }
    }
    for (int f = 0; f < 5; f++) printf("%s: at most %.2f ulps from the reference on the GPU\n", names[f], worst[f]);
    return 0;
}
