/*
 * rewrite: copies a .cu file, turning each kernel launch
 *
 *     name<<<config>>>(args)      into      TL_LAUNCH("name", (name), (config), (args))
 *
 * so g++ can compile it against the emulator; name may be a template's
 * instance, kern<float, 32>. A name the file declares no function by (a
 * variable or a parameter holding a pointer to a kernel, an element of an
 * array of them) becomes TL_LAUNCH_POINTER(...), which calls through it. Everything else, newlines included, is copied
 * as it is, so the compiler's line numbers stay right. Comments and string
 * literals are copied untouched.
 *
 * Before that, each kernel's body gets its first line, and its extern
 * __shared__ arrays become the launch's dynamic shared memory
 * (kernel_edits.c); --resources gives nvcc's ptxas report, whose counts of
 * registers and static shared memory that first line passes on.
 *
 * With --check-global (for machines without nvcc, whose front end checks
 * it otherwise), a launch of a function that is not declared __global__ is
 * refused, with nvcc's words, and so is a launch from device code (dynamic parallelism,
 * which needs -rdc=true). With --names, the functions declared
 * __global__ or __device__ are listed in FILE, one "global NAME" or
 * "device NAME" a line, for device-code.sh. A __managed__ variable, which
 * the emulator cannot run, is refused with the reason; with --check-global, a
 * __shared__ variable with an initializer, in nvcc's words.
 *
 * usage: rewrite [--check-global] [--names FILE] [--resources PTXAS.log] IN.cu OUT.cpp
 */
#include "kernel_edits.h"
#include "source.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The names that follow __global__ (or __device__) up to their parameter list, __launch_bounds__
 * and __maxnreg__ skipped. */
#define MAX_KERNELS 256
typedef struct {
    char name[128];
    int global;
} declared;
static declared kernels[MAX_KERNELS];
static int n_kernels;

/* An operator function, its parameter list at q: its name as rewrite lists it, into op:
 * "operator*", "operator+=", "operator()", "operator[]" as their symbols demangle, and
 * "operator" for a conversion (operator float, operator T *), whose type the symbol's
 * name has in the template's arguments, not its own (device_names.h's base). */
static int operator_named(const char *p, const char *q, char *op, size_t len)
{
    const char *o = NULL;
    for (const char *i = p; i + 8 <= q; i++)
        if (strncmp(i, "operator", 8) == 0 && (i == p || !is_ident(i[-1])) && !is_ident(i[8]))
            o = i;
    if (!o)
        return 0;
    char symbols[64];
    size_t n = 0;
    for (const char *c = o + 8; c < q; c++) {
        if (is_ident(*c)) {
            snprintf(op, len, "operator");
            return 1;
        }
        if (!isspace((unsigned char)*c) && n + 1 < sizeof symbols)
            symbols[n++] = *c;
    }
    if (n == 0 && q[1] == ')')
        symbols[n++] = '(', symbols[n++] = ')';
    snprintf(op, len, "operator%.*s", (int)n, symbols);
    return 1;
}

static void collect(const char *s, const char *keyword)
{
    const char *p = s;
    int global = strcmp(keyword, "__global__") == 0;
    while ((p = strstr(p, keyword)) != NULL) {
        p += strlen(keyword);
        const char *q = p;
        while (*q && *q != ';' && *q != '{') {
            if (*q == '(') {
                const char *e = q;
                while (e > p && isspace((unsigned char)e[-1]))
                    e--;
                const char *b = e;
                while (b > p && is_ident(b[-1]))
                    b--;
                char op[128];
                if (operator_named(p, q, op, sizeof op)) {
                    if (n_kernels < MAX_KERNELS) {
                        snprintf(kernels[n_kernels].name, 128, "%s", op);
                        kernels[n_kernels++].global = global;
                    }
                    break;
                }
                if (is_kernel_qualifier(b, (size_t)(e - b))) {
                    while (*q && *q != ')')
                        q++;
                } else {
                    if (n_kernels < MAX_KERNELS && e > b && e - b < 128) {
                        snprintf(kernels[n_kernels].name, 128, "%.*s", (int)(e - b), b);
                        kernels[n_kernels++].global = global;
                    }
                    break;
                }
            }
            q++;
        }
    }
}

