/*
 * grade-unpack of a hand-in that is a folder (a copy of the kit): each lab
 * file taken as from an archive (grade_unpack.c), a regular file of a sane
 * size at the path the kit gives it. Every folder on its path and the file
 * itself are opened without following a link (a link could name a
 * classmate's file, or the kit's solutions), and the file is judged by what
 * was opened, not by a name looked at before: what is taken is what was
 * judged.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grade_unpack.h"

/* The part of path up to and including its k-th name, for a note. */
static const char *leading(const char *path, int k, char *buf, size_t len)
{
    snprintf(buf, len, "%s", path);
    char *p = buf;
    for (int i = 0; i <= k && p; i++)
        p = strchr(p + (i > 0), '/');
    if (p)
        *p = '\0';
    return buf;
}

/*
 * path (labs/DIR/FILE) opened under the folder's fd, each name without a link:
 * its fd, or -1 with *said set when a note is due, or -1 with *said empty when
 * the file is not there (a name missing, or a folder on the path is none).
 */
static int open_in(int folder, const char *path, char *said, size_t said_len)
{
    char names[4096], shown[4096];
    snprintf(names, sizeof names, "%s", path);
    said[0] = '\0';
    int at = dup(folder), k = 0;
    for (char *name = names, *next; at >= 0 && name; name = next, k++) {
        next = strchr(name, '/');
        if (next)
            *next++ = '\0';
        int fd = openat(at, name, (next ? O_DIRECTORY : O_NONBLOCK) | O_RDONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
        int why = errno;
        struct stat st;
        if (fd < 0 && fstatat(at, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
            snprintf(said, said_len, "%s is a symbolic link: links in a hand-in are not followed",
                     leading(path, k, shown, sizeof shown));
        else if (fd < 0 && why != ENOENT && why != ENOTDIR)
            snprintf(said, said_len, "%s cannot be read (%s): ignored", leading(path, k, shown, sizeof shown),
                     strerror(why));
        close(at);
        at = fd;
        if (!next)
            return fd;
    }
    return -1;
}

/* The folder's regular files, by their names under it, for the listing (nftw has no argument). */
static char **found;
static size_t n_found, room;
static size_t folder_len;

static int note_file(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)ftw;
    if (type != FTW_F || !S_ISREG(st->st_mode) || strlen(path) <= folder_len)
        return 0;
    if (n_found == room) {
        room = room ? 2 * room : 64;
        char **grown = realloc(found, room * sizeof *found);
        if (!grown)
            return -1;
        found = grown;
    }
    return (found[n_found] = strdup(path + folder_len + 1)) ? (n_found++, 0) : -1;
}

static int by_bytes(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The listing: the folder's regular files, one a line, in byte order, as an archive's are listed. */
static int write_listing(const char *folder, const char *listing)
{
    FILE *list = fopen(listing, "w");
    if (!list)
        return fail(listing);
    folder_len = strlen(folder);
    while (folder_len > 1 && folder[folder_len - 1] == '/')
        folder_len--;
    if (nftw(folder, note_file, 32, FTW_PHYS) == -1 && errno == ENOMEM)
        return fail("out of memory");
    qsort(found, n_found, sizeof *found, by_bytes);
    for (size_t i = 0; i < n_found; i++)
        list_name(list, found[i]), free(found[i]);
    free(found);
    return fclose(list) == 0 ? 0 : fail(listing);
}

int unpack_folder(const char *folder, const char *dest, const char *listing, unsigned long long file_limit,
                  char **paths, int n)
{
    int dir = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir < 0)
        return fail(folder);
    for (int p = 0; p < n; p++) {
        const char *path = paths[p];
        char why[4096];
        struct stat st;
        int in = open_in(dir, path, why, sizeof why);
        if (in >= 0 && fstat(in, &st) == 0) {
            if (!S_ISREG(st.st_mode))
                snprintf(why, sizeof why, "%s is not a regular file: ignored", path);
            else if ((unsigned long long)st.st_size > file_limit)
                snprintf(why, sizeof why, "%s is larger than %llu bytes: ignored", path, file_limit);
        }
        if (in >= 0 && !why[0]) {
            char to[8192], buf[65536];
            snprintf(to, sizeof to, "%s/%s", dest, path);
            FILE *out = make_folders(to) == 0 ? fopen(to, "wb") : NULL;
            if (!out)
                return fail(to);
            /* at most file_limit bytes, should the file grow while it is read */
            unsigned long long left = file_limit;
            ssize_t got;
            while (left && (got = read(in, buf, left < sizeof buf ? (size_t)left : sizeof buf)) > 0) {
                if (fwrite(buf, 1, (size_t)got, out) != (size_t)got)
                    return fail(to);
                left -= (unsigned long long)got;
            }
            if (fclose(out) != 0)
                return fail(to);
        }
        if (in >= 0)
            close(in);
        if (why[0])
            say("note", why);
    }
    close(dir);
    return write_listing(folder, listing);
}
