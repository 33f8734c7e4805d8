/*
 * What rewrite changes in a lab file's kernels, before it rewrites their
 * launches; no newline is added or taken away, so lines keep their numbers:
 *
 *   - each __global__ function's body starts with
 *     TL_EMU_KERNEL_ENTRY(registers, static shared bytes, (bounds)): ptxas's
 *     counts for a kernel of that name (the most of its instances, where
 *     several share it) from nvcc's report where there is one, -1 where
 *     not, and the arguments of its __launch_bounds__, which the compiler
 *     evaluates there, template parameters and all;
 *   - after the body of each one that is not a template and whose name no
 *     other kernel has, TL_EMU_REGISTER(name, "name", ...), so that the
 *     emulator knows it before it runs (cudaFuncGetAttributes,
 *     cudaLaunchKernel with a pointer to its arguments);
 *   - extern __shared__ T name[]; becomes the launch's dynamic shared
 *     memory: extern T name[] TL_EMU_DYNAMIC_SHARED; at namespace scope,
 *     T (&name)[] = TL_EMU_DYNAMIC_SHARED_REF; in a function;
 *   - inline PTX that reads a special register (asm("mov.u32 %0,
 *     %%laneid;" : "=r"(lane))) becomes a call that reads it, and an asm
 *     statement with no instruction (asm volatile("" ::: "memory")) nothing.
 */
#include "kernel_edits.h"
#include "source.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------- ptxas's report */

typedef struct {
    char name[128];
    int regs, smem;
} resources;

#define MAX_ENTRIES 512
static resources entries[MAX_ENTRIES];
static int n_entries;

/* "void ns::kern<32>(float*)" -> "kern": the function's own name, as a launch names it. */
static void base_name(const char *demangled, char *out, size_t len)
{
    size_t end = 0;
    int depth = 0;
    for (; demangled[end] && !(demangled[end] == '(' && depth == 0); end++)
        depth += demangled[end] == '<' ? 1 : demangled[end] == '>' ? -1 : 0;
    /* its template arguments, then its return type and its scopes */
    if (end && demangled[end - 1] == '>')
        for (depth = 0; end > 0; end--) {
            depth += demangled[end - 1] == '>' ? 1 : demangled[end - 1] == '<' ? -1 : 0;
            if (depth == 0) {
                end--;
                break;
            }
        }
    size_t start = end;
    while (start > 0 && (is_ident(demangled[start - 1])))
        start--;
    snprintf(out, len, "%.*s", (int)(end - start), demangled + start);
}

/*
 * ptxas's report (-Xptxas -v, names demangled by c++filt):
 *   ptxas info    : Compiling entry function 'kern(float*)' for 'sm_90'
 *   ptxas info    : Used 40 registers, used 1 barriers, 4096 bytes smem, ...
 */
static void read_resources(const char *path)
{
    FILE *f = fopen(path, "r");
    char line[4096];
    resources *current = NULL;
    if (!f)
        return;
    while (fgets(line, sizeof line, f)) {
        const char *p;
        if ((p = strstr(line, "Compiling entry function '")) != NULL) {
            const char *q = p + strlen("Compiling entry function '"), *e = strrchr(q, '\'');
            char demangled[1024];
            if (!e || e <= q || n_entries == MAX_ENTRIES) {
                current = NULL;
                continue;
            }
            /* "... for 'sm_90'": the name's quote is the one before " for '". */
            const char *for_arch = strstr(q, "' for '");
            if (for_arch)
                e = for_arch;
            snprintf(demangled, sizeof demangled, "%.*s", (int)(e - q), q);
            current = &entries[n_entries++];
            base_name(demangled, current->name, sizeof current->name);
            current->regs = -1;
            current->smem = 0;
        } else if (current && (p = strstr(line, "Used ")) != NULL && strstr(p, " registers")) {
            current->regs = atoi(p + 5);
            const char *smem = strstr(p, " bytes smem");
            if (smem) {
                while (smem > p && isdigit((unsigned char)smem[-1]))
                    smem--;
                current->smem = atoi(smem);
            }
        }
    }
    fclose(f);
}

/* The most registers and static shared bytes of the kernels named name (-1: none known). */
static void resources_of(const char *name, int *regs, int *smem)
{
    *regs = *smem = -1;
    for (int i = 0; i < n_entries; i++)
        if (strcmp(entries[i].name, name) == 0) {
            if (entries[i].regs > *regs)
                *regs = entries[i].regs;
            if (entries[i].smem > *smem)
                *smem = entries[i].smem;
        }
}

