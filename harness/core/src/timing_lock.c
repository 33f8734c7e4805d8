/* One timing on the GPU at a time: see timing_lock.h. */
#define _GNU_SOURCE
#include "timing_lock.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>

/*
 * Two bytes of the file, each an open file description's lock: SHARED, held
 * shared by every bench that prepares and alone by one that times; and
 * GATE, which a bench that wants to time holds while it waits for the
 * others to finish what they prepare, so that no bench starting meanwhile
 * keeps it waiting for ever (a reader-writer lock that favours the
 * writer). A bench never waits for GATE while it holds SHARED: no two wait
 * on each other.
 */
enum { SHARED = 0, GATE = 1 };

static int lock_fd = -1;

static void set(int byte, short type)
{
    struct flock l = {.l_type = type, .l_whence = SEEK_SET, .l_start = byte, .l_len = 1};
    while (fcntl(lock_fd, F_OFD_SETLKW, &l) != 0 && errno == EINTR)
        ;
}

int tl_timing_lock_take(int fd, char *why, size_t why_len)
{
    struct flock probe = {.l_type = F_RDLCK, .l_whence = SEEK_SET, .l_start = SHARED, .l_len = 1};
    if (fcntl(fd, F_SETFD, FD_CLOEXEC) != 0 || prctl(PR_SET_DUMPABLE, 0) != 0 ||
        fcntl(fd, F_OFD_GETLK, &probe) != 0) {
        snprintf(why, why_len, "the GPU timing lock (descriptor %d): %s", fd, strerror(errno));
        return -1;
    }
    lock_fd = fd;
    set(GATE, F_WRLCK);
    set(SHARED, F_RDLCK);
    set(GATE, F_UNLCK);
    return 0;
}

void tl_timing_alone(int on)
{
    if (lock_fd < 0)
        return;
    if (on) {
        set(SHARED, F_UNLCK);
        set(GATE, F_WRLCK);
        set(SHARED, F_WRLCK);
    } else {
        set(SHARED, F_RDLCK);
        set(GATE, F_UNLCK);
    }
}