static int declared_as(const char *name, size_t len, int global_only)
{
    for (int k = 0; k < n_kernels; k++)
        if ((kernels[k].global || !global_only) && strlen(kernels[k].name) == len &&
            strncmp(kernels[k].name, name, len) == 0)
            return 1;
    return 0;
}

static int declared_global(const char *name, size_t len)
{
    return declared_as(name, len, 1);
}

/* Declared __global__ or __device__. */
static int declared_function(const char *name, size_t len)
{
    return declared_as(name, len, 0);
}

/* Whether the file defines or declares "void name(": a function a launch may have meant. */
static int declared_void(const char *s, const char *name, size_t len)
{
    for (const char *p = s; (p = strstr(p, "void")) != NULL; p += 4) {
        if ((p > s && is_ident(p[-1])) || is_ident(p[4]))
            continue;
        const char *q = p + 4;
        while (isspace((unsigned char)*q))
            q++;
        if (strncmp(q, name, len) != 0 || is_ident(q[len]))
            continue;
        q += len;
        while (isspace((unsigned char)*q))
            q++;
        if (*q == '(')
            return 1;
    }
    return 0;
}

static void write_names(const char *names)
{
    FILE *f = fopen(names, "w");
    if (!f) {
        perror(names);
        exit(1);
    }
    for (int k = 0; k < n_kernels; k++)
        fprintf(f, "%s %s\n", kernels[k].global ? "global" : "device", kernels[k].name);
    fclose(f);
}

/* Index of the ( or [ that opens the bracket closing at k, no further back than from (or from). */
static size_t opening(const char *s, size_t from, size_t k)
{
    char close = s[k], open = close == ')' ? '(' : '[';
    int depth = 0;
    while (k > from) {
        if (s[k] == close)
            depth++;
        else if (s[k] == open && --depth == 0)
            return k;
        k--;
    }
    return from;
}

/* The launched name before the <<< at `at`, no further back than `from`: it starts at
 * *name; its identifier ends at *ident_end, its template arguments (if any) at *name_end.
 * *pointer says that it is an expression no function is named by (an element of an array
 * of kernels, a member): a pointer to a kernel. */
static void launched_name(const char *s, size_t from, size_t at, size_t *name, size_t *ident_end,
                          size_t *name_end, int *pointer)
{
    /* The kernel's name ends just before <<<, after optional spaces. */
    size_t end = at;
    while (end > from && isspace((unsigned char)s[end - 1]))
        end--;
    *pointer = 0;
    /* A template's arguments: back to the < that opens them, over what brackets hold
     * (kern<B, (B >> 5)>, kern<sizeof(T[2])>). */
    size_t ident = end;
    if (end > from && s[end - 1] == '>') {
        int depth = 0;
        size_t k = end;
        while (k > from) {
            k--;
            if (s[k] == ')' || s[k] == ']')
                k = opening(s, from, k);
            else if (s[k] == '>')
                depth++;
            else if (s[k] == '<' && --depth == 0)
                break;
        }
        ident = depth == 0 ? k : end;
        while (ident > from && isspace((unsigned char)s[ident - 1]))
            ident--;
    } else if (end > from && s[end - 1] == ']') {
        ident = opening(s, from, end - 1);
        *pointer = 1;
    }
    size_t start = ident;
    for (;;) {
        while (start > from && (is_ident(s[start - 1]) || s[start - 1] == ':'))
            start--;
        if (start > from && start < ident && s[start - 1] == '.')
            start--;
        else if (start > from + 1 && start < ident && s[start - 1] == '>' && s[start - 2] == '-')
            start -= 2;
        else
            break;
        *pointer = 1;
    }
    *name = start == ident ? end : start;
    *ident_end = ident;
    *name_end = end;
}

/* Whether offset i of code lies on a preprocessor directive (#define KERNEL __global__),
 * lines continued by a backslash included. */
static int in_directive(const char *code, size_t i)
{
    size_t b = i;
    for (;;) {
        while (b > 0 && code[b - 1] != '\n')
            b--;
        if (b < 2 || code[b - 2] != '\\')
            break;
        b--;
    }
    while (code[b] == ' ' || code[b] == '\t')
        b++;
    return code[b] == '#';
}

/* Whether offset i of code lies in the body of a function declared __global__ or __device__:
 * device code, where a launch is dynamic parallelism, which nvcc compiles only with -rdc=true. */