/* ----------------------------------------------------------------- edits */

typedef struct {
    size_t at, skip; /* replace skip bytes at at by text */
    char *text;
} edit;

static edit *edits;
static size_t n_edits, cap_edits;

static void add_edit(size_t at, size_t skip, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void add_edit(size_t at, size_t skip, const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n_edits == cap_edits) {
        cap_edits = cap_edits ? 2 * cap_edits : 64;
        edits = realloc(edits, cap_edits * sizeof *edits);
        if (!edits)
            exit(1);
    }
    edits[n_edits].at = at, edits[n_edits].skip = skip, edits[n_edits].text = strdup(buf);
    n_edits++;
}

static int by_position(const void *x, const void *y)
{
    const edit *a = x, *b = y;
    return (a->at > b->at) - (a->at < b->at);
}

/* Whether index i lies on a preprocessor line (or its continuations). */
static int on_directive(const char *code, size_t i)
{
    size_t start = i;
    for (;;) {
        while (start > 0 && code[start - 1] != '\n')
            start--;
        if (start >= 2 && code[start - 2] == '\\') {
            start--;
            continue;
        }
        break;
    }
    while (code[start] == ' ' || code[start] == '\t')
        start++;
    return code[start] == '#';
}

/* Whether code[i .. i + len) is the word word. */
static int word_at(const char *code, size_t n, size_t i, const char *word)
{
    size_t len = strlen(word);
    return i + len <= n && strncmp(code + i, word, len) == 0 && (i == 0 || !is_ident(code[i - 1])) &&
           !is_ident(code[i + len]);
}

/* The text of s[from, to), newlines as spaces, for an edit that must keep lines. */
static char *one_line(const char *s, size_t from, size_t to)
{
    char *t = malloc(to - from + 1);
    if (!t)
        exit(1);
    for (size_t k = from; k < to; k++)
        t[k - from] = s[k] == '\n' || s[k] == '\r' ? ' ' : s[k];
    t[to - from] = '\0';
    return t;
}

typedef struct {
    size_t name, name_end, body, body_end, bounds, bounds_end;
    int is_template;
} definition;

/* The __global__ function whose declaration starts at g, if it is a definition. */
static int definition_at(const char *code, size_t n, size_t g, definition *d)
{
    memset(d, 0, sizeof *d);
    size_t q = g + strlen("__global__");
    while (q < n && code[q] != ';' && code[q] != '{' && code[q] != '}') {
        if (code[q] != '(') {
            q++;
            continue;
        }
        size_t e = q;
        while (e > g && isspace((unsigned char)code[e - 1]))
            e--;
        size_t b = e;
        while (b > g && is_ident(code[b - 1]))
            b--;
        if (is_kernel_qualifier(code + b, e - b)) {
            size_t close = matching(code, q, n);
            if (code[b + 2] == 'l') /* __launch_bounds__, not __maxnreg__ */
                d->bounds = q + 1, d->bounds_end = close;
            q = close + 1;
            continue;
        }
        while (b > g + 1 && code[b - 1] == ':' && code[b - 2] == ':') {
            b -= 2;
            while (b > g && is_ident(code[b - 1]))
                b--;
        }
        if (b == e)
            return 0;
        d->name = b, d->name_end = e;
        size_t close = matching(code, q, n), a = close + 1;
        while (a < n && isspace((unsigned char)code[a]))
            a++;
        if (close >= n || a >= n || code[a] != '{')
            return 0;
        d->body = a, d->body_end = matching(code, a, n);
        if (d->body_end >= n)
            return 0;
        /* A template: the word template between the statement before and __global__. */
        size_t start = g;
        while (start > 0 && code[start - 1] != ';' && code[start - 1] != '{' && code[start - 1] != '}')
            start--;
        for (size_t k = start; k < g && !d->is_template; k++)
            d->is_template = word_at(code, n, k, "template");
        return 1;
    }
    return 0;
}

