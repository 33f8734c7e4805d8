/*
 * The suite's server (suite_server.h; lab_process.h draws where it stands):
 * the suite's own program, run again by suite_server_start.c with its
 * listening socket, which a constructor here recognises before anything
 * else of the suite runs, Criterion's main included. It holds no test and
 * records nothing; it answers the requests of the suite's tests, one test
 * at a time, as the lab process would, by running each through this
 * program's own backend (tl_lab_backend): on a GPU, the call's plan asked
 * of the lab process and replayed here (lab_plans.c); elsewhere, the call
 * run in the lab process. So on a GPU one context here serves the whole
 * run, while each test's process checks what comes back, as it always did.
 *
 * It answers only the suite's own processes: the main one and its
 * children, the tests. The lab process, its own child, and whatever that
 * starts, are turned away, even while a call of theirs runs.
 *
 * A test is as alone as in a process of its own: each test gets a fresh
 * lab process (state the lab's code keeps, a static counter, a buffer
 * allocated once, never reaches the next test, and no test's verdict
 * depends on the tests run before it); after a call whose kernel left this
 * process's GPU context unusable, or that the test gave up on while it ran
 * here (a kernel that never ends: the test's own watch stops it), the
 * server runs itself afresh, keeping its socket and the tests waiting on
 * it. What the tests share is this process, the kit's code alone, and on a
 * GPU its context: the one a driver opens slowly, one process at a time.
 */
#define _GNU_SOURCE
#include "suite_server.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lab.h"
#include "lab_client.h"
#include "lab_process.h"

const char tl_suite_server_linked = 1;

#define MAX_WAITING 16
static pid_t suite;                        /* the suite's main process */
static int listening = -1;
static int waiting[MAX_WAITING], n_waiting; /* connections taken, in turn to be served */
static int conn = -1, matrices = -1;       /* the test served now, and its memfd */
static int spoiled;                        /* this process's GPU context no longer runs work */
static volatile int calling = -1;          /* the test's connection while its call runs here */
static pthread_mutex_t taking = PTHREAD_MUTEX_INITIALIZER; /* waiting[], between admit and start_afresh */

/* The parent of process pid, as /proc says: -1 when it cannot be read. */
static pid_t parent_of(pid_t pid)
{
    char path[64], stat[512];
    int parent = -1;
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "re");
    size_t n = f ? fread(stat, 1, sizeof stat - 1, f) : 0;
    if (f)
        fclose(f);
    stat[n] = '\0';
    const char *fields = strrchr(stat, ')'); /* the name before it may hold anything */
    if (!fields || sscanf(fields, ") %*c %d", &parent) != 1)
        return -1;
    return (pid_t)parent;
}

/* A connection on the listening socket: in turn to be served when it comes from the suite's
 * main process or one of its tests (its peer's parent is the main process), else turned away. */
static void admit(void)
{
    int fd = accept4(listening, NULL, NULL, SOCK_CLOEXEC);
    if (fd < 0)
        return;
    struct ucred peer = {0, 0, 0};
    socklen_t len = sizeof peer;
    int known = getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &peer, &len) == 0 && peer.uid == getuid();
    pid_t parent = known ? parent_of(peer.pid) : -1;
    if (!known || (peer.pid != suite && parent != suite)) {
        fprintf(stderr, "tilelab: the suite's server turned away process %d (its parent is %d): it "
                        "runs the lab's code for the suite's own tests alone, and takes no request "
                        "from anything else, the lab's code included\n", (int)peer.pid, (int)parent);
        close(fd);
    } else {
        pthread_mutex_lock(&taking);
        if (n_waiting == MAX_WAITING)
            close(fd);
        else
            waiting[n_waiting++] = fd;
        pthread_mutex_unlock(&taking);
    }
}

