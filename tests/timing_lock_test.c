/* The GPU timing lock the grader's benches share (timing_lock.h): shared while a
 * bench starts and checks, alone while it times, closed to what it starts. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include "timing_lock.h"

/* Whether another holder could take the lock now: 'S'hared, e'X'clusive, or '-'. */
static char could_take(const char *path)
{
    int fd = open(path, O_RDONLY);
    char got = '-';
    if (flock(fd, LOCK_EX | LOCK_NB) == 0)
        got = 'X';
    else if (flock(fd, LOCK_SH | LOCK_NB) == 0)
        got = 'S';
    close(fd);
    return got;
}

Test(timing_lock, shared_while_it_prepares_alone_while_it_times)
{
    char path[] = "/tmp/tl-timing-lock-XXXXXX";
    int fd = mkstemp(path), step[2], done[2];
    cr_assert(fd >= 0 && pipe(step) == 0 && pipe(done) == 0);
    pid_t bench = fork();
    if (bench == 0) { /* a bench: takes it shared, then times alone, then shares again */
        char why[256], c;
        if (tl_timing_lock_take(fd, why, sizeof why) != 0)
            _exit(2);
        int closed = (fcntl(fd, F_GETFD) & FD_CLOEXEC) != 0;
        for (int on = 1; on >= 0; on--) {
            if (write(done[1], "x", 1) != 1 || read(step[0], &c, 1) != 1)
                _exit(3);
            tl_timing_alone(on);
        }
        if (write(done[1], "x", 1) != 1 || read(step[0], &c, 1) != 1)
            _exit(3);
        _exit(closed ? 0 : 4);
    }
    char c, seen[4] = "";
    for (int i = 0; i < 3; i++) {
        cr_assert(read(done[0], &c, 1) == 1);
        seen[i] = could_take(path);
        cr_assert(write(step[1], "x", 1) == 1);
    }
    int status;
    waitpid(bench, &status, 0);
    unlink(path);
    cr_assert(seen[0] == 'S', "while the bench prepares, another may share the lock (got '%c')", seen[0]);
    cr_assert(seen[1] == '-', "while the bench times, no one else may hold the lock (got '%c')", seen[1]);
    cr_assert(seen[2] == 'S', "once it timed, another may share the lock again (got '%c')", seen[2]);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
              "the bench's descriptor stays open across exec() (status %d): a student's lab process would hold it",
              status);
}

Test(timing_lock, no_descriptor_no_lock)
{
    tl_timing_alone(1); /* a student's make labN bench: nothing to wait for */
    tl_timing_alone(0);
}
