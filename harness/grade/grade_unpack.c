/*
 * grade-unpack: takes the lab files out of a hand-in archive (a .tar.gz or
 * .tar from `make handin`), and only them: each as a regular file of a sane
 * size, at the path the kit gives it, never a link, nothing else of the
 * archive, nothing outside the folder. The archive is read whole, its
 * headers checked, before anything is taken; a gzip'd one through gzip.
 * A hand-in that is a folder (a copy of the kit) is read the same way, by
 * grade_unpack_folder.c.
 *
 * usage: grade-unpack ARCHIVE|FOLDER DEST LISTING GZIP_ERRORS FILE_LIMIT ARCHIVE_LIMIT PATH...
 *
 * PATH: each lab's file as the kit names it ("labs/01-cpu-naive/transpose.c"),
 * in the labs' order; a member of that name, or ./ and that name, is written
 * to DEST/PATH, its first FILE_LIMIT bytes. LISTING: written with the
 * archive's regular files, one a line, as tar -t --quoting-style=escape names
 * them less a leading ./ (grade-misplaced's input); a folder's regular files
 * likewise, in byte order. GZIP_ERRORS: what gzip said (unused for a folder).
 *
 * Prints what became of the hand-in, a line each, tab-separated, for the
 * grader's outcomes (grade.sh):
 *   note TEXT      a lab file not taken (in a folder: a link on its path, no
 *                  regular file, too large; a file that is not there is no note)
 *   damaged TEXT   the archive cut off or corrupt: nothing graded
 *   empty TEXT     not a tar archive, or one refused whole (it unpacks past ARCHIVE_LIMIT):
 *                  nothing gradable, and TEXT says why (a note, once, left the status to say
 *                  "found no file ... run make handin" of an archive that held the lab's file)
 *
 * Exit status: 0; 1 when it could not do its work (gzip would not start, DEST
 * could not be written); 2 for usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "grade_unpack.h"

#define BLOCK 512
#define ASK "ask for a new upload of the file make handin writes"

const char *program = "grade-unpack";

void say(const char *kind, const char *text)
{
    printf("%s\t%s\n", kind, text);
}

int fail(const char *what)
{
    fprintf(stderr, "%s: %s: %s\n", program, what, strerror(errno));
    return 1;
}

/* The whole archive, at most limit + 1 bytes: gzip -dc's output (its errors in
 * gzip_errors), or the file itself. NULL on a failure of the machine's. */
static unsigned char *read_archive(const char *path, int gzipped, const char *gzip_errors, size_t limit,
                                   size_t *len)
{
    int in = open(path, O_RDONLY), from = in, out[2] = {-1, -1};
    pid_t gzip = -1;
    unsigned char *buf = malloc(limit + 1);
    if (in < 0 || !buf)
        goto broken;
    if (gzipped) {
        int errors = open(gzip_errors, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (errors < 0 || pipe(out) != 0 || (gzip = fork()) < 0)
            goto broken;
        if (gzip == 0) {
            dup2(in, 0), dup2(out[1], 1), dup2(errors, 2);
            close(out[0]), close(out[1]); /* gzip alone holds the pipe: past the limit it ends */
            execlp("gzip", "gzip", "-dc", (char *)NULL);
            _exit(127);
        }
        close(errors), close(out[1]);
        from = out[0];
    }
    *len = 0;
    for (ssize_t got; *len <= limit && (got = read(from, buf + *len, limit + 1 - *len)) != 0;) {
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0)
            goto broken;
        *len += (size_t)got;
    }
    if (gzipped) {
        close(out[0]); /* past the limit gzip ends on SIGPIPE, as behind `head -c` */
        waitpid(gzip, NULL, 0);
    }
    close(in);
    return buf;
broken:
    fail(path);
    free(buf);
    return NULL;
}

/* A header's octal or base-256 number of width w. */
static unsigned long long number(const unsigned char *p, int w)
{
    unsigned long long v = 0;
    if (p[0] & 0x80) {
        for (int i = 1; i < w; i++)
            v = v << 8 | p[i];
        return v;
    }
    for (int i = 0; i < w && p[i] == ' '; i++)
        p++, w--;
    for (int i = 0; i < w && p[i] >= '0' && p[i] <= '7'; i++)
        v = v * 8 + (unsigned)(p[i] - '0');
    return v;
}

/* The header's checksum holds, as tar reads it: its bytes summed, unsigned or signed, with
 * the checksum's own field as spaces. */
static int checksum_holds(const unsigned char *h)
{
    unsigned long long want = number(h + 148, 8);
    long long sum_unsigned = 0, sum_signed = 0;
    for (int i = 0; i < BLOCK; i++) {
        int c = i >= 148 && i < 156 ? ' ' : h[i];
        sum_unsigned += c;
        sum_signed += i >= 148 && i < 156 ? ' ' : (signed char)h[i];
    }
    return (long long)want == sum_unsigned || (long long)want == sum_signed;
}

