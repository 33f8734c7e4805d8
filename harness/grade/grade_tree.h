/*
 * A folder and all it holds, walked without following a link: a hand-in's
 * build may hold one to anything (grade_setpriv.c gives its files to users,
 * grade_quota.c counts them, both remove them).
 */
#ifndef TILELAB_GRADE_TREE_H
#define TILELAB_GRADE_TREE_H

#include <sys/stat.h>

/* Calls visit on path and on all it holds, each folder before what it holds, or, with
 * last, after: 0, or the first non-zero visit returned, or -1 where path or a folder
 * in it cannot be read. */
typedef int (*tl_visitor)(const char *path, const struct stat *st, void *arg);
int tl_tree_walk(const char *path, tl_visitor visit, void *arg, int last);

/* Removes path and all it holds: 0 (path missing too), or -1. */
int tl_remove_tree(const char *path);

#endif
