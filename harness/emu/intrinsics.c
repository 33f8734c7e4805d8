/*
 * The floating-point intrinsics of a named rounding mode (__fadd_rd,
 * __fmaf_ru, __int2float_rz, ...): the operation done by the CPU in that
 * mode. The operands are read, and the result kept, through volatile
 * variables, so the compiler neither folds the operation nor moves it out
 * of the mode.
 */
#include "device_functions.h"

#include <fenv.h>
#include <math.h>

static const int modes[] = {FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD};

float tl_emu_cuda_fround(int op, int mode, double a, double b, double c, long long i)
{
    int old = fegetround();
    fesetround(modes[mode & 3]);
    volatile float x = (float)a, y = (float)b, z = (float)c, r;
    volatile double d = a;
    volatile long long n = i;
    switch (op) {
    case TL_OP_ADD: r = x + y; break;
    case TL_OP_SUB: r = x - y; break;
    case TL_OP_MUL: r = x * y; break;
    case TL_OP_DIV: r = x / y; break;
    case TL_OP_FMA: r = fmaf(x, y, z); break;
    case TL_OP_SQRT: r = sqrtf(x); break;
    case TL_OP_RCP: r = 1.0f / x; break;
    case TL_OP_F2D: r = (float)d; break;
    case TL_OP_I2F: r = (float)(int)n; break;
    case TL_OP_U2F: r = (float)(unsigned int)n; break;
    case TL_OP_L2F: r = (float)n; break;
    default: r = (float)(unsigned long long)n; break;
    }
    float result = r;
    fesetround(old);
    return result;
}

double tl_emu_cuda_dround(int op, int mode, double a, double b, double c, long long i)
{
    int old = fegetround();
    fesetround(modes[mode & 3]);
    volatile double x = a, y = b, z = c, r;
    volatile long long n = i;
    switch (op) {
    case TL_OP_ADD: r = x + y; break;
    case TL_OP_SUB: r = x - y; break;
    case TL_OP_MUL: r = x * y; break;
    case TL_OP_DIV: r = x / y; break;
    case TL_OP_FMA: r = fma(x, y, z); break;
    case TL_OP_SQRT: r = sqrt(x); break;
    case TL_OP_RCP: r = 1.0 / x; break;
    case TL_OP_L2D: r = (double)n; break;
    default: r = (double)(unsigned long long)n; break;
    }
    double result = r;
    fesetround(old);
    return result;
}