static void edit_kernels(const char *s, const char *code, size_t n)
{
    definition defs[512];
    int n_defs = 0;
    for (const char *p = code; (p = strstr(p, "__global__")) != NULL; p++) {
        size_t g = (size_t)(p - code);
        if (word_at(code, n, g, "__global__") && !on_directive(code, g) &&
            n_defs < (int)(sizeof defs / sizeof *defs) && definition_at(code, n, g, &defs[n_defs]))
            n_defs++;
    }
    for (int i = 0; i < n_defs; i++) {
        const definition *d = &defs[i];
        char name[256], base[128];
        int regs, smem, same = 0;
        snprintf(name, sizeof name, "%.*s", (int)(d->name_end - d->name), s + d->name);
        base_name(name, base, sizeof base);
        resources_of(base, &regs, &smem);
        char *bounds = d->bounds ? one_line(s, d->bounds, d->bounds_end) : strdup("");
        add_edit(d->body + 1, 0, " TL_EMU_KERNEL_ENTRY(%d, %d, (%s));", regs, smem, bounds);
        for (int k = 0; k < n_defs; k++)
            same += (size_t)(defs[k].name_end - defs[k].name) == strlen(name) &&
                    strncmp(s + defs[k].name, name, strlen(name)) == 0;
        if (!d->is_template && same == 1)
            add_edit(d->body_end + 1, 0, " TL_EMU_REGISTER(%s, \"%s\", %d, %d, (%s))", name, name,
                     regs, smem, bounds);
        free(bounds);
    }
}

/* Whether the brace that opens at code[b] opens a namespace or an extern "C" block (code
 * has the "C" blanked), not a function's body, a class's or a statement's. */
static int opens_scope(const char *code, size_t b)
{
    size_t e = b;
    while (e > 0 && isspace((unsigned char)code[e - 1]))
        e--;
    size_t w = e;
    while (w > 0 && is_ident(code[w - 1]))
        w--;
    if (word_at(code, e, w, "namespace") || word_at(code, e, w, "extern"))
        return 1;
    if (w == e) /* no word before the brace */
        return 0;
    while (w >= 2 && code[w - 1] == ':' && code[w - 2] == ':') /* namespace a::b */
        for (w -= 2; w > 0 && is_ident(code[w - 1]);)
            w--;
    while (w > 0 && isspace((unsigned char)code[w - 1]))
        w--;
    return w >= 9 && word_at(code, w, w - 9, "namespace");
}

/* Whether code[i] lies inside a function's body (a brace around it opens no namespace). */
static int in_function(const char *code, size_t i)
{
    int depth = 0;
    for (size_t k = i; k-- > 0;) {
        if (code[k] == '}')
            depth++;
        else if (code[k] == '{' && depth > 0)
            depth--;
        else if (code[k] == '{' && !opens_scope(code, k))
            return 1;
    }
    return 0;
}

/*
 * extern __shared__ T name[]; -> the launch's dynamic shared memory: at
 * namespace scope extern T name[] TL_EMU_DYNAMIC_SHARED (an asm label); in a
 * function T (&name)[] = TL_EMU_DYNAMIC_SHARED_REF, a reference to it, since
 * g++ drops the asm label of a local extern declaration in a template (a
 * template kernel's, or a member of a template's: the name stays undefined).
 */
static void edit_extern_shared(const char *code, size_t n)
{
    for (const char *p = code; (p = strstr(p, "__shared__")) != NULL; p++) {
        size_t i = (size_t)(p - code), e = i;
        if (!word_at(code, n, i, "__shared__"))
            continue;
        while (e > 0 && isspace((unsigned char)code[e - 1]))
            e--;
        if (e < 6 || !word_at(code, n, e - 6, "extern"))
            continue;
        /* The declaration's end: its semicolon, on the same line where it is a macro's. */
        int directive = on_directive(code, i);
        size_t semi = i;
        while (semi < n && code[semi] != ';' && code[semi] != '{' && code[semi] != '}' &&
               !(directive && code[semi] == '\n' && code[semi - 1] != '\\'))
            semi++;
        if (semi >= n || code[semi] != ';')
            continue;
        /* The declarator's name: the word before its first bracket outside parentheses. */
        size_t bracket = i + strlen("__shared__"), name_end, name;
        for (int parens = 0; bracket < semi && !(code[bracket] == '[' && parens == 0); bracket++)
            parens += code[bracket] == '(' ? 1 : code[bracket] == ')' ? -1 : 0;
        for (name_end = bracket; name_end > i && isspace((unsigned char)code[name_end - 1]);)
            name_end--;
        for (name = name_end; name > i && is_ident(code[name - 1]);)
            name--;
        add_edit(i, strlen("__shared__"), "%*s", (int)strlen("__shared__"), "");
        if (!in_function(code, i) || bracket == semi || name == name_end) {
            add_edit(semi, 0, " TL_EMU_DYNAMIC_SHARED");
            continue;
        }
        add_edit(e - 6, strlen("extern"), "%*s", (int)strlen("extern"), "");
        add_edit(name, 0, "(&");
        add_edit(name_end, 0, ")");
        add_edit(semi, 0, " = TL_EMU_DYNAMIC_SHARED_REF");
    }
}