static int all_zero(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return 0;
    return 1;
}

/* A pax record's value of key ("path", "size") in records of len bytes, copied into out. */
static int pax_value(const unsigned char *rec, size_t len, const char *key, char *out, size_t out_len)
{
    size_t klen = strlen(key);
    for (size_t at = 0; at < len;) {
        size_t n = 0, i = at;
        while (i < len && rec[i] >= '0' && rec[i] <= '9')
            n = n * 10 + (size_t)(rec[i++] - '0');
        if (!n || at + n > len || i >= len || rec[i] != ' ')
            return 0;
        const unsigned char *kv = rec + i + 1;
        size_t kv_len = at + n - (i + 1);
        if (kv_len > klen + 1 && !memcmp(kv, key, klen) && kv[klen] == '=') {
            size_t v = kv_len - klen - 2; /* less the newline */
            if (v >= out_len)
                v = out_len - 1;
            memcpy(out, kv + klen + 1, v);
            out[v] = '\0';
            return 1;
        }
        at += n;
    }
    return 0;
}

/* One member: its name, its type as tar -tv shows it ('-' a regular file), its size and data. */
typedef struct {
    char name[4096];
    char type;
    unsigned long long size;
    const unsigned char *data;
} member;

void list_name(FILE *f, const char *name)
{
    if (!strncmp(name, "./", 2))
        name += 2;
    for (const unsigned char *p = (const unsigned char *)name; *p; p++) {
        if (*p == '\\')
            fputs("\\\\", f);
        else if (*p == '\n')
            fputs("\\n", f);
        else if (*p == '\t')
            fputs("\\t", f);
        else if (*p < 0x20 || *p >= 0x7f)
            fprintf(f, "\\%03o", *p);
        else
            fputc(*p, f);
    }
    fputc('\n', f);
}

/*
 * Reads the archive's members into *m (*count of them, grown as they come), as
 * tar -t does: 0; -1 when it is no tar archive; -2 when it ends inside a
 * member's data (tar's "Unexpected EOF"); -3 out of memory. A header cut off
 * after the first ends it quietly, as in tar.
 */
static int read_members(const unsigned char *a, size_t len, member **m, int *count)
{
    int room = 0;
    char long_name[4096] = "", pax_path[4096] = "", pax_size[32] = "";
    *count = 0;
    for (size_t at = 0;;) {
        if (at + BLOCK > len)
            return at == 0 ? -1 : 0;
        const unsigned char *h = a + at;
        if (all_zero(h, BLOCK))
            return 0;
        if (!checksum_holds(h))
            return -1;
        unsigned long long size = number(h + 124, 12);
        char flag = (char)h[156];
        if (pax_size[0] && flag != 'x' && flag != 'g' && flag != 'L' && flag != 'K')
            size = strtoull(pax_size, NULL, 10);
        size_t blocks = (size_t)((size + BLOCK - 1) / BLOCK) * BLOCK;
        if (size > len || at + BLOCK + blocks > len)
            return -2;
        const unsigned char *data = h + BLOCK;
        if (flag == 'L') {
            size_t n = size < sizeof long_name ? (size_t)size : sizeof long_name - 1;
            memcpy(long_name, data, n);
            long_name[n] = '\0';
        } else if (flag == 'x') {
            pax_value(data, (size_t)size, "path", pax_path, sizeof pax_path);
            pax_value(data, (size_t)size, "size", pax_size, sizeof pax_size);
        } else if (flag != 'g' && flag != 'K') {
            if (*count == room) {
                member *more = realloc(*m, (size_t)(room = room ? 2 * room : 64) * sizeof **m);
                if (!more)
                    return -3;
                *m = more;
            }
            {
                member *e = &(*m)[(*count)++];
                if (pax_path[0])
                    snprintf(e->name, sizeof e->name, "%s", pax_path);
                else if (long_name[0])
                    snprintf(e->name, sizeof e->name, "%s", long_name);
                else if (!memcmp(h + 257, "ustar", 5) && h[345])
                    snprintf(e->name, sizeof e->name, "%.155s/%.100s", (const char *)h + 345, (const char *)h);
                else
                    snprintf(e->name, sizeof e->name, "%.100s", (const char *)h);
                e->type = flag == '0' || flag == '\0' ? '-' : flag == '1' ? 'h' : flag == '2' ? 'l'
                          : flag == '5' ? 'd' : flag == '7' ? 'C' : '?';
                e->size = size;
                e->data = data;
            }
            long_name[0] = pax_path[0] = pax_size[0] = '\0';
        }
        at += BLOCK + blocks;
    }
}

int make_folders(char *path)
{
    for (char *slash = strchr(path + 1, '/'); slash; slash = strchr(slash + 1, '/')) {
        *slash = '\0';
        int rc = mkdir(path, 0755);
        *slash = '/';
        if (rc != 0 && errno != EEXIST)
            return -1;
    }
    return 0;
}

