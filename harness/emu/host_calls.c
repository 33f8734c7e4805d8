/*
 * emu-host-calls OBJ NAMES SRC
 *
 * nvcc's "calling a __host__ function from a __global__ function is not
 * allowed", for machines without nvcc: a call from device code to a
 * function of the file, or of the C++ library, that is not __device__. OBJ
 * is the lab file compiled for the emulator with -O0 -fno-inline, where
 * every call is still a call; NAMES is rewrite's list of the file's
 * __global__ and __device__ functions. Says each such call on stderr, in
 * SRC's name, and fails where there is one.
 */
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device_names.h"
#include "object_code.h"

/* What device code may call besides the file's own device functions: what the
 * emulator's headers give it (the CUDA __ names, intrinsics and warp functions, make_
 * functions, atomics, cooperative groups), and the C++ library's maths. */
static const char *const header_names[] = {
    "min", "max", "make_float2", "make_float4", "__ldg", "dim3", "uint3", "tl_emu_configure",
    "__fdividef", "fdividef", "__fmaf_rn", "__fadd_rn", "__fmul_rn", "__frcp_rn", "rsqrtf",
    "__saturatef", "__expf", "__logf", "__sinf", "__cosf", "__powf", "__float_as_int",
    "__int_as_float",
};
static const char cuda_device_names[] =
    "^(make_[a-z]+[1-4](_16a|_32a)?|atomic[A-Z][A-Za-z]*|rsqrtf|rsqrt|rcbrtf?|normcdff?|erfcinvf?|"
    "erfinvf?|sincospif?|sinpif?|cospif?|exp10f?|fdividef|saturate)$";
static const char *const std_maths[] = {
    "abs", "fabs", "sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
    "pow", "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh",
    "asinh", "acosh", "atanh", "floor", "ceil", "round", "lround", "llround", "trunc", "rint",
    "lrint", "llrint", "nearbyint", "fmod", "remainder", "remquo", "fma", "fmin", "fmax",
    "fdim", "hypot", "ldexp", "frexp", "modf", "scalbn", "scalbln", "ilogb", "logb",
    "nextafter", "copysign", "erf", "erfc", "tgamma", "lgamma", "isnan", "isinf", "isfinite",
    "isnormal", "signbit", "nan",
};

/* The C functions device code may call, as CUDA provides them there: the Math API's (each
 * also with an f, its float form), printf (and the puts and putchar g++ makes of it), malloc
 * and free, memcpy and memset (and the memmove g++ makes of a copy), a failed assert, the
 * stack protector's end, and the emulator's own. Any other C library function (wmemcpy,
 * strcpy) nvcc refuses in a kernel: one the emulator let through ran there unchecked and
 * uncounted (a lab 5 file moved its transpose by wmemcpy so, and scored 10 of 10). */
static const char *const c_maths[] = {
    "acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cbrt", "ceil", "copysign",
    "cos", "cosh", "cospi", "cyl_bessel_i0", "cyl_bessel_i1", "erf", "erfc", "erfcinv",
    "erfcx", "erfinv", "exp", "exp10", "exp2", "expm1", "fabs", "fdim", "floor", "fma", "fmax",
    "fmin", "fmod", "frexp", "hypot", "ilogb", "isfinite", "isinf", "isnan", "j0", "j1", "jn",
    "ldexp", "lgamma", "llrint", "llround", "log", "log10", "log1p", "log2", "logb", "lrint",
    "lround", "modf", "nan", "nearbyint", "nextafter", "norm", "norm3d", "norm4d", "normcdf",
    "normcdfinv", "pow", "rcbrt", "remainder", "remquo", "rhypot", "rint", "rnorm", "rnorm3d",
    "rnorm4d", "round", "rsqrt", "scalbln", "scalbn", "signbit", "sin", "sincos", "sincospi",
    "sinh", "sinpi", "sqrt", "tan", "tanh", "tgamma", "trunc", "y0", "y1", "yn", "fdivide",
};
static const char *const c_functions[] = {
    "printf", "puts", "putchar", "malloc", "free", "memcpy", "memset", "memmove",
    "__assert_fail", "__stack_chk_fail", "__isnan", "__isnanf", "__isinf", "__isinff",
    "__finite", "__finitef", "__signbit", "__signbitf", "__fpclassify", "__fpclassifyf",
};

