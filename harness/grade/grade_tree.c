/* A folder and all it holds, walked without following a link: grade_tree.h. */
#define _GNU_SOURCE
#include "grade_tree.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tl_tree_walk(const char *path, tl_visitor visit, void *arg, int last)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return -1;
    int rc = last ? 0 : visit(path, &st, arg);
    if (!rc && S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        if (!d)
            return -1;
        for (struct dirent *e; !rc && (e = readdir(d));) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
                continue;
            char *inside;
            if (asprintf(&inside, "%s/%s", path, e->d_name) < 0)
                return closedir(d), -1;
            rc = tl_tree_walk(inside, visit, arg, last);
            free(inside);
        }
        closedir(d);
    }
    return rc ? rc : last ? visit(path, &st, arg) : 0;
}

static int remove_one(const char *path, const struct stat *st, void *arg)
{
    (void)st, (void)arg;
    return remove(path) && errno != ENOENT ? -1 : 0;
}

int tl_remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return errno == ENOENT ? 0 : -1;
    return tl_tree_walk(path, remove_one, NULL, 1);
}