/* gzip's errors: 0, or a line for the student in why. A warning is no error. */
static int gzip_said(const char *gzip_errors, char *why, size_t why_len)
{
    char said[4096] = "", line[1024];
    FILE *f = fopen(gzip_errors, "r");
    int error = 0;
    if (!f)
        return 0;
    size_t n = fread(said, 1, sizeof said - 1, f);
    said[n] = '\0';
    rewind(f);
    while (fgets(line, sizeof line, f))
        error |= !strstr(line, "trailing garbage ignored");
    fclose(f);
    if (strstr(said, "unexpected end of file")) {
        snprintf(why, why_len, "cut off (gzip: unexpected end of file): the upload stopped short; " ASK);
        return -1;
    }
    if (!error)
        return 0;
    said[n < 200 ? n : 200] = '\0';
    for (char *p = said; *p; p++)
        if (*p == '\n')
            *p = ' ';
    for (size_t end = strlen(said); end && said[end - 1] == ' ';)
        said[--end] = '\0';
    snprintf(why, why_len, "damaged: gzip cannot read the archive (%s): " ASK, said);
    return -1;
}

int main(int argc, char **argv)
{
    if (argc < 7) {
        fprintf(stderr, "usage: %s ARCHIVE DEST LISTING GZIP_ERRORS FILE_LIMIT ARCHIVE_LIMIT PATH...\n",
                program);
        return 2;
    }
    const char *archive = argv[1], *dest = argv[2], *listing = argv[3], *gzip_errors = argv[4];
    unsigned long long file_limit = strtoull(argv[5], NULL, 10), limit = strtoull(argv[6], NULL, 10);
    struct stat st;
    if (stat(archive, &st) == 0 && S_ISDIR(st.st_mode))
        return unpack_folder(archive, dest, listing, file_limit, argv + 7, argc - 7);
    unsigned char magic[2] = {0, 0};
    char why[1024];
    FILE *f = fopen(archive, "rb");
    if (!f)
        return fail(archive);
    size_t got_magic = fread(magic, 1, 2, f);
    fclose(f);
    int gzipped = got_magic == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
    size_t len;
    unsigned char *a = read_archive(archive, gzipped, gzip_errors, (size_t)limit, &len);
    if (!a)
        return 1;
    if (len > limit) {
        snprintf(why, sizeof why, "the hand-in unpacks to more than %llu bytes: nothing in it is graded", limit);
        say("empty", why);
        free(a);
        return 0;
    }
    if (gzipped && gzip_said(gzip_errors, why, sizeof why)) {
        say("damaged", why);
        free(a);
        return 0;
    }
    member *m = NULL;
    int count, read = read_members(a, len, &m, &count);
    if (read == -3)
        return fail("out of memory");
    FILE *list = fopen(listing, "w");
    if (!list)
        return fail(listing);
    for (int i = 0; read == 0 && i < count; i++)
        if (m[i].type == '-')
            list_name(list, m[i].name);
    fclose(list);
    if (read == -2) {
        say("damaged", "cut off (tar: Unexpected EOF in archive): the upload stopped short; " ASK);
    } else if (read == -1) {
        snprintf(why, sizeof why, "not a tar archive%s: make handin, run from the kit's folder, writes "
                 "build/handin.tar.gz; hand in that file",
                 !len ? " (it is empty)" : got_magic == 2 && magic[0] == 'P' && magic[1] == 'K'
                 ? " (it is a zip archive)" : "");
        say("empty", why);
    } else if (len % BLOCK || !all_zero(a + len - (len < 2 * BLOCK ? len : 2 * BLOCK), len < 2 * BLOCK ? len : 2 * BLOCK)) {
        /* every tar ends with two blocks of zeros: an archive cut inside a header lacks them */
        say("damaged", "cut off (the archive lacks the end every tar archive has): the upload stopped "
                       "short; " ASK);
    } else {
        for (int p = 7; p < argc; p++) {
            const char *path = argv[p];
            const member *it = NULL;
            int times = 0;
            for (int i = 0; i < count; i++)
                if (!strcmp(m[i].name, path) || (!strncmp(m[i].name, "./", 2) && !strcmp(m[i].name + 2, path)))
                    times++, it = &m[i];
            if (!times)
                continue;
            if (times > 1)
                snprintf(why, sizeof why, "%s is in the archive %d times: ignored", path, times);
            else if (it->type != '-')
                snprintf(why, sizeof why, "%s is not a regular file (a link?): ignored", path);
            else if (it->size > file_limit)
                snprintf(why, sizeof why, "%s is larger than %llu bytes: ignored", path, file_limit);
            else {
                char to[8192];
                snprintf(to, sizeof to, "%s/%s", dest, path);
                FILE *out = make_folders(to) == 0 ? fopen(to, "wb") : NULL;
                if (!out || fwrite(it->data, 1, (size_t)it->size, out) != it->size || fclose(out) != 0)
                    return fail(to);
                continue;
            }
            say("note", why);
        }
    }
    free(m);
    free(a);
    return 0;
}
