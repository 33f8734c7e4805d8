/* A call's launches on a GPU beside the emulator's: launch_compare.h. */
#include "launch_compare.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tl_launches_write(char *buf, size_t len, int n, const tl_launch *l)
{
    size_t at = 0;
    int w = snprintf(buf, len, "%d#%llx", n, tl_launches_digest(n, l));
    if (w < 0 || (size_t)w >= len)
        return -1;
    at = (size_t)w;
    for (int i = 0; i < n && i < TL_COMPARE_LAUNCHES && i < TL_MAX_LAUNCHES; i++) {
        char symbol[TL_LAUNCH_SYMBOL];
        /* a symbol has neither, but a line must stay one record */
        snprintf(symbol, sizeof symbol, "%s", l[i].symbol[0] ? l[i].symbol : "-");
        for (char *s = symbol; *s; s++)
            if (*s == '|' || isspace((unsigned char)*s))
                *s = '_';
        w = snprintf(buf + at, len - at, "|%s %u %u %u %u %u %u %u", symbol, l[i].grid[0], l[i].grid[1],
                     l[i].grid[2], l[i].block[0], l[i].block[1], l[i].block[2], l[i].shared);
        if (w < 0 || (size_t)w >= len - at)
            return -1;
        at += (size_t)w;
    }
    return 0;
}

int tl_launches_read(const char *text, int *n, tl_launch *l, int max, unsigned long long *digest)
{
    char *end;
    long count = strtol(text, &end, 10);
    if (end == text || count < 0 || count > 1L << 30)
        return -1;
    *n = (int)count;
    *digest = 0;
    if (*end == '#') {
        char *after;
        *digest = strtoull(end + 1, &after, 16);
        if (after == end + 1)
            return -1;
        end = after;
    }
    int k = 0;
    for (const char *p = end; *p; k++) {
        tl_launch one;
        int used = 0;
        memset(&one, 0, sizeof one);
        if (*p != '|' || sscanf(p + 1, "%127s %u %u %u %u %u %u %u%n", one.symbol, &one.grid[0], &one.grid[1],
                                &one.grid[2], &one.block[0], &one.block[1], &one.block[2], &one.shared,
                                &used) != 8)
            return -1;
        if (!strcmp(one.symbol, "-"))
            one.symbol[0] = '\0';
        if (k < max)
            l[k] = one;
        p += 1 + used;
    }
    return k == (count < TL_COMPARE_LAUNCHES ? count : TL_COMPARE_LAUNCHES) ? 0 : -1;
}

/* A <length><identifier> of a mangled name at *p: copied to out, *p past it; 0, or -1. */
static int source_name(const char **p, char *out, size_t len)
{
    char *end;
    long n = strtol(*p, &end, 10);
    if (end == *p || n <= 0 || (size_t)n > strlen(end))
        return -1;
    snprintf(out, len, "%.*s", (int)n, end);
    *p = end + n;
    return 0;
}

void tl_kernel_base(const char *symbol, char *out, size_t len)
{
    const char *p = symbol;
    out[0] = '\0';
    if (!strncmp(p, "_Z", 2)) {
        p += 2;
        if (*p == 'L')
            p++;
        if (*p == 'N') { /* nested: the last name before the template arguments or the end */
            for (p++; *p && strchr("rVKRO", *p); p++)
                ;
            while (*p && *p != 'E' && *p != 'I') {
                if (!strncmp(p, "St", 2))
                    p += 2;
                else if (source_name(&p, out, len))
                    break;
            }
        } else {
            if (!strncmp(p, "St", 2))
                p += 2;
            source_name(&p, out, len);
        }
        if (out[0])
            return;
    }
    /* As the source writes it: the last name of a qualified one, before its template arguments
     * or parameters. */
    size_t end = strcspn(symbol, "<(");
    while (end > 0 && symbol[end - 1] == ' ')
        end--;
    size_t start = end;
    while (start > 0 && (isalnum((unsigned char)symbol[start - 1]) || symbol[start - 1] == '_'))
        start--;
    snprintf(out, len, "%.*s", (int)(end - start), symbol + start);
}

unsigned long long tl_launches_digest(int n, const tl_launch *l)
{
    unsigned long long h = 1469598103934665603ull; /* FNV-1a */
#define TL_MIX(byte) (h = (h ^ (unsigned char)(byte)) * 1099511628211ull)
    for (int i = 0; i < n && i < TL_MAX_LAUNCHES; i++) {
        char base[TL_LAUNCH_SYMBOL];
        tl_kernel_base(l[i].symbol[0] ? l[i].symbol : l[i].kernel, base, sizeof base);
        for (const char *c = base; *c; c++)
            TL_MIX(*c);
        TL_MIX('\0');
        unsigned v[4] = {l[i].block[0], l[i].block[1], l[i].block[2], l[i].shared};
        for (int k = 0; k < 4; k++)
            for (int b = 0; b < 4; b++)
                TL_MIX(v[k] >> (8 * b));
    }
#undef TL_MIX
    return h ? h : 1;
}