/* s[from, to) on one line, comments blanked (their // would swallow what follows). */
static char *declaration_text(const char *s, size_t n, size_t from, size_t to)
{
    char *t = malloc(to - from + 1);
    if (!t)
        exit(1);
    for (size_t k = from; k < to;) {
        size_t j = skip_opaque(s, k, n);
        if (j > to)
            j = to;
        int comment = j > k && s[k] == '/';
        for (size_t c = k; c < (j > k ? j : k + 1); c++)
            t[c - from] = comment || s[c] == '\n' || s[c] == '\r' ? ' ' : s[c];
        k = j > k ? j : k + 1;
    }
    t[to - from] = '\0';
    return t;
}

/* Whether one of the keywords whose variables edit_reached_variables reaches through a
 * reference stands in code[from, to): the declaration's first one does its edit. */
static const char *const reached[] = {"__shared__", "__device__", "__constant__"};
static int reached_keyword_in(const char *code, size_t n, size_t from, size_t to)
{
    for (size_t k = from; k < to; k++)
        for (size_t w = 0; w < sizeof reached / sizeof *reached; w++)
            if (code[k] == '_' && word_at(code, n, k, reached[w]))
                return 1;
    return 0;
}

/*
 * __shared__ T a[N], *b; -> __shared__ T a_tl_emu_shared[N], *b_tl_emu_shared;
 * T (&a)[N] = TL_EMU_SHARED_REF(a_tl_emu_shared), *&b = ...;
 * in a function and at namespace scope, and likewise the __device__ and
 * __constant__ variables of namespace scope (their initializers stay with the
 * renamed variable). The kernel reaches each such variable through a reference
 * the compiler cannot see through, so that every access is instrumented: gcc
 * leaves out the check of an access to a static at a constant offset it can
 * prove in bounds (a __shared__ int, tile[0][5], scratch[7]), which the
 * emulator would neither count nor check for a race, nor know as part of the
 * work that made the output. A tile read at constant offsets (a switch, a case
 * an element) hid lab 5's conflicted column reads from its cost, and a
 * __device__ array so used as every block's tile raced on a GPU unseen
 * (tests/hostile/). At namespace scope the reference is initialized when the
 * program starts and kept in the section tl_refs, whose reads by a kernel
 * (where the reference points) are no memory the kernel moves (emulator.c).
 * Declarations it cannot read (a function, a function pointer, a __shared__
 * initializer) stay as they are.
 */
