/* One command of the grader, in its sandbox and under its limits: grade_command.h. */
#define _GNU_SOURCE
#include "grade_command.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

static void add_number(tl_argv *a, const char *option, double value)
{
    char text[64];
    snprintf(text, sizeof text, "%.15g", value);
    tl_argv_add(a, option);
    tl_argv_add(a, text);
}

/* grade-run's command line for c, in its sandbox: 0, or -1 where the sandbox has none. */
static int command_line(const tl_grading *g, const tl_command *c, const char *private_tmp, tl_argv *a)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/grade-run", g->sandbox.tools);
    tl_argv_add(a, path);
    add_number(a, "--limit", c->limit);
    tl_argv_add(a, "--output");
    tl_argv_add(a, c->output);
    add_number(a, "--keep", (double)g->output_limit);
    tl_argv_add(a, "--records");
    tl_argv_add(a, g->records);
    for (size_t i = 0; i < c->options.n; i++)
        tl_argv_add(a, c->options.v[i]);
    if (strcmp(c->mode, "run"))
        add_number(a, "--fsize", (double)g->file_limit);
    if (strcmp(g->gpu_backend, "cuda"))
        add_number(a, "--memory", (double)g->memory_limit);
    tl_argv_add(a, "--");
    tl_sandbox sb = g->sandbox;
    sb.records = g->records;
    sb.private_tmp = private_tmp;
    if (tl_sandbox_argv(&sb, c->mode, c->dir, a))
        return -1;
    for (char *const *p = c->argv; *p; p++)
        tl_argv_add(a, *p);
    return 0;
}

/* Runs argv, its stdout read whole: that text (free it), or NULL. */
static char *output_of(char *const *argv)
{
    int out[2];
    if (pipe2(out, O_CLOEXEC)) {
        perror("grade-lab: pipe");
        return NULL;
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("grade-lab: fork");
        close(out[0]);
        close(out[1]);
        return NULL;
    }
    if (pid == 0) {
        dup2(out[1], 1);
        execv(argv[0], argv);
        fprintf(stderr, "grade-lab: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(out[1]);
    char *text = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&text, &len);
    char chunk[4096];
    for (ssize_t n; (n = read(out[0], chunk, sizeof chunk)) != 0;) {
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            break;
        fwrite(chunk, 1, (size_t)n, m);
    }
    close(out[0]);
    fclose(m);
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    return text;
}

char *tl_command_run(const tl_grading *g, const tl_command *c)
{
    char *private_tmp = NULL, *words = NULL;
    int setpriv = !strcmp(g->sandbox.kind, "setpriv");
    if (setpriv && !(private_tmp = tl_setpriv_prepare(g, c->mode, c->dir))) {
        tl_grading_log(g, "the setpriv sandbox could not be made");
        return strdup("fail\n");
    }
    tl_argv a = {0};
    if (command_line(g, c, private_tmp, &a)) {
        tl_grading_log(g, "grade-sandbox made no command line");
    } else {
        /* Every command holds the machine's lock shared: a test run again alone holds it alone. */
        int lock = c->alone ? -1 : open(g->alone_lock, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0666);
        while (lock >= 0 && flock(lock, LOCK_SH) && errno == EINTR)
            ;
        words = output_of(a.v);
        if (lock >= 0)
            close(lock);
    }
    tl_argv_free(&a);
    if (setpriv)
        tl_setpriv_cleanup(g, private_tmp);
    return words ? words : strdup("fail\n");
}
