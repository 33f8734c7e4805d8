/*
 * The setpriv sandbox's modes by ownership (grade_command.h): where bubblewrap
 * cannot run and the grader is root, what the hand-in may write (build and
 * link: its build folder; perf: the measurement's folder too) is its user's,
 * the rest root's and closed to writes. Links are never followed: a hand-in's
 * build may hold one to anything.
 */
#define _GNU_SOURCE
#include "grade_command.h"
#include "grade_tree.h"

#include <errno.h>
#include <glob.h>
#include <grp.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct {
    uid_t uid;
    gid_t gid;
} owner;

static int own_one(const char *path, const struct stat *st, void *arg)
{
    const owner *o = arg;
    (void)st;
    return lchown(path, o->uid, o->gid);
}

/* chown -R uid:gid path (-1: that one kept), links themselves. */
static int own_tree(const char *path, uid_t uid, gid_t gid)
{
    owner o = {uid, gid};
    return tl_tree_walk(path, own_one, &o, 0);
}

static int close_one(const char *path, const struct stat *st, void *arg)
{
    (void)arg;
    return S_ISLNK(st->st_mode) ? 0 : chmod(path, st->st_mode & 07755);
}

/* chmod -R go-w path */
static int close_tree(const char *path)
{
    return tl_tree_walk(path, close_one, NULL, 0);
}

static int group_one(const char *path, const struct stat *st, void *arg)
{
    (void)arg;
    if (S_ISLNK(st->st_mode))
        return 0;
    mode_t mode = (st->st_mode & 07770) | S_IRGRP;
    if (S_ISDIR(st->st_mode) || (st->st_mode & 0111))
        mode |= S_IXGRP;
    return chmod(path, mode);
}

/* chmod -R g+rX,o-rwx path */
static int group_tree(const char *path)
{
    return tl_tree_walk(path, group_one, NULL, 0);
}

/* cp -r from to */
static int copy_tree(const char *from, const char *to)
{
    pid_t pid = fork();
    if (pid == 0) {
        execlp("cp", "cp", "-r", "--", from, to, (char *)NULL);
        _exit(127);
    }
    int status;
    return pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

char *tl_setpriv_prepare(const tl_grading *g, const char *mode, const char *dir)
{
    uid_t user = (uid_t)g->sandbox.uid;
    char build[PATH_MAX], perf[PATH_MAX], prebuilt[PATH_MAX];
    snprintf(build, sizeof build, "%s/build", g->sandbox.work);
    snprintf(perf, sizeof perf, "%s/perf", g->sandbox.work);
    snprintf(prebuilt, sizeof prebuilt, "%s/prebuilt", g->sandbox.work);
    if (own_tree(build, 0, user) || own_tree(perf, 0, user) || close_tree(build) || close_tree(perf)) {
        perror("grade-lab: the hand-in's folders, given to root");
        return NULL;
    }
    int writes_build = !strcmp(mode, "build") || !strcmp(mode, "link");
    if ((writes_build && own_tree(build, user, user)) || (!strcmp(mode, "perf") && own_tree(dir, user, user))) {
        perror("grade-lab: what the hand-in writes, given to its user");
        return NULL;
    }
    /* The compiled references, while this hand-in is linked: a copy its group alone reads. */
    tl_remove_tree(prebuilt);
    if (!strcmp(mode, "link") &&
        (copy_tree(g->sandbox.prebuilt, prebuilt) || own_tree(prebuilt, (uid_t)-1, user) || group_tree(prebuilt))) {
        fprintf(stderr, "grade-lab: the compiled references could not be copied for the hand-in's user\n");
        return NULL;
    }
    const char *tmp = getenv("TMPDIR");
    char *private_tmp;
    if (asprintf(&private_tmp, "%s/tmp.XXXXXXXXXX", tmp && *tmp ? tmp : "/tmp") < 0)
        return NULL;
    if (!mkdtemp(private_tmp) || chown(private_tmp, user, user)) {
        perror(private_tmp);
        free(private_tmp);
        return NULL;
    }
    return private_tmp;
}

/* Criterion's sockets in /tmp whose process is gone. Criterion names its socket by its
 * pid in /tmp, whatever TMPDIR says, and one killed at a limit leaves it behind: a later
 * test whose runner gets that pid cannot start ("Could not initialize the message
 * server: Address already in use"; seen in make check). Under bwrap each command has a
 * /tmp of its own; here all share it. */
static void criterion_sockets(void)
{
    glob_t g;
    if (glob("/tmp/criterion_*.sock", 0, NULL, &g) != 0)
        return;
    for (size_t i = 0; i < g.gl_pathc; i++) {
        const char *pid = g.gl_pathv[i] + strlen("/tmp/criterion_");
        size_t digits = strspn(pid, "0123456789");
        char proc[64];
        snprintf(proc, sizeof proc, "/proc/%.*s", (int)(digits < 20 ? digits : 20), pid);
        if (digits && !strcmp(pid + digits, ".sock") && access(proc, F_OK) != 0)
            unlink(g.gl_pathv[i]);
    }
    globfree(&g);
}

void tl_setpriv_cleanup(const tl_grading *g, char *private_tmp)
{
    uid_t user = (uid_t)g->sandbox.uid;
    pid_t pid = fork();
    if (pid == 0) {
        /* kill(-1) as the hand-in's user: every process of its, but this one */
        if (setgroups(0, NULL) == 0 && setgid(user) == 0 && setuid(user) == 0)
            kill(-1, SIGKILL);
        _exit(0);
    }
    int status;
    if (pid > 0)
        waitpid(pid, &status, 0);
    char prebuilt[PATH_MAX];
    snprintf(prebuilt, sizeof prebuilt, "%s/prebuilt", g->sandbox.work);
    if (private_tmp)
        tl_remove_tree(private_tmp);
    tl_remove_tree(prebuilt);
    free(private_tmp);
    criterion_sockets();
}