static int in_device_body(const char *code, size_t n, size_t i)
{
    static const char *const keywords[] = {"__global__", "__device__"};
    for (int k = 0; k < 2; k++) {
        size_t len = strlen(keywords[k]);
        for (const char *p = code; (p = strstr(p, keywords[k])) != NULL; p += len) {
            if ((p > code && is_ident(p[-1])) || is_ident(p[len]) || in_directive(code, (size_t)(p - code)))
                continue;
            size_t j = (size_t)(p - code) + len;
            while (j < n && code[j] != ';' && code[j] != '{')
                j = code[j] == '(' ? matching(code, j, n) + 1 : j + 1;
            if (j < n && code[j] == '{' && j < i && i < matching(code, j, n))
                return 1;
        }
    }
    return 0;
}

/* The source with every launch rewritten; exits 1 with nvcc-like words on what it cannot read. */
static void rewrite(const char *path, const char *s, size_t n, const char *code, int check_global,
                    FILE *out)
{
    size_t i = 0, copied = 0;
    while (i < n) {
        size_t j = skip_opaque(s, i, n);
        if (j != i) {
            i = j;
            continue;
        }
        if (strncmp(s + i, "<<<", 3) != 0) {
            i++;
            continue;
        }
        size_t name, ident_end, name_end;
        int pointer;
        /* Read in the code alone: a comment between the name and its <<< is space. */
        launched_name(code, copied, i, &name, &ident_end, &name_end, &pointer);
        const char *close = strstr(s + i + 3, ">>>");
        size_t open = close ? (size_t)(close - s) + 3 : n;
        while (open < n && isspace((unsigned char)s[open]))
            open++;
        if (name == name_end || !close || open >= n || s[open] != '(') {
            fprintf(stderr, "%s: a <<< that the emulator cannot read: write launches as "
                            "kernel<<<grid, block>>>(arguments);\n", path);
            exit(1);
        }
        size_t end = matching(s, open, n);
        if (end == n) {
            fprintf(stderr, "%s: a launch whose arguments never close\n", path);
            exit(1);
        }
        size_t base = name;
        for (size_t k = name; k < ident_end; k++)
            if (s[k] == ':')
                base = k + 1;
        /* A name the file declares as a function, but not __global__ (a macro's parameter is neither). */
        if (check_global && !declared_global(s + base, ident_end - base) &&
            declared_void(code, s + base, ident_end - base)) {
            fprintf(stderr, "%s(%d): error: a host function call cannot be configured: %.*s is "
                            "launched with <<< >>>, but it is not declared __global__ (write "
                            "__global__ void %.*s(...), as nvcc requires)\n",
                    path, line_of(s, i), (int)(ident_end - base), s + base,
                    (int)(ident_end - base), s + base);
            exit(1);
        }
        /* A launch from a kernel or a __device__ function (dynamic parallelism). */
        if (check_global && in_device_body(code, n, i)) {
            fprintf(stderr, "%s(%d): error: kernel launch from __device__ or __global__ functions "
                            "requires separate compilation mode: %.*s is launched from device code "
                            "(dynamic parallelism), which the lab's build (no -rdc=true) does not "
                            "compile; launch every kernel from the host function\n",
                    path, line_of(s, i), (int)(ident_end - base), s + base);
            exit(1);
        }
        /* A name the file declares no function by: a variable or a parameter that holds a
         * pointer to a kernel (kern = fast ? a : b, a launch helper's parameter). */
        pointer = pointer || (!declared_function(s + base, ident_end - base) &&
                              !declared_void(code, s + base, ident_end - base));
        fwrite(s + copied, 1, name - copied, out);
        fputs(pointer ? "TL_LAUNCH_POINTER(\"" : "TL_LAUNCH(\"", out);
        for (size_t k = name; k < name_end; k++)
            if (!isspace((unsigned char)code[k]) || (k > name && !isspace((unsigned char)code[k - 1])))
                fputc(isspace((unsigned char)code[k]) ? ' ' : s[k], out);
        fprintf(out, "\", (%.*s), (%.*s), ", (int)(name_end - name), s + name,
                (int)(close - (s + i + 3)), s + i + 3);
        /* The lines of what lies between the name and <<<, and between >>> and (, kept. */
        for (size_t k = name_end; k < open; k++)
            if (s[k] == '\n' && (k < i || k >= (size_t)(close - s) + 3))
                fputc('\n', out);
        fwrite(s + open, 1, end + 1 - open, out);
        fputc(')', out);
        copied = i = end + 1;
    }
    fwrite(s + copied, 1, n - copied, out);
}