static void edit_reached_variables(const char *s, const char *code, size_t n, const char *keyword)
{
    int shared = strcmp(keyword, "__shared__") == 0;
    const char *suffix = shared ? TL_EMU_SHARED_SUFFIX : TL_EMU_REACHED_SUFFIX;
    size_t key_len = strlen(keyword);
    for (const char *p = code; (p = strstr(p, keyword)) != NULL; p++) {
        size_t i = (size_t)(p - code), start = i, end, e = i;
        if (!word_at(code, n, i, keyword) || on_directive(code, i))
            continue;
        int local = in_function(code, i);
        if (!shared && local)
            continue;
        while (e > 0 && isspace((unsigned char)code[e - 1]))
            e--;
        if (e >= 6 && word_at(code, n, e - 6, "extern"))
            continue;
        /* The declaration's start: after a ; { } or label, or (at namespace scope) the
         * line of a preprocessor directive, whose text must not move into the references. */
        while (start > 0 && !strchr(";{}", code[start - 1]) &&
               !(code[start - 1] == ':' && start >= 2 && code[start - 2] != ':' && code[start] != ':') &&
               !(code[start - 1] == '\n' && start >= 2 && on_directive(code, start - 2)))
            start--;
        size_t first = start;
        while (first < i && isspace((unsigned char)code[first]))
            first++;
        if (reached_keyword_in(code, n, start, i) || word_at(code, n, first, "template"))
            continue;
        /* The declarators, split at commas outside brackets and template arguments; each
         * one's initializer (= or {, not for __shared__) begins at init[k]. A ( outside
         * brackets before any initializer is a function's or a function pointer's. */
        size_t seg[16][2], init[16], n_seg = 0, from = i + key_len, at_init = 0;
        int depth = 0, angle = 0, readable = 1;
        for (end = from; end < n && readable; end++) {
            char c = code[end];
            if (depth == 0 && !at_init && !shared && (c == '=' || c == '{'))
                at_init = end;
            if (depth == 0 && !at_init && c == '(' && !shared)
                readable = 0;
            else if (strchr("([{", c))
                depth++;
            else if (strchr(")]}", c))
                readable = --depth >= 0;
            else if (depth == 0 && (c == '<' || c == '>'))
                angle += c == '<' ? 1 : -1;
            else if (depth == 0 && angle == 0 && (c == ',' || c == ';')) {
                readable = n_seg < 16;
                if (readable)
                    init[n_seg] = at_init ? at_init : end, seg[n_seg][0] = from, seg[n_seg++][1] = end,
                    from = end + 1, at_init = 0;
                if (c == ';')
                    break;
            } else if (depth == 0 && c == '=' && shared)
                readable = 0;
        }
        if (!readable || end >= n || n_seg == 0)
            continue;
        /* A type defined or named in the declaration (struct S { ... } s;) is not read; a
         * const or constexpr variable of namespace scope stays as it is, a constant that code
         * may use as one (an array's size), whose reads at constant offsets both compilers fold. */
        for (size_t k = shared ? i + key_len : start; k < init[0] && readable; k++)
            readable = !(word_at(code, n, k, "struct") || word_at(code, n, k, "union") ||
                         word_at(code, n, k, "class") || word_at(code, n, k, "enum") ||
                         (!shared && (word_at(code, n, k, "const") || word_at(code, n, k, "constexpr"))));
        if (!readable)
            continue;
        /* Each declarator's name: the word before its first bracket, or its last word. */
        size_t name[16][2], decl_start = 0;
        for (size_t k = 0; k < n_seg && readable; k++) {
            size_t q = seg[k][0], last = 0, last_end = 0;
            for (depth = 0; q < init[k] && !(code[q] == '[' && depth == 0); q++) {
                depth += code[q] == '(' ? 1 : code[q] == ')' ? -1 : 0;
                if (is_ident(code[q]) && (q == 0 || !is_ident(code[q - 1])))
                    last = q;
                if (is_ident(code[q]) && !is_ident(code[q + 1]))
                    last_end = q + 1;
            }
            name[k][0] = last, name[k][1] = last_end;
            readable = last_end > last && !isdigit((unsigned char)code[last]) && depth == 0 &&
                       !memchr(code + last_end, '(', q - last_end);
        }
        if (!readable)
            continue;
        for (decl_start = name[0][0]; decl_start > i && strchr(" \t\n*", code[decl_start - 1]);)
            decl_start--;
        if (decl_start <= i)
            continue;
        /* The specifiers again, without the keyword, for the references. */
        char *before = declaration_text(s, n, start, i), *after = declaration_text(s, n, i + key_len, decl_start);
        for (char *t = after; *t; t++) /* __device__ __constant__ T x: the reference is neither */
            for (size_t w = 0; w < sizeof reached / sizeof *reached; w++)
                if (word_at(after, strlen(after), (size_t)(t - after), reached[w]))
                    memset(t, ' ', strlen(reached[w]));
        char refs[2048];
        size_t len = (size_t)snprintf(refs, sizeof refs, " %s %s", before, after);
        for (size_t k = 0; k < n_seg && len < sizeof refs; k++) {
            size_t d0 = k == 0 ? decl_start : seg[k][0];
            char *head = declaration_text(s, n, d0, name[k][0]), *tail = declaration_text(s, n, name[k][1], init[k]);
            /* T (&a)[N], but T &x: g++ warns of the parentheses of T (&x) where T is a class
             * (a __shared__ float4 or __half), and a build without nvcc takes warnings as errors. */
            int bounds = strspn(tail, " \t\n") < strlen(tail);
            len += (size_t)snprintf(refs + len, sizeof refs - len, "%s%s%s&%.*s%s%s%s = TL_EMU_SHARED_REF(%.*s%s)",
                                    k ? "," : "", head, bounds ? "(" : "", (int)(name[k][1] - name[k][0]),
                                    s + name[k][0], bounds ? ")" : "", tail, local ? "" : " TL_EMU_REF_SECTION",
                                    (int)(name[k][1] - name[k][0]), s + name[k][0], suffix);
            free(head);
            free(tail);
        }
        free(before);
        free(after);
        if (len + 2 >= sizeof refs)
            continue;
        for (size_t k = 0; k < n_seg; k++)
            add_edit(name[k][1], 0, "%s", suffix);
        add_edit(end + 1, 0, "%s;", refs);
    }
}

