/* One timing on the GPU at a time: see timing_lock.h. */
#define _GNU_SOURCE
#include "timing_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>

static int lock_fd = -1;

/* flock, again after a signal. */
static int hold(int how)
{
    int rc;
    while ((rc = flock(lock_fd, how)) != 0 && errno == EINTR)
        ;
    return rc;
}

int tl_timing_lock_take(int fd, char *why, size_t why_len)
{
    lock_fd = fd;
    if (fcntl(fd, F_SETFD, FD_CLOEXEC) != 0 || prctl(PR_SET_DUMPABLE, 0) != 0 || hold(LOCK_SH) != 0) {
        snprintf(why, why_len, "the GPU timing lock (descriptor %d): %s", fd, strerror(errno));
        lock_fd = -1;
        return -1;
    }
    return 0;
}

void tl_timing_alone(int on)
{
    /* Linux converts a flock by letting go first: two benches that both
     * share and both want to time alone do not wait on each other. */
    if (lock_fd >= 0)
        hold(on ? LOCK_EX : LOCK_SH);
}