/* What the emulator cannot run, said before g++ says something less clear. */
static void refuse_unsupported(const char *path, const char *s, const char *code)
{
    for (const char *p = code; (p = strstr(p, "__managed__")) != NULL; p++)
        if ((p == code || !is_ident(p[-1])) && !is_ident(p[11])) {
            fprintf(stderr, "%s:%d: a __managed__ variable: memory that kernels and the host share "
                            "is not supported by the tilelab CPU emulator, whose kernels reach only "
                            "device memory (declare it __device__ and copy it with "
                            "cudaMemcpyToSymbol/cudaMemcpyFromSymbol, or run this file on a GPU)\n",
                    path, line_of(s, (size_t)(p - code)));
            exit(1);
        }
}

/* nvcc's "initializer not allowed for __shared__ variable", for machines without nvcc: CUDA
 * never initializes shared memory, where g++ would take __shared__ int n = 0 as a static's
 * initializer, set once for the program. An = at the declaration's outer level, before its
 * ; (a == or <= in a template's argument is no initializer). */
static void refuse_shared_initializers(const char *path, const char *s, const char *code, size_t n)
{
    for (const char *p = code; (p = strstr(p, "__shared__")) != NULL; p++) {
        size_t i = (size_t)(p - code), k = i, e = i;
        if ((i > 0 && is_ident(code[i - 1])) || is_ident(code[i + 10]))
            continue;
        while (e > 0 && isspace((unsigned char)code[e - 1]))
            e--;
        if (e >= 6 && strncmp(code + e - 6, "extern", 6) == 0 && (e == 6 || !is_ident(code[e - 7])))
            continue;
        size_t line = i; /* a macro's text (#define SHARED __shared__) is no declaration */
        while (line > 0 && code[line - 1] != '\n')
            line--;
        while (line < i && isspace((unsigned char)code[line]))
            line++;
        if (code[line] == '#')
            continue;
        int depth = 0;
        for (k = i + 10; k < n && !(depth == 0 && code[k] == ';'); k++) {
            char c = code[k];
            if (strchr("([{", c))
                depth++;
            else if (strchr(")]}", c) && --depth < 0)
                break;
            else if (depth == 0 && c == '=' && code[k + 1] != '=' && !strchr("=<>!", code[k - 1])) {
                fprintf(stderr, "%s(%d): error: initializer not allowed for __shared__ variable: "
                                "CUDA never initializes shared memory, so a block's threads set it "
                                "themselves (one thread stores the value, then __syncthreads())\n",
                        path, line_of(s, i));
                exit(1);
            }
        }
    }
}

int main(int argc, char **argv)
{
    int check_global = 0;
    const char *names = NULL, *resources = NULL;
    for (; argc > 3 && argv[1][0] == '-'; argc--, argv++) {
        if (strcmp(argv[1], "--check-global") == 0) {
            check_global = 1;
        } else if (strcmp(argv[1], "--names") == 0 && argc > 4) {
            names = argv[2];
            argc--, argv++;
        } else if (strcmp(argv[1], "--resources") == 0 && argc > 4) {
            resources = argv[2];
            argc--, argv++;
        } else {
            break;
        }
    }
    if (argc != 3) {
        fprintf(stderr, "usage: rewrite [--check-global] [--names FILE] [--resources PTXAS.log] IN.cu OUT.cpp\n");
        return 2;
    }
    size_t n, edited_n;
    char *s = slurp(argv[1], &n), *code = code_only(s, n);
    refuse_unsupported(argv[1], s, code);
    if (check_global)
        refuse_shared_initializers(argv[1], s, code, n);
    collect(code, "__global__");
    collect(code, "__device__");
    if (names)
        write_names(names);
    char *edited = tl_edit_kernels(s, n, resources, &edited_n), *edited_code = code_only(edited, edited_n);
    FILE *out = fopen(argv[2], "w");
    if (!out) {
        perror(argv[2]);
        return 1;
    }
    fprintf(out, "#line 1 \"%s\"\n", argv[1]);
    rewrite(argv[1], edited, edited_n, edited_code, check_global, out);
    fclose(out);
    free(code);
    free(edited_code);
    free(edited);
    free(s);
    return 0;
}
