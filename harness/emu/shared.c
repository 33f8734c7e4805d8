/*
 * The emulator's view of a lab file's statics: the globals gcc's
 * instrumentation registers (its __shared__ arrays, with their bounds and
 * red zones, and its other statics), the __shared__ arrays of template
 * kernels read from the symbol table, and the poison every __shared__
 * array is filled with before a block runs.
 */
#include "cuda_runtime.h"
#include "emulator.h"
#include "kernel_edits.h"
#include "matrix.h"
#include "statics.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* -------------------------------------------------------- __shared__ arrays */

/*
 * Every global of the lab file that the instrumentation guards: its
 * __shared__ arrays, which the emulator's header puts in the section
 * tl_shared, its __constant__ variables (section tl_constant), and its
 * other statics and string literals.
 */
extern char __start_tl_shared[] __attribute__((weak));
extern char __stop_tl_shared[] __attribute__((weak));

static struct asan_global **globals;
static size_t n_globals;
/* Per global (as globals[]), which of host code and kernels read and wrote it
 * (tl_emu_global_reached). */
static unsigned char *sides;
#define EITHER 0x80
/* Per global, a digest of its bytes as the device side last left them (or as the program
 * started), and the operation (a launch or a copy: epoch) that last checked it. */
static uint64_t *digests;
static unsigned *checked, epoch = 1;

static uint64_t digest_of(const struct asan_global *g)
{
    const unsigned char *p = (const unsigned char *)g->beg;
    uint64_t h = 0xcbf29ce484222325ull, w;
    size_t i = 0;
    for (; i + 8 <= g->size; i += 8) {
        memcpy(&w, p + i, 8);
        h = (h ^ w) * 0x100000001b3ull;
        h ^= h >> 29;
    }
    for (; i < g->size; i++)
        h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}
static uintptr_t globals_lo = UINTPTR_MAX, globals_hi;

extern char __start_tl_constant[] __attribute__((weak));
extern char __stop_tl_constant[] __attribute__((weak));

/* Whether name (len bytes) ends in suffix. */
static int ends_in(const char *name, size_t len, const char *suffix)
{
    size_t n = strlen(suffix);
    return len > n && strncmp(name + len - n, suffix, n) == 0;
}

/* In the section tl_shared, or named by rewrite as a __shared__ variable (kernel_edits.h):
 * g++ keeps a template's statics out of the section, and the instrumentation registers
 * some of them (a template __device__ function's __shared__ bool, say). */
int tl_emu_is_shared(const struct asan_global *g)
{
    return g->beg - (uintptr_t)__start_tl_shared < (uintptr_t)(__stop_tl_shared - __start_tl_shared) ||
           ends_in(g->name, strlen(g->name), TL_EMU_SHARED_SUFFIX);
}

int tl_emu_is_constant(const struct asan_global *g)
{
    return g->beg - (uintptr_t)__start_tl_constant <
           (uintptr_t)(__stop_tl_constant - __start_tl_constant);
}

void __asan_register_globals(struct asan_global *g, uintptr_t n);
void __asan_register_globals(struct asan_global *g, uintptr_t n)
{
    struct asan_global **grown = realloc(globals, (n_globals + n) * sizeof *grown);
    if (!grown)
        abort();
    globals = grown;
    unsigned char *more = realloc(sides, n_globals + n);
    if (!more)
        abort();
    sides = more;
    uint64_t *d = realloc(digests, (n_globals + n) * sizeof *d);
    unsigned *c = d ? realloc(checked, (n_globals + n) * sizeof *c) : NULL;
    if (!d || !c)
        abort();
    digests = d, checked = c;
    for (uintptr_t i = 0; i < n; i++) {
        /* __shared__ arrays and string literals are neither side's: never refused. */
        sides[n_globals] = tl_emu_is_shared(&g[i]) || strcmp(g[i].name, "<string literal>") == 0 ? EITHER : 0;
        digests[n_globals] = sides[n_globals] ? 0 : digest_of(&g[i]);
        checked[n_globals] = 0;
        globals[n_globals++] = &g[i];
        if (g[i].beg < globals_lo)
            globals_lo = g[i].beg;
        if (g[i].beg + g[i].size_with_redzone > globals_hi)
            globals_hi = g[i].beg + g[i].size_with_redzone;
    }
}

void __asan_unregister_globals(struct asan_global *g, uintptr_t n);
void __asan_unregister_globals(struct asan_global *g, uintptr_t n)
{
    (void)g;
    (void)n;
}

void tl_emu_shared_section(uintptr_t *start, size_t *bytes)
{
    *start = (uintptr_t)__start_tl_shared;
    *bytes = (size_t)(__stop_tl_shared - __start_tl_shared);
}