/* The next test waiting, its handshake taken with its memfd: 1, or 0 when none is left. */
static int take_next(void)
{
    while (n_waiting > 0) {
        int fd = waiting[0];
        memmove(waiting, waiting + 1, (size_t)--n_waiting * sizeof *waiting);
        char said[sizeof TL_SUITE_HELLO];
        union {
            struct cmsghdr align;
            char room[CMSG_SPACE(sizeof(int))];
        } control;
        struct iovec iov = {said, sizeof said};
        struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.room,
                             .msg_controllen = sizeof control.room};
        ssize_t n;
        while ((n = recvmsg(fd, &msg, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR)
            ;
        struct cmsghdr *c = n > 0 ? CMSG_FIRSTHDR(&msg) : NULL;
        int memfd = -1;
        if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS &&
            c->cmsg_len == CMSG_LEN(sizeof(int)))
            memcpy(&memfd, CMSG_DATA(c), sizeof memfd);
        if (n == (ssize_t)sizeof said && !memcmp(said, TL_SUITE_HELLO, sizeof said) && memfd >= 0 &&
            send(fd, TL_SUITE_HELLO, sizeof said, MSG_NOSIGNAL) == (ssize_t)sizeof said) {
            conn = fd;
            matrices = memfd;
            return 1;
        }
        if (memfd >= 0)
            close(memfd);
        close(fd);
    }
    return 0;
}

/* Runs itself afresh, with its listening socket and the tests that wait on it. */
static void start_afresh(void)
{
    pthread_mutex_lock(&taking); /* for good: the process is replaced */
    char fds[32 + 12 * MAX_WAITING];
    int len = snprintf(fds, sizeof fds, "%d %d", (int)suite, listening);
    fcntl(listening, F_SETFD, 0);
    for (int i = 0; i < n_waiting; i++) {
        len += snprintf(fds + len, sizeof fds - (size_t)len, " %d", waiting[i]);
        fcntl(waiting[i], F_SETFD, 0);
    }
    tl_lab_stop();
    setenv(TL_SUITE_SERVER_FD_ENV, fds, 1);
    execl("/proc/self/exe", "tilelab-suite-server", (char *)NULL);
    fprintf(stderr, "tilelab: the suite's server could not run itself afresh: %s\n", strerror(errno));
    _exit(1);
}

/* The test served ended: its lab process goes with it; the next test's is started fresh. */
static void end_test(void)
{
    close(conn);
    close(matrices);
    conn = matrices = -1;
    tl_lab_stop();
    if (spoiled)
        start_afresh();
}

/* While a call runs, the test that asked for it may give up on it: its watch stops a
 * kernel that never ends (tests/tl_test.h) by ending the test's process. The lab
 * process's side of a call watches for that itself (news, below); a kernel replayed
 * here keeps this thread's GPU busy, and only a fresh process (its context gone with
 * the old one, and the kernel with it) frees the GPU for the next test. */
static void *watch_the_caller(void *unused)
{
    (void)unused;
    for (;;) {
        int fd = calling;
        struct pollfd p = {fd, POLLRDHUP, 0};
        if (fd >= 0 && poll(&p, 1, 100) > 0 && fd == calling && (p.revents & (POLLRDHUP | POLLHUP | POLLERR)))
            start_afresh();
        if (fd < 0)
            usleep(100 * 1000);
    }
    return NULL;
}

/* While a call runs: a process to admit or turn away, or the test that asked gone. */
static int news(int fd, short revents, char *why, size_t why_len)
{
    (void)revents;
    if (fd == listening) {
        admit();
        return 0;
    }
    snprintf(why, why_len, "tilelab: the test that asked for the call ended before it returned");
    return -1;
}

/* TL_ASK_RUN and TL_ASK_PROFILE: the entry point on the test's matrices, in its memfd. */
static void run(const tl_lab_request *rq, const tl_backend *b, tl_lab_reply *rp)
{
    struct stat st;
    size_t bytes = rq->floats <= SIZE_MAX / sizeof(float) ? rq->floats * sizeof(float) : 0;
    int counted = rq->ask == TL_ASK_PROFILE;
    tl_matrix m[3];
    float *base = MAP_FAILED;
    if (bytes && fstat(matrices, &st) == 0 && (size_t)st.st_size >= bytes)
        base = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, matrices, 0);
    if (base == MAP_FAILED || tl_lab_request_views(rq, base, m) != 0 ||
        (counted && !tl_lab_request_counts_fit(rq))) {
        snprintf(rp->why, sizeof rp->why, "tilelab: the suite's server could not map the matrices "
                                          "(a request it cannot read)");
        rp->rc = -1;
    } else {
        tl_lab_count(counted);
        rp->rc = tl_lab_request_run(b, rq, tl_entry_handle(rq->entry), m, rp->why, sizeof rp->why) ? -1 : 0;
        tl_lab_count(0);
    }
    if (rp->rc == 0 && counted) {
        tl_lab_profile *p = (tl_lab_profile *)((unsigned char *)base + rq->profile_at);
        *p = *tl_lab_counts();
        for (int i = 0; i < TL_LAB_PROFILE_KERNELS; i++)
            p->kernel[i].stats.kernel = NULL; /* this process's pointer: the name is beside it */
        for (int i = 0; i < TL_LAB_PROFILE_MADE; i++)
            p->made_by[i].stats.kernel = NULL;
    }
    if (base != MAP_FAILED)
        munmap(base, bytes);
}