/* The read-only special registers of the PTX ISA that inline PTX may read (mov.u32 %0,
 * %laneid;), which the emulator gives; the enum of cuda_runtime.h names each in capitals, a
 * dot as an underscore (tid.x: TL_SREG_TID_X). */
static const char *const special[] = {
    "tid.x", "tid.y", "tid.z", "ntid.x", "ntid.y", "ntid.z", "ctaid.x", "ctaid.y", "ctaid.z",
    "nctaid.x", "nctaid.y", "nctaid.z", "laneid", "warpid", "nwarpid", "smid", "nsmid", "gridid",
    "lanemask_eq", "lanemask_le", "lanemask_lt", "lanemask_ge", "lanemask_gt", "clock64",
    "clock_hi", "clock", "globaltimer_lo", "globaltimer_hi", "globaltimer", "dynamic_smem_size",
    "is_explicit_cluster", "clusterid.x", "clusterid.y", "clusterid.z", "nclusterid.x",
    "nclusterid.y", "nclusterid.z", "cluster_ctaid.x", "cluster_ctaid.y", "cluster_ctaid.z",
    "cluster_nctaid.x", "cluster_nctaid.y", "cluster_nctaid.z", "cluster_ctarank",
    "cluster_nctarank"};

/* The text of the string literals in s[from, to), joined, blanks and one % of %% left out. */
static void literal_text(const char *s, size_t from, size_t to, char *out, size_t len)
{
    size_t o = 0;
    for (size_t i = from; i < to; i++) {
        if (s[i] != '"')
            continue;
        for (i++; i < to && s[i] != '"'; i++) {
            if (s[i] == '\\' && i + 1 < to && s[i + 1] == 'n') {
                i++;
                continue;
            }
            if (isspace((unsigned char)s[i]) || (s[i] == '%' && s[i + 1] == '%'))
                continue;
            if (o + 1 < len)
                out[o++] = s[i];
        }
    }
    out[o] = '\0';
}

/* An asm statement with no instruction: its template is string literals of blanks alone, and it
 * has no operands, clobbers at most (asm volatile("" ::: "memory"), a barrier to the compiler's
 * moving of accesses across it, which the emulator's thread runs in order anyway). code has
 * its literals blanked. */
static int no_instruction(const char *code, size_t from, size_t colon, size_t close)
{
    for (size_t i = from; i < colon; i++)
        if (!isspace((unsigned char)code[i]) && code[i] != '"')
            return 0;
    for (size_t i = colon; i < close; i++)
        if (code[i] == '(')
            return 0;
    return 1;
}

/*
 * asm volatile("" ::: "memory"); -> ((void)0): no instruction, nothing to run.
 * asm("mov.u32 %0, %%laneid;" : "=r"(lane)); -> ((void)((lane) = (unsigned int)
 * tl_emu_cuda_sreg(TL_SREG_LANEID))); the one inline PTX the emulator runs: a read of a
 * special register. Any other asm stays, and emu-compile.sh refuses it with the reason.
 */
