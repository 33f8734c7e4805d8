/*
 * grade-misplaced: what a hand-in holds instead of its lab files, and the
 * likely slip, when no lab's file was where the grader looks (grade.sh's
 * nothing_gradable): one line for the student.
 *
 * usage: grade-misplaced FOLDER/FILE... < FOUND
 *
 * FOLDER/FILE: each lab's file as the kit names it under labs/
 * ("01-cpu-naive/transpose.c"), in the labs' order. FOUND: the hand-in's
 * files, one a line, as the hand-in names them, in the order to show them.
 *
 * The likeliest slip, over every file: a kit packed from the folder above
 * it (its lab files one folder too deep), then from inside labs/, then lab
 * files elsewhere; the files that show it are named first, three at most,
 * and how many more.
 *
 * Exit status: 0; 2 for usage.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHOWN 3

/* s ends with "/" followed by tail */
static int ends_with_dir(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n > t && s[n - t - 1] == '/' && !strcmp(s + n - t, tail);
}

/* How surely path is lab file dir/file misplaced: 3, packed from the folder above the
 * kit's (.../labs/dir/file); 2, from inside labs/ (dir/file); 1, elsewhere (.../dir/file,
 * file, .../file); 0, not it. */
static int rank(const char *path, const char *dir_file, const char *file)
{
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

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: grade-misplaced FOLDER/FILE... < FOUND\n");
        return 2;
    }
    char **found = NULL, *line = NULL;
    size_t n_found = 0, cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, stdin)) >= 0) {
        if (len && line[len - 1] == '\n')
            line[len - 1] = '\0';
        found = realloc(found, (n_found + 1) * sizeof *found);
        found[n_found++] = strdup(line);
    }
    free(line);
    int best = 0;
    const char *expected = argv[1];
    char *near = calloc(n_found + 1, 1); /* near[i]: found[i] shows the likeliest slip */
    for (int lab = 1; lab < argc; lab++) {
        const char *slash = strrchr(argv[lab], '/'), *file = slash ? slash + 1 : argv[lab];
        for (size_t i = 0; i < n_found; i++) {
            int r = rank(found[i], argv[lab], file);
            if (!r || r < best)
                continue;
            if (r > best) {
                best = r;
                expected = argv[lab];
                memset(near, 0, n_found);
            }
            near[i] = 1;
        }
    }
    static const char *const hints[] = {
        " -- run make handin from the kit's folder",
        " -- run make handin from the kit's folder: it packs each lab's file as labs/NN-name/FILE",
        " -- packed from inside labs/? run make handin from the kit's folder",
        " -- packed from the folder above the kit's? its lab files are one folder too deep: run make handin from "
        "the kit's folder",
    };
    /* the files that show the slip first, then the others, three at most */
    size_t shown[SHOWN], n_shown = 0, n_near = 0;
    for (size_t i = 0; i < n_found; i++)
        if (near[i] && n_near++ < SHOWN)
            shown[n_shown++] = i;
    for (size_t i = 0; i < n_found && n_shown < SHOWN; i++)
        if (!near[i])
            shown[n_shown++] = i;
    printf("found ");
    if (!n_found)
        printf("no file");
    for (size_t k = 0; k < n_shown; k++)
        printf("%s%s", k ? ", " : "", found[shown[k]]);
    if (n_found > n_shown)
        printf(" and %zu more", n_found - n_shown);
    printf(", expected labs/%s%s%s\n", expected, argc > 2 ? " (labs/NN-name/FILE for each lab)" : "", hints[best]);
    for (size_t i = 0; i < n_found; i++)
        free(found[i]);
    free(found);
    free(near);
    return 0;
}
