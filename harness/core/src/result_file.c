#define _GNU_SOURCE
#include "result_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

int tl_write_result_file(const char *path, const char *data, size_t len, int append)
{
    int fd = -1;
    if (append)
        fd = open(path, O_WRONLY | O_APPEND | O_CREAT, 0644);
    else if (unlink(path) == 0 || errno == ENOENT)
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
    FILE *f = fd >= 0 ? fdopen(fd, append ? "a" : "w") : NULL;
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
        perror(path);
        if (!f && fd >= 0)
            close(fd);
        return -1;
    }
    return 0;
}