static int listed(const char *name, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (strcmp(name, list[i]) == 0)
            return 1;
    return 0;
}

static int starts(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Whether device code may call callee, a C++ function by its demangled name. The emulator's
 * own are tl_emu_ names, or members of its tl_emu_ types (the conversion by which an extern
 * __shared__ array in a kernel reads the launch's dynamic shared memory). */
static int device_callable(const tl_device_names *names, const char *callee, const regex_t *cuda)
{
    char *q = tl_cxx_qualified(callee), *b = tl_cxx_base(callee);
    int ok;
    if (starts(q, "std::"))
        ok = listed(b, std_maths, sizeof std_maths / sizeof *std_maths);
    else
        ok = tl_device_kind(names, b) || listed(b, header_names, sizeof header_names / sizeof *header_names) ||
             starts(b, "tl_emu_") || starts(q, "tl_emu_") || starts(b, "__") || regexec(cuda, b, 0, NULL, 0) == 0 ||
             starts(q, "cooperative_groups::") || starts(q, "nvcuda::") || starts(q, "cuda::");
    free(q);
    free(b);
    return ok;
}

/* Whether device code may call name, a C function (no parameter list in its name): the
 * file's own device functions too. */
static int c_callable(const tl_device_names *names, const char *name, const regex_t *helper)
{
    char base[64];
    size_t n = strlen(name);
    snprintf(base, sizeof base, "%.*s", n > 1 && name[n - 1] == 'f' ? (int)n - 1 : (int)n, name);
    return tl_device_kind(names, name) || listed(name, c_maths, sizeof c_maths / sizeof *c_maths) ||
           listed(base, c_maths, sizeof c_maths / sizeof *c_maths) ||
           listed(name, c_functions, sizeof c_functions / sizeof *c_functions) || starts(name, "tl_emu_") ||
           regexec(helper, name, 0, NULL, 0) == 0;
}

/* Whether a call before call c has the same caller and callee: each is said once. */
static int said_before(const tl_object_code *o, size_t c)
{
    for (size_t d = 0; d < c; d++)
        if (strcmp(o->calls[d].callee, o->calls[c].callee) == 0 &&
            strcmp(o->functions[o->calls[d].from].name, o->functions[o->calls[c].from].name) == 0)
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: emu-host-calls OBJ NAMES SRC\n");
        return 2;
    }
    const char *src = argv[3];
    tl_object_code o;
    tl_device_names names;
    char why[4352];
    regex_t cuda;
    if (tl_object_code_read(argv[1], &o, why, sizeof why) != 0 ||
        tl_device_names_read(argv[2], &names, why, sizeof why) != 0) {
        fprintf(stderr, "emu-host-calls: %s\n", why);
        return 1;
    }
    /* The compiler's own helpers (libgcc's __popcountdi2, __muldc3): letters and a digit. */
    regex_t helper;
    if (regcomp(&cuda, cuda_device_names, REG_EXTENDED | REG_NOSUB) != 0 ||
        regcomp(&helper, "^__[a-z]+[0-9]$", REG_EXTENDED | REG_NOSUB) != 0)
        return 1;
    int status = 0;
    for (size_t c = 0; c < o.n_calls; c++) {
        const char *caller = o.functions[o.calls[c].from].name, *callee = o.calls[c].callee;
        char *caller_base = tl_cxx_base(caller);
        const char *kind = tl_device_kind(&names, caller_base);
        free(caller_base);
        /* Host code may call anything; a C function (printf, sqrtf) has no parameter list
         * in its name. */
        if (!kind || (strchr(callee, '(') ? device_callable(&names, callee, &cuda) : c_callable(&names, callee, &helper)))
            continue;
        if (said_before(&o, c))
            continue;
        char *shown_callee = tl_cxx_shown(callee), *shown_caller = tl_cxx_shown(caller);
        fprintf(stderr, "%s: error: calling a __host__ function(\"%s\") from a %s function(\"%s\") is not allowed: "
                        "only __device__ functions run on the GPU (nvcc refuses this file)\n",
                src, shown_callee, strcmp(kind, "global") == 0 ? "__global__" : "__device__", shown_caller);
        free(shown_callee);
        free(shown_caller);
        status = 1;
    }
    return status;
}
