/*
 * grade-private TMP [--show PATH]... [--write PATH]... -- COMMAND...
 *
 * The setpriv sandbox's view of the machine (harness/grade/setpriv.sh),
 * where bubblewrap cannot run: run as root, as the first process of the
 * namespaces the grader makes for one command (unshare: mount, PID, IPC,
 * network), before setpriv makes it the hand-in's user. In a mount
 * namespace of its own, it makes
 *   - every mount read-only: the hand-in's user owns nothing, so what it
 *     could write is what every user may (/var/tmp, /run/lock, a home or a
 *     folder left world-writable), and what one command wrote there the
 *     next read: a lab kept the held-back shapes and seed of one grading
 *     in /var/tmp and printed them in the next;
 *   - TMP, the command's own folder (the hand-in's user's), its /tmp, with
 *     each PATH under /tmp that the command needs (the kit, the grader's
 *     build, this hand-in's folder: --show, read-only; --write, writable)
 *     bound back at its place inside it: a private /tmp over the machine's
 *     once hid a GRADE_DIR under /tmp, and every hand-in failed its build;
 *   - an empty /dev/shm of its own (Criterion names its shared memory by
 *     its pid, which a PID namespace gives every command alike);
 *   - each --write PATH writable, wherever it is.
 * Then it runs COMMAND and waits for it, reaping whatever else ends in the
 * namespace (its first process: the kernel gives it every orphan), and
 * exits as COMMAND did (128 + N for a signal N). The IPC namespace holds
 * the message queues and shared memory of the command alone; the network
 * namespace, its sockets.
 *
 * Exit status: COMMAND's; 126 where the view could not be made (why, on
 * stderr); 2 for usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_PATHS 64

static int fail(const char *what, const char *path)
{
    fprintf(stderr, "grade-private: %s %s: %s\n", what, path, strerror(errno));
    return -1;
}

/* The flags a remount of path keeps (those statvfs reports), read-only or not. */
static unsigned long kept_flags(const char *path, int read_only)
{
    struct statvfs st;
    unsigned long flags = MS_REMOUNT | MS_BIND | (read_only ? MS_RDONLY : 0);
    if (statvfs(path, &st) != 0)
        return flags;
    static const struct { unsigned long st, ms; } map[] = {
        {ST_NOSUID, MS_NOSUID}, {ST_NODEV, MS_NODEV},         {ST_NOEXEC, MS_NOEXEC},
        {ST_NOATIME, MS_NOATIME}, {ST_NODIRATIME, MS_NODIRATIME}, {ST_RELATIME, MS_RELATIME},
    };
    for (size_t i = 0; i < sizeof map / sizeof *map; i++)
        if (st.f_flag & map[i].st)
            flags |= map[i].ms;
    return flags;
}

/* mountinfo's escapes (\040 for a space, ...) undone, in place. */
static void unescape(char *s)
{
    char *out = s;
    for (char *p = s; *p; p++)
        if (p[0] == '\\' && p[1] >= '0' && p[1] <= '3' && p[2] >= '0' && p[2] <= '7' && p[3] >= '0' && p[3] <= '7') {
            *out++ = (char)((p[1] - '0') * 64 + (p[2] - '0') * 8 + (p[3] - '0'));
            p += 3;
        } else {
            *out++ = *p;
        }
    *out = '\0';
}

/* Every mount of this namespace read-only. One that is no mount point here (a mount
 * under the /proc the PID namespace's hides) is out of reach already. */
static int all_read_only(void)
{
    FILE *f = fopen("/proc/self/mountinfo", "r");
    char line[8192];
    if (!f)
        return fail("cannot read", "/proc/self/mountinfo");
    while (fgets(line, sizeof line, f)) {
        char *save = NULL, *field = strtok_r(line, " ", &save);
        for (int i = 1; field && i < 5; i++)
            field = strtok_r(NULL, " ", &save); /* the fifth: the mount point */
        if (!field)
            continue;
        unescape(field);
        if (mount(NULL, field, NULL, kept_flags(field, 1), NULL) != 0 && errno != EINVAL && errno != ENOENT) {
            fclose(f);
            return fail("cannot make read-only", field);
        }
    }
    fclose(f);
    return 0;
}

