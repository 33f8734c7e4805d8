/*
 * rewrite: copies a .cu file, turning each kernel launch
 *
 *     name<<<config>>>(args)      into      TL_LAUNCH("name", (name), (config), (args))
 *
 * so g++ can compile it against the emulator; name may be a template's
 * instance, kern<float, 32>. Everything else, newlines included, is copied
 * as it is, so the compiler's line numbers stay right. Comments and string
 * literals are copied untouched.
 *
 * With --check-global (for machines without nvcc, whose front end checks
 * it otherwise), a launch of a function that is not declared __global__ is
 * refused, with nvcc's words. With --names, the functions declared
 * __global__ or __device__ are listed in FILE, one "global NAME" or
 * "device NAME" a line, for device-code.sh.
 *
 * usage: rewrite [--check-global] [--names FILE] IN.cu OUT.cpp
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "rewrite: cannot read %s\n", path);
        exit(1);
    }
    buf[n] = '\0';
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* Index just past the comment or literal starting at i, or i when there is none. */
static size_t skip_opaque(const char *s, size_t i, size_t n)
{
    if (s[i] == '/' && i + 1 < n && s[i + 1] == '/') {
        while (i < n && s[i] != '\n')
            i++;
        return i;
    }
    if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
        const char *end = strstr(s + i + 2, "*/");
        return end ? (size_t)(end - s) + 2 : n;
    }
    if (s[i] == '"' || s[i] == '\'') {
        char q = s[i++];
        while (i < n && s[i] != q)
            i += s[i] == '\\' ? 2 : 1;
        return i < n ? i + 1 : n;
    }
    return i;
}

static int is_ident(char c)
{
    return isalnum((unsigned char)c) || c == '_';
}

static int line_of(const char *s, size_t i)
{
    int line = 1;
    for (size_t k = 0; k < i; k++)
        line += s[k] == '\n';
    return line;
}

/* The names that follow __global__ (or __device__) up to their parameter list, __launch_bounds__ skipped. */
#define MAX_KERNELS 256
typedef struct {
    char name[128];
    int global;
} declared;
static declared kernels[MAX_KERNELS];
static int n_kernels;

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
                if (e - b == 17 && strncmp(b, "__launch_bounds__", 17) == 0) {
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

static int declared_global(const char *name, size_t len)
{
    for (int k = 0; k < n_kernels; k++)
        if (kernels[k].global && strlen(kernels[k].name) == len &&
            strncmp(kernels[k].name, name, len) == 0)
            return 1;
    return 0;
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

/* Index of the parenthesis that closes the one at i, or n. */
static size_t matching(const char *s, size_t i, size_t n)
{
    int depth = 0;
    while (i < n) {
        size_t j = skip_opaque(s, i, n);
        if (j != i) {
            i = j;
            continue;
        }
        if (s[i] == '(')
            depth++;
        else if (s[i] == ')' && --depth == 0)
            return i;
        i++;
    }
    return n;
}

/* The code alone, comments and literals blanked, for the searches for declarations. */
static char *code_only(const char *s, size_t n)
{
    char *code = malloc(n + 1);
    if (!code)
        exit(1);
    memcpy(code, s, n + 1);
    for (size_t i = 0; i < n;) {
        size_t j = skip_opaque(s, i, n);
        for (size_t k = i; k < j; k++)
            code[k] = code[k] == '\n' ? '\n' : ' ';
        i = j > i ? j : i + 1;
    }
    return code;
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

/* The launched name before the <<< at `at`, no further back than `from`: it starts at
 * *name; its identifier ends at *ident_end, its template arguments (if any) at *name_end. */
static void launched_name(const char *s, size_t from, size_t at, size_t *name, size_t *ident_end,
                          size_t *name_end)
{
    /* The kernel's name ends just before <<<, after optional spaces. */
    size_t end = at;
    while (end > from && isspace((unsigned char)s[end - 1]))
        end--;
    /* A template's arguments: back to the < that opens them. */
    size_t ident = end;
    if (end > from && s[end - 1] == '>') {
        int depth = 0;
        size_t k = end;
        while (k > from) {
            k--;
            if (s[k] == '>')
                depth++;
            else if (s[k] == '<' && --depth == 0)
                break;
        }
        ident = depth == 0 ? k : end;
        while (ident > from && isspace((unsigned char)s[ident - 1]))
            ident--;
    }
    size_t start = ident;
    while (start > from && (is_ident(s[start - 1]) || s[start - 1] == ':'))
        start--;
    *name = start == ident ? end : start;
    *ident_end = ident;
    *name_end = end;
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
        if (strncmp(s + i, "extern __shared__", 17) == 0) {
            fprintf(stderr, "%s: dynamic shared memory (extern __shared__) is not supported by the "
                            "tilelab CPU emulator: declare the array with its size, or run this "
                            "lab on a GPU\n", path);
            exit(1);
        }
        if (strncmp(s + i, "<<<", 3) != 0) {
            i++;
            continue;
        }
        size_t name, ident_end, name_end;
        launched_name(s, copied, i, &name, &ident_end, &name_end);
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
        fwrite(s + copied, 1, name - copied, out);
        fputs("TL_LAUNCH(\"", out);
        for (size_t k = name; k < name_end; k++)
            if (!isspace((unsigned char)s[k]) || (k > name && !isspace((unsigned char)s[k - 1])))
                fputc(isspace((unsigned char)s[k]) ? ' ' : s[k], out);
        fprintf(out, "\", (%.*s), (%.*s), ", (int)(name_end - name), s + name,
                (int)(close - (s + i + 3)), s + i + 3);
        fwrite(s + open, 1, end + 1 - open, out);
        fputc(')', out);
        copied = i = end + 1;
    }
    fwrite(s + copied, 1, n - copied, out);
}

int main(int argc, char **argv)
{
    int check_global = 0;
    const char *names = NULL;
    for (; argc > 3 && argv[1][0] == '-'; argc--, argv++) {
        if (strcmp(argv[1], "--check-global") == 0) {
            check_global = 1;
        } else if (strcmp(argv[1], "--names") == 0 && argc > 4) {
            names = argv[2];
            argc--, argv++;
        } else {
            break;
        }
    }
    if (argc != 3) {
        fprintf(stderr, "usage: rewrite [--check-global] [--names FILE] IN.cu OUT.cpp\n");
        return 2;
    }
    size_t n;
    char *s = slurp(argv[1], &n), *code = code_only(s, n);
    collect(code, "__global__");
    collect(code, "__device__");
    if (names)
        write_names(names);
    FILE *out = fopen(argv[2], "w");
    if (!out) {
        perror(argv[2]);
        return 1;
    }
    fprintf(out, "#line 1 \"%s\"\n", argv[1]);
    rewrite(argv[1], s, n, code, check_global, out);
    fclose(out);
    free(code);
    free(s);
    return 0;
}
