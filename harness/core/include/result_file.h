/*
 * A result file (a bench's or a profile's CSV) written whole, at the end of
 * a run that may have had a student's processes beside it: whatever lies
 * at the path is replaced, and a link there is not followed; or, appending,
 * the rows are added to the file as it is.
 */
#ifndef TILELAB_RESULT_FILE_H
#define TILELAB_RESULT_FILE_H

#include <stddef.h>

/* 0, or -1 after perror(path). */
int tl_write_result_file(const char *path, const char *data, size_t len, int append);

#endif