static void answer(tl_lab_request *rq, tl_lab_reply *rp)
{
    const tl_backend *b;
    memset(rp, 0, sizeof *rp);
    rq->test[sizeof rq->test - 1] = '\0';
    tl_lab_watch(rq->watch > 0 && rq->watch < 1e6 ? rq->watch : 0, rq->test);
    tl_todo_reset();
    tl_launch_reset();
    int can = tl_lab_backend(&b, rp->why, sizeof rp->why);
    if (can < 0) {
        rp->rc = -1;
        return;
    }
    snprintf(rp->backend, sizeof rp->backend, "%s", b->name);
    rp->on_gpu = b->on_gpu;
    if (rq->ask == TL_ASK_BACKEND) {
        rp->available = can; /* and no plans: the test's process runs none, this one does */
        return;
    }
    if (!can)
        rp->rc = -1; /* why says why it cannot */
    else if (rq->ask == TL_ASK_RUN || rq->ask == TL_ASK_PROFILE)
        run(rq, b, rp);
    else {
        snprintf(rp->why, sizeof rp->why, "tilelab: the suite's server answers no request %d", (int)rq->ask);
        rp->rc = -1;
    }
    if (rp->rc) {
        /* Replayed here on the GPU: a fault of its kernel's may have left the context unusable. */
        int replayed = can && tl_lab_plans_backend && b == tl_lab_plans_backend();
        spoiled = spoiled || (replayed && tl_lab_plans_usable && !tl_lab_plans_usable());
    }
    if (tl_todo_message())
        snprintf(rp->todo, sizeof rp->todo, "%s", tl_todo_message());
    rp->launches = tl_launch_count();
    for (int i = 0; i < rp->launches && i < TL_MAX_LAUNCHES; i++)
        rp->launch[i] = *tl_launch_get(i);
}

static void serve(void)
{
    static tl_lab_request rq;
    static tl_lab_reply rp;
    pthread_t watcher;
    if (pthread_create(&watcher, NULL, watch_the_caller, NULL) == 0)
        pthread_detach(watcher);
    for (;;) {
        if (conn < 0 && !take_next()) {
            struct pollfd p = {listening, POLLIN, 0};
            if (poll(&p, 1, -1) > 0)
                admit();
            continue;
        }
        struct pollfd p[2] = {{listening, POLLIN, 0}, {conn, POLLIN, 0}};
        if (poll(p, 2, -1) <= 0)
            continue;
        if (p[0].revents)
            admit();
        if (!p[1].revents)
            continue;
        ssize_t n;
        while ((n = recv(conn, &rq, sizeof rq, 0)) < 0 && errno == EINTR)
            ;
        if (n != (ssize_t)sizeof rq) {
            end_test();
            continue;
        }
        tl_lab_wait_also((int[]){listening, conn}, 2, news);
        calling = conn;
        answer(&rq, &rp);
        calling = -1;
        if (send(conn, &rp, sizeof rp, MSG_NOSIGNAL) != (ssize_t)sizeof rp)
            end_test();
    }
}

/* Before anything else of the suite (lab_client.c's constructor aside, priority 101): the
 * server, where TL_SUITE_SERVER_FD_ENV says this program runs as one; else nothing. */
__attribute__((constructor(102))) static void serve_where_asked(void)
{
    const char *given = getenv(TL_SUITE_SERVER_FD_ENV);
    int suite_pid, at = 0;
    if (!given || sscanf(given, "%d %d%n", &suite_pid, &listening, &at) != 2)
        return;
    suite = (pid_t)suite_pid;
    for (int fd, more; n_waiting < MAX_WAITING && sscanf(given + at, " %d%n", &fd, &more) == 1; at += more)
        waiting[n_waiting++] = fd;
    fcntl(listening, F_SETFD, FD_CLOEXEC);
    for (int i = 0; i < n_waiting; i++)
        fcntl(waiting[i], F_SETFD, FD_CLOEXEC);
    unsetenv(TL_SUITE_SERVER_FD_ENV);
    tl_lab_process_log("suite-server", (int)getpid());
    serve();
}
