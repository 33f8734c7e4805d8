/* The GPU timing lock the grader's benches share (timing_lock.h): shared while a
 * bench starts and checks, alone while it times, first to a bench that waits to
 * time, closed to what a bench starts. */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "timing_lock.h"

enum { SHARED = 0, GATE = 1 }; /* the bytes timing_lock.c locks */

/* Another bench's lock on BYTE of fd, without waiting: 0 when it got it. */
static int try_lock(int fd, int byte, short type)
{
    struct flock l = {.l_type = type, .l_whence = SEEK_SET, .l_start = byte, .l_len = 1};
    return fcntl(fd, F_OFD_SETLK, &l);
}

/* What another bench could take of BYTE now: 'X' alone, 'S' shared, '-' nothing. */
static char could_take(const char *path, int byte)
{
    int fd = open(path, O_RDWR);
    char got = try_lock(fd, byte, F_WRLCK) == 0 ? 'X' : try_lock(fd, byte, F_RDLCK) == 0 ? 'S' : '-';
    close(fd);
    return got;
}

/* One step of the two sides: a byte each way (no cr_assert in the forked bench). */
static void say(int fd)
{
    if (write(fd, "x", 1) != 1)
        _exit(5);
}
static void hear(int fd)
{
    char c;
    if (read(fd, &c, 1) != 1)
        _exit(5);
}

Test(timing_lock, shared_while_it_prepares_alone_while_it_times)
{
    char path[] = "/tmp/tl-timing-lock-XXXXXX";
    int fd = mkstemp(path), go[2], at[2];
    cr_assert(fd >= 0 && pipe(go) == 0 && pipe(at) == 0);
    int other = open(path, O_RDWR); /* another bench, preparing: it shares the lock */
    cr_assert(try_lock(other, SHARED, F_RDLCK) == 0);
    pid_t bench = fork();
    if (bench == 0) {
        char why[256];
        close(other); /* the other bench's, not this one's: its lock goes with its last descriptor */
        if (tl_timing_lock_take(fd, why, sizeof why) != 0)
            _exit(2);
        int closed = (fcntl(fd, F_GETFD) & FD_CLOEXEC) != 0;
        say(at[1]);
        hear(go[0]);
        tl_timing_alone(1); /* waits for the other bench to finish preparing */
        say(at[1]);
        hear(go[0]);
        tl_timing_alone(0);
        say(at[1]);
        hear(go[0]);
        _exit(closed ? 0 : 4);
    }
    hear(at[0]);
    cr_assert_eq(could_take(path, SHARED), 'S', "while a bench prepares, another may share the lock");
    say(go[1]);
    /* The bench waits to time: it holds the gate, so that a bench starting now waits behind it. */
    char gate = 'X';
    for (int i = 0; i < 200 && (gate = could_take(path, GATE)) == 'X'; i++)
        usleep(10000);
    cr_assert_eq(gate, '-', "a bench waiting to time keeps benches that start after it waiting");
    close(other); /* the other bench is done preparing */
    hear(at[0]);
    cr_assert_eq(could_take(path, SHARED), '-', "while a bench times, no one else may hold the lock");
    say(go[1]);
    hear(at[0]);
    cr_assert_eq(could_take(path, SHARED), 'S', "once it timed, another may share the lock again");
    cr_assert_eq(could_take(path, GATE), 'X', "once it timed, the gate is open");
    say(go[1]);
    int status;
    waitpid(bench, &status, 0);
    unlink(path);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
              "the bench's descriptor of the lock stays open across exec() (status %d): a student's lab "
              "process would hold it", status);
}

Test(timing_lock, no_descriptor_no_lock)
{
    tl_timing_alone(1); /* a student's make labN bench: nothing to wait for */
    tl_timing_alone(0);
}