static void edit_special_registers(const char *s, const char *code, size_t n)
{
    for (const char *p = code; (p = strstr(p, "asm")) != NULL; p++) {
        size_t at = (size_t)(p - code), q = at + 3;
        while (at > 0 && code[at - 1] == '_')
            at--;
        if ((at > 0 && is_ident(code[at - 1])) || (strncmp(code + at, "asm", 3) != 0 &&
            strncmp(code + at, "__asm", 5) != 0))
            continue;
        while (q < n && (is_ident(code[q]) || isspace((unsigned char)code[q])))
            q++; /* __asm__, volatile, __volatile__ */
        if (q >= n || code[q] != '(')
            continue;
        size_t close = matching(code, q, n), colon = q + 1;
        while (colon < close && code[colon] != ':')
            colon++;
        if (close >= n)
            continue;
        char text[256], constraint[16];
        literal_text(s, q + 1, colon, text, sizeof text);
        if (text[0] == '\0' && no_instruction(code, q + 1, colon, close)) {
            int newlines = 0;
            for (size_t i = at; i <= close; i++)
                newlines += s[i] == '\n';
            add_edit(at, close + 1 - at, "((void)0)%.*s", newlines, "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n");
            continue;
        }
        if (colon >= close)
            continue;
        /* the one output: "=r"(expr) or "=l"(expr), and after it no input, clobbers at most */
        size_t c = colon + 1;
        while (c < close && isspace((unsigned char)s[c])) /* s: code has the literal blanked */
            c++;
        size_t quote_end = c < close && s[c] == '"' ? c + 1 : c;
        while (quote_end < close && s[quote_end] != '"')
            quote_end++;
        snprintf(constraint, sizeof constraint, "%.*s", (int)(quote_end - c), s + c);
        size_t paren = quote_end + 1;
        while (paren < close && isspace((unsigned char)code[paren]))
            paren++;
        if (paren >= close || code[paren] != '(')
            continue;
        size_t paren_end = matching(code, paren, n), rest = paren_end + 1;
        /* code has string literals blanked: clobbers ("memory") pass, inputs do not */
        while (rest < close && (isspace((unsigned char)code[rest]) || code[rest] == ':' || code[rest] == ','))
            rest++;
        if (rest != close || (strcmp(constraint, "\"=r") != 0 && strcmp(constraint, "\"=l") != 0))
            continue;
        for (size_t k = 0; k < sizeof special / sizeof *special; k++) {
            char want[64], name[32];
            int wide = constraint[2] == 'l';
            snprintf(want, sizeof want, "mov.%s%%0,%%%s", wide ? "u64" : "u32", special[k]);
            if (strncmp(text, want, strlen(want)) != 0 && !(strncmp(text, "mov.b", 5) == 0 &&
                strncmp(text + 6, want + 6, strlen(want) - 6) == 0) && !(strncmp(text, "mov.s", 5) == 0 &&
                strncmp(text + 6, want + 6, strlen(want) - 6) == 0))
                continue;
            if (text[strlen(want)] != '\0' && strcmp(text + strlen(want), ";") != 0)
                continue;
            int newlines = 0;
            for (size_t i = at; i <= close; i++)
                newlines += s[i] == '\n';
            for (size_t i = 0; special[k][i] && i + 1 < sizeof name; i++)
                name[i] = special[k][i] == '.' ? '_' : (char)toupper((unsigned char)special[k][i]),
                name[i + 1] = '\0';
            char *expr = one_line(s, paren + 1, paren_end);
            add_edit(at, close + 1 - at, "((void)((%s) = (%s)tl_emu_cuda_sreg(TL_SREG_%s)))%.*s", expr,
                     wide ? "unsigned long long" : "unsigned int", name, newlines,
                     "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n");
            free(expr);
            break;
        }
    }
}

char *tl_edit_kernels(const char *s, size_t n, const char *resources_path, size_t *out_n)
{
    char *code = code_only(s, n);
    if (resources_path)
        read_resources(resources_path);
    edit_kernels(s, code, n);
    edit_extern_shared(code, n);
    for (size_t w = 0; w < sizeof reached / sizeof *reached; w++)
        edit_reached_variables(s, code, n, reached[w]);
    edit_special_registers(s, code, n);
    qsort(edits, n_edits, sizeof *edits, by_position);
    size_t len = n + 1;
    for (size_t k = 0; k < n_edits; k++)
        len += strlen(edits[k].text);
    char *out = malloc(len), *o = out;
    if (!out)
        exit(1);
    size_t at = 0;
    for (size_t k = 0; k < n_edits; k++) {
        memcpy(o, s + at, edits[k].at - at);
        o += edits[k].at - at;
        o += sprintf(o, "%s", edits[k].text);
        at = edits[k].at + edits[k].skip;
    }
    memcpy(o, s + at, n - at);
    o += n - at;
    *o = '\0';
    *out_n = (size_t)(o - out);
    free(code);
    return out;
}
