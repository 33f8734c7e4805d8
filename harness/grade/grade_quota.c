/* The hand-in's builds and measurements on disk, against the grading's limit: grade_lab.h. */
#define _GNU_SOURCE
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "grade_lab.h"
#include "grade_tree.h"

/* What du -sb counts: every file's and folder's own size, a file of several links once. */
typedef struct {
    long long bytes;
    struct stat *linked; /* the files of several links counted so far */
    size_t n, cap;
} usage;

static int count_one(const char *path, const struct stat *st, void *arg)
{
    usage *u = arg;
    (void)path;
    if (!S_ISDIR(st->st_mode) && st->st_nlink > 1) {
        for (size_t i = 0; i < u->n; i++)
            if (u->linked[i].st_dev == st->st_dev && u->linked[i].st_ino == st->st_ino)
                return 0;
        if (u->n == u->cap) {
            u->cap = u->cap ? 2 * u->cap : 64;
            struct stat *more = realloc(u->linked, u->cap * sizeof *more);
            if (!more)
                return -1;
            u->linked = more;
        }
        u->linked[u->n++] = *st;
    }
    u->bytes += st->st_size;
    return 0;
}

char *tl_over_quota(const tl_grading *g, const char *dir)
{
    char build[PATH_MAX], perf[PATH_MAX];
    snprintf(build, sizeof build, "%s/build", g->sandbox.work);
    snprintf(perf, sizeof perf, "%s/perf", g->sandbox.work);
    usage u = {0};
    tl_tree_walk(build, count_one, &u, 0);
    tl_tree_walk(perf, count_one, &u, 0);
    free(u.linked);
    if (u.bytes <= g->disk_limit)
        return NULL;
    char *why;
    if (asprintf(&why,
                 "your code's build and runs wrote %lld MiB to disk, more than the %ld MiB the grader allows one "
                 "hand-in's builds and measurements together (and %ld MiB for any one file): nothing of it was "
                 "kept. A large array initialized in the file (a static or __device__ one) is the usual cause.",
                 u.bytes >> 20, g->disk_limit >> 20, g->file_limit >> 20) < 0)
        why = NULL;
    tl_remove_tree(build);
    if (dir)
        tl_remove_tree(dir);
    mkdir(build, 0777);
    return why;
}