/* path under /tmp: its part after "/tmp/", else NULL */
static const char *under_tmp(const char *path)
{
    return !strncmp(path, "/tmp/", 5) && path[5] ? path + 5 : NULL;
}

static int make_dirs(const char *path)
{
    char p[2 * PATH_MAX];
    snprintf(p, sizeof p, "%s", path);
    for (char *s = p + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            if (mkdir(p, 0755) != 0 && errno != EEXIST)
                return fail("cannot make", p);
            *s = '/';
        }
    return mkdir(p, 0755) != 0 && errno != EEXIST ? fail("cannot make", p) : 0;
}

/* Where path is bound in the command's view (in at): under the private folder for one under
 * /tmp. 0, or -1 where the name is too long. */
static int place_of(const char *tmp, const char *path, char *at, size_t len)
{
    const char *rel = under_tmp(path);
    int n = rel ? snprintf(at, len, "%s/%s", tmp, rel) : snprintf(at, len, "%s", path);
    errno = ENAMETOOLONG;
    return n < 0 || (size_t)n >= len ? fail("cannot show", path) : 0;
}

int main(int argc, char **argv)
{
    /* paths[k]: shown (read-only) for k < n_show, then written; all by their physical names */
    static char paths[MAX_PATHS][PATH_MAX], tmp[PATH_MAX];
    int n_show = 0, n = 0, i = 2, usage = argc < 2 || !realpath(argv[1], tmp);
    for (; !usage && i + 1 < argc && strcmp(argv[i], "--"); i += 2) {
        int shown = !strcmp(argv[i], "--show");
        if ((!shown && strcmp(argv[i], "--write")) || n == MAX_PATHS || (shown && n > n_show) ||
            !realpath(argv[i + 1], paths[n]))
            usage = 1;
        n++;
        n_show += shown;
    }
    if (usage || i + 1 >= argc || strcmp(argv[i], "--")) {
        fprintf(stderr, "usage: grade-private TMP [--show PATH]... [--write PATH]... -- COMMAND...\n"
                        "(each PATH an existing one, every --show before the first --write)\n");
        return 2;
    }
    char **command = argv + i + 1, at[2 * PATH_MAX];
    /* A mount namespace of its own first, whoever started it: nothing here reaches the machine's. */
    if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
        return fail("cannot make a mount namespace", "of its own"), 126;
    /* The places of what shows under /tmp, made in the private folder while it is writable. */
    for (int k = 0; k < n; k++) {
        if (place_of(tmp, paths[k], at, sizeof at) != 0 || (under_tmp(paths[k]) && make_dirs(at) != 0))
            return 126;
    }
    if (all_read_only() != 0)
        return 126;
    for (int k = 0; k < n; k++) {
        if (place_of(tmp, paths[k], at, sizeof at) != 0)
            return 126;
        if (k < n_show && !under_tmp(paths[k]))
            continue; /* where it is, read-only already */
        if (mount(paths[k], at, NULL, MS_BIND | MS_REC, NULL) != 0)
            return fail("cannot show", paths[k]), 126;
        if (k >= n_show && mount(NULL, at, NULL, kept_flags(at, 0), NULL) != 0)
            return fail("cannot make writable", paths[k]), 126;
    }
    if (mount(tmp, "/tmp", NULL, MS_BIND | MS_REC, NULL) != 0 ||
        mount(NULL, "/tmp", NULL, kept_flags("/tmp", 0), NULL) != 0)
        return fail("cannot make its /tmp of", tmp), 126;
    if (mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV, "mode=1777") != 0)
        return fail("cannot make", "/dev/shm"), 126;
    pid_t child = fork();
    if (child == 0) {
        execvp(command[0], command);
        fprintf(stderr, "grade-private: cannot run %s: %s\n", command[0], strerror(errno));
        _exit(127);
    }
    if (child < 0)
        return fail("cannot start", command[0]), 126;
    for (;;) {
        int status;
        pid_t done = wait(&status);
        if (done < 0 && errno == EINTR)
            continue;
        if (done < 0)
            return 126;
        if (done == child)
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
}
