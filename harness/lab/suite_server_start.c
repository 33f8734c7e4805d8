/*
 * The two ends of the suite's server (suite_server.h): the suite's main
 * process starts it and stops it, a test's process joins it.
 *
 * The server is not a child of the suite's main process but a grandchild,
 * under a keeper that does nothing but outlive it: Criterion's main process
 * waits for any of its children (BoxFort's waitid(P_ALL)), and a child of
 * its own that ended while tests run, a server that crashed or never
 * started, would be a process it neither knows nor reaps: its loop would
 * turn on that one for ever, and never see a test end. The keeper reaps the server, and dies with the suite
 * (PR_SET_PDEATHSIG), the server with the keeper, the lab process with the
 * server; stopped, it ends them all, and whatever they left behind, before
 * it ends itself.
 */
#define _GNU_SOURCE
#include "suite_server.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

static const char hello[] = TL_SUITE_HELLO;

void tl_lab_process_log(const char *what, int pid)
{
    const char *path = getenv(TL_LAB_PROCESS_LOG_ENV);
    int fd = path && *path ? open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600) : -1;
    if (fd >= 0) {
        char line[128];
        int n = snprintf(line, sizeof line, "%s %d\n", what, pid);
        (void)!write(fd, line, (size_t)n);
        close(fd);
    }
}

/* ---------------------------------------------------------------- the suite's main process */

static pid_t keeper = -1, owner;
static char folder[sizeof ((struct sockaddr_un *)0)->sun_path];
static struct sockaddr_un address = {.sun_family = AF_UNIX};

/* The folder's name for the one who says, once for the run, that the tests go without the server. */
#define SAID "said"

/* Every child of the keeper's ended: the server, and what it left behind (the keeper is
 * their subreaper). Only calls a forked copy of a process with threads may make. */
static void end_all(pid_t server)
{
    char path[64], list[4096];
    snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)getpid(), (int)getpid());
    kill(server, SIGKILL);
    for (;;) {
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        ssize_t n = fd >= 0 ? read(fd, list, sizeof list - 1) : 0;
        if (fd >= 0)
            close(fd);
        list[n > 0 ? n : 0] = '\0';
        for (char *p = list; *p;) {
            long pid = strtol(p, &p, 10);
            if (pid > 0)
                kill((pid_t)pid, SIGKILL);
            while (*p == ' ')
                p++;
        }
        if (waitpid(-1, NULL, 0) < 0 && errno == ECHILD)
            return;
    }
}

/* The keeper, in the child of the suite's main process: starts the server on `listening`, and
 * lives on, reaping it, until the suite stops it (SIGTERM: everything below it ends first) or
 * dies (PR_SET_PDEATHSIG). */
static void keep(int listening, pid_t suite)
{
    sigset_t wanted;
    sigemptyset(&wanted);
    sigaddset(&wanted, SIGTERM);
    sigaddset(&wanted, SIGCHLD);
    sigprocmask(SIG_BLOCK, &wanted, NULL);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    if (getppid() != suite)
        _exit(0);
    pid_t self = getpid(), server = fork();
    if (server == 0) {
        sigprocmask(SIG_UNBLOCK, &wanted, NULL);
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != self)
            _exit(127);
        if ((listening == 3 ? fcntl(3, F_SETFD, 0) : dup2(listening, 3)) < 0)
            _exit(127);
        close_range(4, ~0U, 0);
        execl("/proc/self/exe", "tilelab-suite-server", (char *)NULL);
        _exit(127);
    }
    close_range(0, ~0U, 0);
    for (int sig = 0;;) {
        if (sigwait(&wanted, &sig) != 0)
            continue;
        if (sig == SIGTERM) {
            end_all(server);
            _exit(0);
        }
        while (waitpid(-1, NULL, WNOHANG) > 0)
            ;
    }
}

