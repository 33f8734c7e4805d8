#include "shapes.h"
#include "matrix.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_dim(const char *text, const char *end, int *dim)
{
    long value = 0;
    if (text == end)
        return -1;
    for (const char *p = text; p < end; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        value = value * 10 + (*p - '0');
        if (value > TL_MAX_DIM)
            return -2;
    }
    if (value < 1)
        return -1;
    *dim = (int)value;
    return 0;
}

int tl_parse_shape(const char *text, tl_shape *shape, char *why, size_t why_len)
{
    const char *end = text + strlen(text);
    const char *x1 = strpbrk(text, "xX");
    const char *x2 = x1 ? strpbrk(x1 + 1, "xX") : NULL;
    int rc;
    if (!x1) {
        rc = parse_dim(text, end, &shape->rows);
        shape->cols = shape->depth = shape->rows;
    } else {
        rc = parse_dim(text, x1, &shape->rows);
        if (rc == 0)
            rc = parse_dim(x1 + 1, x2 ? x2 : end, &shape->cols);
        if (rc == 0 && x2)
            rc = parse_dim(x2 + 1, end, &shape->depth);
        else if (rc == 0)
            shape->depth = shape->cols;
    }
    if (rc == -2) {
        snprintf(why, why_len, "size '%s' is too large: each dimension must be at most %d", text, TL_MAX_DIM);
        return -1;
    }
    if (rc != 0) {
        snprintf(why, why_len,
                 "'%s' is not a size: write a whole number >= 1 (e.g. 4096) or ROWSxCOLS (e.g. "
                 "4097x8191), or MxNxK for a matrix product",
                 text);
        return -1;
    }
    return 0;
}

int tl_parse_elements(const char *text, tl_shape *shape, char *why, size_t why_len)
{
    long count;
    if (tl_parse_count(text, LONG_MAX, &count) == 0 && count >= 1 &&
        tl_count_shape((size_t)count, shape) == 0)
        return 0;
    snprintf(why, why_len, "'%s' is not a size: write a count of elements, a whole number >= 1 "
                           "(e.g. 4194304)", text);
    return -1;
}

int tl_parse_shapes(const char *text, tl_shape *shapes, int max, char *why, size_t why_len)
{
    return tl_parse_list(text, tl_parse_shape, shapes, max, why, why_len);
}

int tl_parse_list(const char *text, int (*parse)(const char *, tl_shape *, char *, size_t),
                  tl_shape *shapes, int max, char *why, size_t why_len)
{
    char buf[1024];
    int n = 0;
    if (strlen(text) >= sizeof buf) {
        snprintf(why, why_len, "the list of sizes is too long");
        return -1;
    }
    strcpy(buf, text);
    char *save = NULL;
    for (char *tok = strtok_r(buf, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
        if (n == max) {
            snprintf(why, why_len, "too many sizes: at most %d", max);
            return -1;
        }
        if (parse(tok, &shapes[n], why, why_len) != 0)
            return -1;
        n++;
    }
    if (n == 0) {
        snprintf(why, why_len, "no size given: e.g. --sizes 1024,2048,4097x8191");
        return -1;
    }
    return n;
}

int tl_parse_count(const char *text, long max, long *value)
{
    char *end;
    if (!*text || *text < '0' || *text > '9')
        return -1;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || *end || v > max)
        return -1;
    *value = v;
    return 0;
}

size_t tl_shape_elements(tl_shape s)
{
    return (size_t)s.rows * (size_t)s.cols;
}

int tl_count_shape(size_t n, tl_shape *s)
{
    const size_t most = 2147483647; /* INT_MAX */
    /* rows past 2^20 would take a search of millions; no count the kit asks for needs them */
    for (size_t r = n / most + (n % most != 0) + (n == 0); r <= (size_t)1 << 20; r++)
        if (n % r == 0 && n / r <= most) {
            *s = (tl_shape){(int)r, (int)(n / r), 1};
            return 0;
        }
    return -1;
}

int tl_seed(uint64_t *seed, char *why, size_t why_len)
{
    const char *text = getenv("TILELAB_SEED");
    if (!text || !*text) {
        *seed = TL_DEFAULT_SEED;
        return 0;
    }
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 0);
    const char *spaces = text + strspn(text, " \t");
    if (*spaces == '-' || errno == ERANGE) {
        snprintf(why, why_len, "TILELAB_SEED='%s' is out of range: a seed is a whole number from 0 "
                 "to 18446744073709551615, e.g. TILELAB_SEED=42", text);
        return -1;
    }
    if (errno || *end || end == text) {
        snprintf(why, why_len, "TILELAB_SEED='%s' is not a whole number: use e.g. TILELAB_SEED=42 "
                 "(or 0x2a)", text);
        return -1;
    }
    *seed = v;
    return 0;
}

tl_shape tl_random_shape(uint64_t *state, int max_dim)
{
    tl_shape s;
    double top = log((double)max_dim);
    double u = (double)(tl_rand_next(state) >> 11) / 9007199254740992.0;
    double v = (double)(tl_rand_next(state) >> 11) / 9007199254740992.0;
    s.rows = (int)exp(u * top);
    s.cols = (int)exp(v * top);
    if (s.rows < 1) s.rows = 1;
    if (s.cols < 1) s.cols = 1;
    if (s.rows > max_dim) s.rows = max_dim;
    if (s.cols > max_dim) s.cols = max_dim;
    return s;
}