const char *tl_emu_global_name(const struct asan_global *g)
{
    static char names[2][128];
    static int next;
    char *name = names[next++ % 2];
    size_t len = strlen(g->name);
    if (ends_in(g->name, len, TL_EMU_SHARED_SUFFIX))
        len -= strlen(TL_EMU_SHARED_SUFFIX);
    else if (ends_in(g->name, len, TL_EMU_REACHED_SUFFIX))
        len -= strlen(TL_EMU_REACHED_SUFFIX);
    snprintf(name, sizeof names[0], "%.*s", (int)len, g->name);
    return name;
}

const struct asan_global *tl_emu_global_at(uintptr_t a)
{
    /* A kernel's accesses come in runs on one array: the last one found first. */
    static const struct asan_global *last;
    if (a - globals_lo >= globals_hi - globals_lo)
        return NULL;
    if (last && a - last->beg < last->size_with_redzone)
        return last;
    for (size_t i = 0; i < n_globals; i++)
        if (a - globals[i]->beg < globals[i]->size_with_redzone)
            return last = globals[i];
    return NULL;
}

/*
 * A lab variable is host memory or device memory, never both: a GPU keeps a
 * __device__ or __constant__ variable in device memory, which host code
 * reaches only through the runtime's calls (cudaMemcpyToSymbol and
 * cudaMemcpyFromSymbol; a pointer from cudaGetSymbolAddress crashes it, and
 * the variable's name reaches a host copy the kernels never see), and a host
 * variable in host memory, which a kernel does not reach. The emulator keeps
 * both in the program's data, where host code that read what a kernel wrote,
 * or wrote what a kernel read, moved memory no count saw: a lab 5 file
 * transposed in __device__ arrays from its host code, between two coalesced
 * copy kernels, and its technique and cost were the copies' (tests/hostile/).
 * So each variable keeps which side read and wrote it: host code's read of a
 * variable a kernel wrote, its write of one a kernel reached, a kernel's read
 * of one host code wrote, its write of one host code reached, is refused
 * (both sides reading one, a constant's initializer, is not). 0, or the
 * other side's access that refuses it: TL_HOST_WROTE and the like.
 */
int tl_emu_global_reached(const struct asan_global *g, int by_kernel, int wrote)
{
    static size_t last;
    if (!(last < n_globals && globals[last] == g))
        for (last = 0; last < n_globals && globals[last] != g; last++)
            ;
    if (last == n_globals || sides[last] & EITHER)
        return 0;
    /* Once an operation, the device side's first access: the bytes as it left them, or else
     * host code changed them by a path the instrumentation does not see (a C library
     * function), as its write. */
    if (by_kernel && checked[last] != epoch) {
        checked[last] = epoch;
        if (digest_of(g) != digests[last])
            sides[last] |= TL_HOST_WROTE;
    }
    unsigned char other = sides[last] & (by_kernel ? TL_HOST_READ | TL_HOST_WROTE : TL_KERNEL_READ | TL_KERNEL_WROTE);
    unsigned char refused = wrote ? other : other & (TL_HOST_WROTE | TL_KERNEL_WROTE);
    if (refused)
        return refused;
    sides[last] |= by_kernel ? (wrote ? TL_KERNEL_WROTE : TL_KERNEL_READ) : (wrote ? TL_HOST_WROTE : TL_HOST_READ);
    return 0;
}

size_t tl_emu_lab_variable_bytes(void)
{
    size_t bytes = 0;
    for (size_t i = 0; i < n_globals; i++)
        if (!tl_emu_is_shared(globals[i]) && strcmp(globals[i]->name, "<string literal>") != 0)
            bytes += globals[i]->size;
    return bytes;
}

/* Before a launch or a copy: a number of its own, so that what an operation refused before
 * its end (a copy whose destination was refused after its source was checked) leaves no
 * variable taken as checked by the next. */
void tl_emu_globals_begin(void)
{
    epoch++;
}

/* After a launch or a copy: the digests of the variables it reached (tl_emu_global_reached),
 * as it left them, and the next operation's number. */
void tl_emu_globals_settle(void)
{
    for (size_t i = 0; i < n_globals; i++)
        if (checked[i] == epoch)
            digests[i] = digest_of(globals[i]);
    epoch++;
}

/* The __shared__ arrays of template kernels, from the symbol table (statics.c). */
typedef struct {
    uintptr_t beg;
    size_t size;
    char name[64]; /* as the source names it: As of _ZZ19matmul_tiled_kernelILi32EEvPfiE2As */
} local_static;

