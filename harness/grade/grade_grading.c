/* The grading of one hand-in, as grade.sh decided it: grade_grading.h. */
#define _GNU_SOURCE
#include "grade_grading.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GRADING_MAX (1L << 20)

/* The file whole, a NUL after its end; its length in len. NULL where it cannot be read. */
static char *read_whole(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *text = malloc(GRADING_MAX + 1);
    *len = text ? fread(text, 1, GRADING_MAX, f) : 0;
    int bad = !text || ferror(f) || !feof(f);
    fclose(f);
    if (bad) {
        free(text);
        return NULL;
    }
    text[*len] = '\0';
    return text;
}

/* Each pair of the file, to its field of g: -1 for a name unknown or a list too long. */
static int take(tl_grading *g, const char *name, const char *value)
{
    static const struct {
        const char *name;
        size_t at;
    } strings[] = {
        {"name", offsetof(tl_grading, name)},
        {"gpu-backend", offsetof(tl_grading, gpu_backend)},
        {"labs", offsetof(tl_grading, labs)},
        {"manifests", offsetof(tl_grading, manifests)},
        {"alone-lock", offsetof(tl_grading, alone_lock)},
        {"root", offsetof(tl_grading, sandbox.root)},
        {"out", offsetof(tl_grading, sandbox.out)},
        {"work", offsetof(tl_grading, sandbox.work)},
        {"sandbox", offsetof(tl_grading, sandbox.kind)},
        {"namespaces", offsetof(tl_grading, sandbox.namespaces)},
    };
    static const struct {
        const char *name;
        size_t at;
    } numbers[] = {
        {"output-limit", offsetof(tl_grading, output_limit)},
        {"file-limit", offsetof(tl_grading, file_limit)},
        {"memory-limit", offsetof(tl_grading, memory_limit)},
        {"disk-limit", offsetof(tl_grading, disk_limit)},
        {"tmp-limit", offsetof(tl_grading, sandbox.tmp_limit)},
    };
    static const struct {
        const char *name;
        size_t at;
    } counts[] = {
        {"build-limit", offsetof(tl_grading, build_limit)},
        {"test-margin", offsetof(tl_grading, test_margin)},
        {"retry-scale", offsetof(tl_grading, retry_scale)},
        {"lab-limit", offsetof(tl_grading, lab_limit)},
        {"perf-limit", offsetof(tl_grading, perf_limit)},
        {"perf-size", offsetof(tl_grading, perf_size)},
        {"uid", offsetof(tl_grading, sandbox.uid)},
        {"gpu", offsetof(tl_grading, sandbox.gpu)},
    };
    char *base = (char *)g;
    for (size_t i = 0; i < sizeof strings / sizeof *strings; i++)
        if (!strcmp(name, strings[i].name)) {
            *(const char **)(base + strings[i].at) = value;
            return 0;
        }
    for (size_t i = 0; i < sizeof numbers / sizeof *numbers; i++)
        if (!strcmp(name, numbers[i].name)) {
            *(long *)(base + numbers[i].at) = atol(value);
            return 0;
        }
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++)
        if (!strcmp(name, counts[i].name)) {
            *(int *)(base + counts[i].at) = atoi(value);
            return 0;
        }
    if (!strcmp(name, "measured") && g->n_measured < TL_GRADING_LIST) {
        g->measured[g->n_measured++] = value;
        return 0;
    }
    if (!strcmp(name, "cache-sim") && g->n_cache_sim < TL_GRADING_LIST) {
        g->cache_sim[g->n_cache_sim++] = value;
        return 0;
    }
    return -1;
}

int tl_grading_read(const char *path, const char *outcomes, const char *records, tl_grading *g)
{
    size_t len;
    *g = (tl_grading){.outcomes = outcomes, .records = records};
    g->text = read_whole(path, &len);
    if (!g->text) {
        fprintf(stderr, "grade-lab: the grading %s cannot be read (grade.sh writes it)\n", path);
        return -1;
    }
    for (size_t at = 0; at < len;) {
        const char *name = g->text + at, *value = name + strlen(name) + 1;
        if (value >= g->text + len || take(g, name, value)) {
            fprintf(stderr, "grade-lab: %s: '%s' is not a name of a grading (grade_grading.h)\n", path, name);
            return -1;
        }
        at = (size_t)(value + strlen(value) + 1 - g->text);
    }
    if (tl_sandbox_environment(&g->sandbox)) {
        fprintf(stderr, "grade-lab: TOOLS and PREBUILT must be set\n");
        return -1;
    }
    const char *needed[] = {g->name, g->gpu_backend, g->labs, g->manifests, g->alone_lock, g->sandbox.root,
                            g->sandbox.out, g->sandbox.work, g->sandbox.kind};
    for (size_t i = 0; i < sizeof needed / sizeof *needed; i++)
        if (!needed[i]) {
            fprintf(stderr, "grade-lab: %s lacks a name a grading has (grade_grading.h)\n", path);
            return -1;
        }
    if (!g->sandbox.namespaces)
        g->sandbox.namespaces = "none";
    snprintf(g->outputs, sizeof g->outputs, "%s/outputs", g->sandbox.work);
    return 0;
}

void tl_grading_log(const tl_grading *g, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "grade: %s: ", g->name);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}
