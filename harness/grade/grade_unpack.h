/* grade-unpack's parts (grade_unpack.c: the archive and main; grade_unpack_folder.c: a folder). */
#ifndef TILELAB_GRADE_UNPACK_H
#define TILELAB_GRADE_UNPACK_H

#include <stdio.h>

extern const char *program;

/* A line of what became of the hand-in: KIND TAB TEXT (grade_unpack.c's header). */
void say(const char *kind, const char *text);

/* what could not be done, and errno's reason, on standard error: 1 (the exit status). */
int fail(const char *what);

/* The listing's form of a name: tar's escape quoting, less one leading ./ */
void list_name(FILE *f, const char *name);

/* mkdir -p of path's folder, under dest. */
int make_folders(char *path);

/* The lab files (paths, n of them) of the hand-in folder taken into dest, its regular
 * files written to listing: 0, or 1 when it could not do its work. */
int unpack_folder(const char *folder, const char *dest, const char *listing, unsigned long long file_limit,
                  char **paths, int n);

#endif