static unsigned long long blocks_of(const tl_launch *l)
{
    return (unsigned long long)l->grid[0] * l->grid[1] * l->grid[2];
}

/* "tile<<<(9, 9, 1), (32, 32, 1), 0>>>": a launch as a message shows it. */
static void said(const tl_launch *l, char *out, size_t len)
{
    char base[TL_LAUNCH_SYMBOL];
    tl_kernel_base(l->symbol[0] ? l->symbol : l->kernel, base, sizeof base);
    snprintf(out, len, "%s<<<(%u, %u, %u), (%u, %u, %u), %u>>>", base[0] ? base : "a kernel", l->grid[0],
             l->grid[1], l->grid[2], l->block[0], l->block[1], l->block[2], l->shared);
}

/* Appends the first launches of a side to why: "naive<<<...>>>, then ...". */
static void list(int n, const tl_launch *l, char *out, size_t len)
{
    size_t at = 0;
    out[0] = '\0';
    for (int i = 0; i < n && i < 4 && i < TL_COMPARE_LAUNCHES && at < len; i++) {
        char one[320];
        said(&l[i], one, sizeof one);
        int w = snprintf(out + at, len - at, "%s%s", i ? ", then " : "", one);
        at += w > 0 ? (size_t)w : 0;
    }
    if (n > 4 && at < len)
        snprintf(out + at, len - at, " and %d more", n - 4);
    if (n == 0)
        snprintf(out, len, "no kernel");
}

static void explain(char *why, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
}

#define ADVICE                                                                                         \
    " Technique is judged from the emulator's run of your file and speed from the GPU's, so both "   \
    "must launch the same kernels, with the same blocks: does your code choose its kernel by what it " \
    "finds of the machine (the device's name or properties, a timing)? Choose by the matrix's shape alone."

int tl_launches_differ(int n_gpu, const tl_launch *gpu, unsigned long long gpu_digest, int n_emu,
                       const tl_launch *emu, unsigned sms, char *why, size_t len)
{
    char on_gpu[1400], on_emu[1400];
    list(n_gpu, gpu, on_gpu, sizeof on_gpu);
    list(n_emu, emu, on_emu, sizeof on_emu);
    if (n_gpu != n_emu) {
        explain(why, len, "on the GPU your call made %d launch%s (%s), on the emulator %d (%s)." ADVICE, n_gpu,
                n_gpu == 1 ? "" : "es", on_gpu, n_emu, on_emu);
        return 1;
    }
    for (int i = 0; i < n_gpu && i < TL_COMPARE_LAUNCHES && i < TL_MAX_LAUNCHES; i++) {
        const tl_launch *g = &gpu[i], *e = &emu[i];
        char a[TL_LAUNCH_SYMBOL], b[TL_LAUNCH_SYMBOL], at[64] = "";
        tl_kernel_base(g->symbol, a, sizeof a);
        tl_kernel_base(e->symbol, b, sizeof b);
        if (n_gpu > 1)
            snprintf(at, sizeof at, " (launch %d of %d)", i + 1, n_gpu);
        said(g, on_gpu, sizeof on_gpu);
        said(e, on_emu, sizeof on_emu);
        if (a[0] && b[0] && strcmp(a, b)) {
            explain(why, len, "on the GPU your call launched the kernel %s%s, on the emulator %s: %s there, "
                    "%s here." ADVICE, a, at, b, on_gpu, on_emu);
            return 1;
        }
        if (memcmp(g->block, e->block, sizeof g->block) || g->shared != e->shared) {
            explain(why, len, "on the GPU your call launched %s%s, on the emulator %s: its %s differ%s." ADVICE,
                    on_gpu, at, on_emu,
                    memcmp(g->block, e->block, sizeof g->block) ? "blocks" : "dynamic shared memory",
                    memcmp(g->block, e->block, sizeof g->block) ? "" : "s");
            return 1;
        }
        int sized = sms > 0 && ((blocks_of(g) > 0 && blocks_of(g) % sms == 0) ||
                                (blocks_of(e) > 0 && blocks_of(e) % sms == 0));
        if (memcmp(g->grid, e->grid, sizeof g->grid) && !sized) {
            explain(why, len, "on the GPU your call launched %s%s, on the emulator %s: their grids differ, and "
                    "neither is a whole number of blocks for each of the GPU's %u SMs, as a grid sized by "
                    "the device is." ADVICE, on_gpu, at, on_emu, sms);
            return 1;
        }
    }
    /* Past the first TL_COMPARE_LAUNCHES, which agree: the rest by the digest of them all. */
    if (gpu_digest && n_gpu > TL_COMPARE_LAUNCHES && gpu_digest != tl_launches_digest(n_emu, emu)) {
        explain(why, len, "on the GPU your call made %d launches, as on the emulator, and the first %d "
                "agree, but a later one launched another kernel, other blocks or other dynamic shared "
                "memory there than here." ADVICE, n_gpu, TL_COMPARE_LAUNCHES);
        return 1;
    }
    return 0;
}