void tl_suite_server_start(int wanted, unsigned jobs)
{
    const char *asked = getenv(TL_SUITE_SERVER_ENV), *tmp = getenv("TMPDIR");
    int listening = -1;
    unsetenv(TL_SUITE_SOCKET_ENV); /* a server of this run's, or none: never another run's */
    if (asked && *asked)
        wanted = strcmp(asked, "0") != 0;
    if (!wanted || keeper > 0 || !&tl_suite_server_linked)
        return;
    if (jobs != 1) {
        if (asked && *asked)
            fprintf(stderr, "tilelab: %s=%s needs the tests run one at a time (--jobs 1): each test "
                            "runs the lab's code in a lab process of its own\n", TL_SUITE_SERVER_ENV, asked);
        return;
    }
    /* The socket in a folder of its own, which only this user can enter. */
    snprintf(folder, sizeof folder, "%s/tilelab-suite-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (strlen(folder) + sizeof "/socket" > sizeof address.sun_path)
        snprintf(folder, sizeof folder, "/tmp/tilelab-suite-XXXXXX");
    if (!mkdtemp(folder)) {
        folder[0] = '\0';
        goto failed;
    }
    snprintf(address.sun_path, sizeof address.sun_path, "%s/socket", folder);
    listening = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    if (listening < 0 || bind(listening, (struct sockaddr *)&address, sizeof address) != 0 ||
        listen(listening, 16) != 0)
        goto failed;
    char fds[64];
    snprintf(fds, sizeof fds, "%d 3", (int)getpid());
    setenv(TL_SUITE_SERVER_FD_ENV, fds, 1);
    pid_t suite = getpid();
    keeper = fork();
    if (keeper == 0)
        keep(listening, suite);
    int err = errno;
    unsetenv(TL_SUITE_SERVER_FD_ENV);
    close(listening);
    if (keeper < 0) {
        errno = err;
        listening = -1;
        goto failed;
    }
    owner = getpid();
    setenv(TL_SUITE_SOCKET_ENV, address.sun_path, 1);
    atexit(tl_suite_server_stop);
    return;
failed:
    fprintf(stderr, "tilelab: cannot start the suite's server, which runs every test's calls for the "
                    "whole run (%s): each test runs them itself, as it does without one\n",
            strerror(errno));
    if (listening >= 0)
        close(listening);
    tl_suite_server_stop();
}

void tl_suite_server_stop(void)
{
    char said[sizeof folder + sizeof SAID];
    if (keeper > 0 && getpid() == owner) {
        kill(keeper, SIGTERM); /* the server, its lab process and theirs end before it */
        waitpid(keeper, NULL, 0);
        keeper = -1;
    }
    if (folder[0]) {
        unlink(address.sun_path);
        snprintf(said, sizeof said, "%s/" SAID, folder);
        unlink(said);
        rmdir(folder);
        folder[0] = '\0';
        unsetenv(TL_SUITE_SOCKET_ENV);
    }
}

/* ---------------------------------------------------------------- a test's process */

static int lost; /* this process found the server gone: it joins it no more */

/* Said once for the run, by the first process that finds it so (a file in the server's folder). */
static void say_once(const char *path, const char *why)
{
    char said[sizeof address.sun_path + sizeof SAID];
    const char *slash = strrchr(path, '/');
    snprintf(said, sizeof said, "%.*s/" SAID, slash ? (int)(slash - path) : 0, path);
    int fd = open(said, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0 && errno == EEXIST)
        return;
    if (fd >= 0)
        close(fd);
    fprintf(stderr, "tilelab: the suite's server, which runs every test's calls for the whole run, "
                    "%s: from here on each test runs them itself, as it does without one\n", why);
}

int tl_suite_server_join(int matrices)
{
    const char *path = getenv(TL_SUITE_SOCKET_ENV);
    struct sockaddr_un to = {.sun_family = AF_UNIX};
    char why[256], said[sizeof hello];
    if (lost || !path || !*path || strlen(path) >= sizeof to.sun_path)
        return -1;
    snprintf(to.sun_path, sizeof to.sun_path, "%s", path);
    int fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&to, sizeof to) != 0) {
        snprintf(why, sizeof why, "cannot be reached (%s)", strerror(errno));
        goto failed;
    }
    /* The memfd goes over with the handshake (SCM_RIGHTS); the answer says the server took it. */
    union {
        struct cmsghdr align;
        char room[CMSG_SPACE(sizeof(int))];
    } control;
    memset(&control, 0, sizeof control);
    struct iovec iov = {(void *)hello, sizeof hello};
    struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.room,
                         .msg_controllen = sizeof control.room};
    struct cmsghdr *c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &matrices, sizeof matrices);
    ssize_t n = sendmsg(fd, &msg, MSG_NOSIGNAL);
    if (n == (ssize_t)sizeof hello)
        while ((n = recv(fd, said, sizeof said, 0)) < 0 && errno == EINTR)
            ;
    if (n != (ssize_t)sizeof hello || memcmp(said, hello, sizeof hello) != 0) {
        snprintf(why, sizeof why, "did not take this test on (%s)",
                 n < 0 ? strerror(errno) : "it closed the connection");
        goto failed;
    }
    return fd;
failed:
    if (fd >= 0)
        close(fd);
    lost = 1;
    say_once(path, why);
    return -1;
}

void tl_suite_server_lost(char *why, size_t why_len, const char *what)
{
    const char *path = getenv(TL_SUITE_SOCKET_ENV);
    lost = 1;
    snprintf(why, why_len, "tilelab: the suite's server (the kit's process that runs your code's lab "
                           "process) ended before %s: something killed it, or it failed. The tests "
                           "after this one run your code in a lab process of their own", what);
    if (path)
        say_once(path, "ended");
}