/* The source's name of a function-local static from its mangled one, which ends in the
 * name's length and the name (E2As), and a discriminator where a function has two of that
 * name (E2As_0). "" where it does not parse. */
static void local_name(const char *mangled, char *out, size_t len)
{
    size_t n = strlen(mangled);
    out[0] = '\0';
    for (size_t i = 0; i + 1 < n; i++) {
        if (mangled[i] != 'E' || !isdigit((unsigned char)mangled[i + 1]))
            continue;
        char *end;
        unsigned long size = strtoul(mangled + i + 1, &end, 10);
        size_t at = (size_t)(end - mangled);
        if (size == 0 || at + size > n)
            continue;
        size_t rest = at + size;
        if (rest < n && mangled[rest] == '_')
            for (rest++; rest < n && isdigit((unsigned char)mangled[rest]);)
                rest++;
        size_t suffix = strlen(TL_EMU_SHARED_SUFFIX); /* rewrite's renaming (kernel_edits.h) */
        if (size > suffix && strncmp(mangled + at + size - suffix, TL_EMU_SHARED_SUFFIX, suffix) == 0)
            size -= suffix;
        if (rest == n)
            snprintf(out, len, "%.*s", (int)size, mangled + at);
    }
}

static local_static *statics;
static size_t n_statics, cap_statics;
static int statics_loaded, statics_pruned;

static void found_static(uintptr_t beg, size_t size, const char *name)
{
    if (n_statics == cap_statics) {
        size_t cap = cap_statics ? 2 * cap_statics : 16;
        local_static *grown = realloc(statics, cap * sizeof *grown);
        if (!grown)
            abort();
        statics = grown, cap_statics = cap;
    }
    statics[n_statics] = (local_static){beg, size, ""};
    local_name(name, statics[n_statics].name, sizeof statics[n_statics].name);
    n_statics++;
}

void tl_emu_load_statics(void)
{
    if (!statics_loaded)
        tl_emu_local_statics(&tl_emu_builtin, "tl_emu_builtin", found_static, tl_emu_found_function);
    statics_loaded = 1;
}

void tl_emu_read_statics(void)
{
    tl_emu_load_statics();
    if (statics_pruned)
        return;
    /* Those the instrumentation registered (by now: registering is a constructor's
     * work) are known already, bounds and all; the rest stay. */
    size_t kept = 0;
    for (size_t i = 0; i < n_statics; i++) {
        int registered = 0;
        for (size_t g = 0; g < n_globals && !registered; g++)
            registered = globals[g]->beg == statics[i].beg;
        if (!registered)
            statics[kept++] = statics[i];
    }
    n_statics = kept;
    statics_pruned = 1;
}

const char *tl_emu_static_at(uintptr_t a, uintptr_t *beg, size_t *size)
{
    for (size_t i = 0; i < n_statics; i++)
        if (a - statics[i].beg < statics[i].size) {
            *beg = statics[i].beg, *size = statics[i].size;
            return statics[i].name[0] ? statics[i].name : NULL;
        }
    return NULL;
}

int tl_emu_in_static(uintptr_t a, size_t size)
{
    for (size_t i = 0; i < n_statics; i++)
        if (a - statics[i].beg < statics[i].size)
            return a + size <= statics[i].beg + statics[i].size;
    return 0;
}

char tl_emu_cuda_dynamic_shared[TL_EMU_DYNAMIC_SHARED_BYTES] __attribute__((aligned(1024)));

/* n bytes at p, byte b the poison's byte b % 4: 64 bytes at a time. */
static void poison(unsigned char *p, size_t n)
{
    static unsigned char pattern[64];
    static int made;
    if (!made) {
        made = 1;
        uint32_t bits = TL_SHARED_POISON_BITS;
        for (size_t b = 0; b < sizeof pattern; b++)
            pattern[b] = ((unsigned char *)&bits)[b % 4];
    }
    size_t b = 0;
    for (; b + sizeof pattern <= n; b += sizeof pattern)
        memcpy(p + b, pattern, sizeof pattern);
    memcpy(p + b, pattern, n - b);
}

void tl_emu_poison_shared(size_t dynamic)
{
    poison((unsigned char *)tl_emu_cuda_dynamic_shared,
           dynamic < sizeof tl_emu_cuda_dynamic_shared ? dynamic : sizeof tl_emu_cuda_dynamic_shared);
    for (size_t i = 0; i < n_globals; i++)
        if (tl_emu_is_shared(globals[i]))
            poison((unsigned char *)globals[i]->beg, globals[i]->size);
    for (size_t i = 0; i < n_statics; i++)
        poison((unsigned char *)statics[i].beg, statics[i].size);
}
