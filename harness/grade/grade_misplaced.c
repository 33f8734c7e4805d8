/* What a hand-in holds instead of its lab files: grade_misplaced.h. */
#define _GNU_SOURCE
#include "grade_misplaced.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHOWN 3

/* What each rank of slip (rank, below) tells the student. */
static const char *const hints[] = {
    " -- run make handin from the kit's folder",
    " -- run make handin from the kit's folder: it packs each lab's file as labs/NN-name/FILE",
    " -- packed from inside labs/? run make handin from the kit's folder",
    " -- packed from the folder above the kit's? its lab files are one folder too deep: run make handin from "
    "the kit's folder",
};

char **tl_found_read(FILE *f, size_t *n)
{
    char **found = NULL, *line = NULL;
    size_t cap = 0;
    ssize_t len;
    *n = 0;
    while ((len = getline(&line, &cap, f)) >= 0) {
        if (len && line[len - 1] == '\n')
            line[len - 1] = '\0';
        found = realloc(found, (*n + 1) * sizeof *found);
        found[(*n)++] = strdup(line);
    }
    free(line);
    return found;
}

void tl_found_free(char **found, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(found[i]);
    free(found);
}

/* s ends with "/" followed by tail */
static int ends_with_dir(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n > t && s[n - t - 1] == '/' && !strcmp(s + n - t, tail);
}

static const char *base_name(const char *dir_file)
{
    const char *slash = strrchr(dir_file, '/');
    return slash ? slash + 1 : dir_file;
}

/* How surely path is lab file dir/file misplaced: 3, packed from the folder above the
 * kit's (.../labs/dir/file); 2, from inside labs/ (dir/file); 1, elsewhere (.../dir/file,
 * file, .../file); 0, not it. */
static int rank(const char *path, const char *dir_file)
{
    const char *file = base_name(dir_file);
    char labs[4096];
    snprintf(labs, sizeof labs, "labs/%s", dir_file);
    if (ends_with_dir(path, labs))
        return 3;
    if (!strcmp(path, dir_file))
        return 2;
    if (ends_with_dir(path, dir_file) || !strcmp(path, file) || ends_with_dir(path, file))
        return 1;
    return 0;
}

/* Writes "found " and the files of found to show, those near first (near[i]: found[i]
 * shows the slip), then the others where others is set, three at most, and how many more. */
static void list_found(FILE *m, char *const *found, size_t n_found, const char *near, int others)
{
    size_t shown[SHOWN], n_shown = 0, n_near = 0, n_listed = 0;
    for (size_t i = 0; i < n_found; i++)
        if (near[i] && n_near++ < SHOWN)
            shown[n_shown++] = i;
    for (size_t i = 0; i < n_found && others && n_shown < SHOWN; i++)
        if (!near[i])
            shown[n_shown++] = i;
    n_listed = others ? n_found : n_near;
    fprintf(m, "found ");
    if (!n_listed)
        fprintf(m, "no file");
    for (size_t k = 0; k < n_shown; k++)
        fprintf(m, "%s%s", k ? ", " : "", found[shown[k]]);
    if (n_listed > n_shown)
        fprintf(m, " and %zu more", n_listed - n_shown);
}

char *tl_misplaced(char *const *labs, int n_labs, char *const *found, size_t n_found)
{
    int best = 0;
    const char *expected = labs[0];
    char *near = calloc(n_found + 1, 1), *said = NULL;
    size_t len = 0;
    for (int lab = 0; lab < n_labs; lab++) {
        for (size_t i = 0; i < n_found; i++) {
            int r = rank(found[i], labs[lab]);
            if (!r || r < best)
                continue;
            if (r > best) {
                best = r;
                expected = labs[lab];
                memset(near, 0, n_found);
            }
            near[i] = 1;
        }
    }
    FILE *m = open_memstream(&said, &len);
    list_found(m, found, n_found, near, 1);
    fprintf(m, ", expected labs/%s%s%s", expected, n_labs > 1 ? " (labs/NN-name/FILE for each lab)" : "",
            hints[best]);
    fclose(m);
    free(near);
    return said;
}

/* path names a folder dir and ends with "/" file (or is dir/file) */
static int in_folder(const char *path, const char *dir, size_t dir_len, const char *file)
{
    if (!ends_with_dir(path, file))
        return 0;
    for (const char *p = path; (p = strstr(p, dir)); p++)
        if ((p == path || p[-1] == '/') && p[dir_len] == '/')
            return 1;
    return 0;
}

char *tl_misplaced_lab(const char *dir_file, char *const *found, size_t n_found)
{
    const char *file = base_name(dir_file);
    char dir[4096], kit[4096];
    snprintf(dir, sizeof dir, "%.*s", (int)(file - dir_file - (file > dir_file)), dir_file);
    snprintf(kit, sizeof kit, "labs/%s", dir_file);
    int best = 0;
    char *near = calloc(n_found + 1, 1), *said = NULL;
    size_t len = 0;
    for (size_t i = 0; i < n_found; i++)
        if (*dir && strcmp(found[i], kit) && in_folder(found[i], dir, strlen(dir), file)) {
            int r = rank(found[i], dir_file);
            near[i] = 1;
            best = r > best ? r : best;
        }
    if (best) {
        FILE *m = open_memstream(&said, &len);
        list_found(m, found, n_found, near, 0);
        fputs(hints[best], m);
        fclose(m);
    }
    free(near);
    return said;
}
