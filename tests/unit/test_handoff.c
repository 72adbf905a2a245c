/* The hand-off socket (src/viewer/handoff.h), no window: where the socket goes
 * ($XDG_RUNTIME_DIR when private, else ${TMPDIR}/hdrtone-UID made 0700; a folder open to
 * others or a link is refused; HT_HANDOFF=off), a round trip (relative paths arrive absolute,
 * in order, and wake the viewer; a missing file is refused before any is sent; the client
 * waits for the viewer's answer: ok exits 0, an error is the client's reason, made one line),
 * a client gone before its answer is forgotten, a second listener stays out, a stale socket
 * is not handed to and is replaced by the next listener, and a listener that does not greet
 * as hdrtone gets nothing. */
#define _DEFAULT_SOURCE   /* mkdtemp, setenv */

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "handoff.h"
#include "testutil.h"

static char root[64];
static atomic_int wakes;   /* counted on the server's thread */
static void wake(void) { wakes++; }

/* The viewer's side, on a thread of its own (handoff_send waits for the answer): takes each
 * list, keeps the last in got/ngot, and answers it with answer_error (NULL: ok). */
static char **got;
static int ngot;
static const char *answer_error;
static atomic_bool responder_stop;

static void *responder(void *arg)
{
    handoff *h = arg;
    while (!responder_stop) {
        char **paths;
        unsigned long ticket;
        int n = handoff_take(h, &paths, &ticket);
        if (n > 0) {
            for (int i = 0; i < ngot; i++)
                free(got[i]);
            free(got);
            got = paths;
            ngot = n;
            handoff_reply(h, ticket, answer_error);
        }
        usleep(1000);
    }
    return NULL;
}

static pthread_t responder_start(handoff *h)
{
    pthread_t t;
    responder_stop = false;
    CHECK(pthread_create(&t, NULL, responder, h) == 0, "pthread_create");
    return t;
}

static void responder_join(pthread_t t)
{
    responder_stop = true;
    pthread_join(t, NULL);
}

/* A client of the socket's own that sends "/a.exr" and closes before its answer. */
static void client_gone(const char *path)
{
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    memcpy(a.sun_path, path, strlen(path));
    char greeting[64];
    CHECK(connect(fd, (struct sockaddr *)&a, sizeof a) == 0 && recv(fd, greeting, 18, 0) == 18,
          "connect %s", path);
    CHECK(send(fd, "/a.exr\0\0", 8, 0) == 8, "send");
    close(fd);
}

static void test_where(void)
{
    char path[PATH_MAX], err[512], want[PATH_MAX], run[128], tmp[128];
    snprintf(run, sizeof run, "%s/run", root);
    snprintf(tmp, sizeof tmp, "%s/tmp", root);
    CHECK(mkdir(run, 0700) == 0 && mkdir(tmp, 0755) == 0, "mkdir");
    setenv("XDG_RUNTIME_DIR", run, 1);
    setenv("TMPDIR", tmp, 1);
    CHECK(handoff_socket_path(path, sizeof path, err, sizeof err), "%s", err);
    snprintf(want, sizeof want, "%s/%s", run, HANDOFF_SOCKET_NAME);
    CHECK(strcmp(path, want) == 0, "private XDG_RUNTIME_DIR: %s", path);
    /* Open to others: the fallback, made 0700. */
    chmod(run, 0755);
    CHECK(handoff_socket_path(path, sizeof path, err, sizeof err), "%s", err);
    snprintf(want, sizeof want, "%s/hdrtone-%u/%s", tmp, (unsigned)geteuid(), HANDOFF_SOCKET_NAME);
    CHECK(strcmp(path, want) == 0, "fallback: %s", path);
    struct stat st;
    snprintf(want, sizeof want, "%s/hdrtone-%u", tmp, (unsigned)geteuid());
    CHECK(stat(want, &st) == 0 && (st.st_mode & 0777) == 0700, "fallback mode %o",
          (unsigned)(st.st_mode & 0777));
    /* A fallback open to others, or a link, is refused. */
    chmod(want, 0755);
    CHECK(!handoff_socket_path(path, sizeof path, err, sizeof err) && strstr(err, "0700"),
          "mode 0755 refused: %s", err);
    CHECK(rmdir(want) == 0 && symlink(run, want) == 0, "symlink");
    chmod(run, 0700);
    unsetenv("XDG_RUNTIME_DIR");
    CHECK(!handoff_socket_path(path, sizeof path, err, sizeof err) &&
              strstr(err, "not a folder"), "a link refused: %s", err);
    unlink(want);
    setenv("XDG_RUNTIME_DIR", run, 1);
    setenv("HT_HANDOFF", "off", 1);
    CHECK(!handoff_socket_path(path, sizeof path, err, sizeof err), "HT_HANDOFF=off");
    char *paths[] = {"/x.exr"};
    CHECK(handoff_send(paths, 1, err, sizeof err) == -1 && err[0] == '\0', "off: quiet, %s", err);
    bool quiet = false;
    CHECK(handoff_listen(NULL, &quiet, err, sizeof err) == NULL && quiet, "off: no listener");
    unsetenv("HT_HANDOFF");
}

static void test_round_trip(void)
{
    char err[512], cwd[PATH_MAX];
    bool quiet = true;
    handoff *h = handoff_listen(wake, &quiet, err, sizeof err);
    CHECK(h && !quiet, "listen: %s", err);
    if (!h)
        return;
    handoff *second = handoff_listen(NULL, &quiet, err, sizeof err);
    CHECK(!second && quiet && strstr(err, "another hdrtone"), "a second listener: %s", err);
    /* The client sends only what is there to read: files made in a folder of their own. */
    char files[128], abs[160];
    snprintf(files, sizeof files, "%s/files", root);
    snprintf(abs, sizeof abs, "%s/x.hdr", root);
    CHECK(mkdir(files, 0700) == 0 && chdir(files) == 0 && mkdir("dir", 0700) == 0, "mkdir");
    fclose(fopen("a b.exr", "w"));
    fclose(fopen(abs, "w"));
    CHECK(getcwd(cwd, sizeof cwd) != NULL, "getcwd");
    char *missing[] = {"a b.exr", "missing.exr"};
    CHECK_EQ(handoff_send(missing, 2, err, sizeof err), 1);
    CHECK(strstr(err, "missing.exr: No such file") != NULL, "a missing file: %s", err);
    char *paths[] = {"a b.exr", "./dir/", abs};
    pthread_t viewer = responder_start(h);
    CHECK_EQ(handoff_send(paths, 3, err, sizeof err), 0);
    CHECK(err[0] == '\0', "message: %s", err);
    int n = ngot;
    CHECK_EQ(n, 3);
    char want[3][PATH_MAX + 16];
    snprintf(want[0], sizeof want[0], "%s/a b.exr", cwd);
    snprintf(want[1], sizeof want[1], "%s/dir/", cwd);
    snprintf(want[2], sizeof want[2], "%s", abs);
    for (int i = 0; i < n && i < 3; i++)
        CHECK(strcmp(got[i], want[i]) == 0, "path %d: %s, want %s", i, got[i], want[i]);
    CHECK_EQ(wakes, 1);
    /* The window refuses: its reason, on one line, is the client's. */
    answer_error = "/x/bad.exr: not an image\nat byte 4";
    CHECK_EQ(handoff_send(paths, 1, err, sizeof err), 1);
    CHECK(strstr(err, "could not show it: /x/bad.exr: not an image at byte 4") != NULL, "%s", err);
    answer_error = NULL;
    /* A client gone before its answer: forgotten; the next one is answered. */
    client_gone(handoff_path(h));
    CHECK_EQ(handoff_send(paths, 1, err, sizeof err), 0);
    responder_join(viewer);
    char **none;
    unsigned long ticket;
    CHECK_EQ(handoff_take(h, &none, &ticket), 0);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s", handoff_path(h));
    handoff_stop(&h);
    CHECK(h == NULL && access(path, F_OK) != 0, "the socket file goes with its listener");
}

/* A socket file at the hand-off's path: bound, then LISTENING or not. Returns its fd. */
static int plant_socket(bool listening)
{
    char path[PATH_MAX], err[512];
    CHECK(handoff_socket_path(path, sizeof path, err, sizeof err), "%s", err);
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    memcpy(a.sun_path, path, strlen(path));
    CHECK(bind(fd, (struct sockaddr *)&a, sizeof a) == 0, "bind %s", path);
    if (listening)
        CHECK(listen(fd, 4) == 0, "listen");
    return fd;
}

static void test_stale_and_strangers(void)
{
    char err[512], *paths[] = {"a b.exr"};   /* test_round_trip's, in the working folder */
    int fd = plant_socket(false);
    close(fd);   /* a socket file nobody accepts on: an hdrtone that was killed */
    CHECK_EQ(handoff_send(paths, 1, err, sizeof err), -1);
    CHECK(err[0] == '\0', "a stale socket is no error: %s", err);
    bool quiet;
    handoff *h = handoff_listen(NULL, &quiet, err, sizeof err);
    CHECK(h != NULL, "the stale socket is replaced: %s", err);
    pthread_t viewer = responder_start(h);
    CHECK_EQ(handoff_send(paths, 1, err, sizeof err), 0);
    responder_join(viewer);
    handoff_stop(&h);
    /* Something that listens but does not greet as hdrtone receives no path. */
    fd = plant_socket(true);
    CHECK_EQ(handoff_send(paths, 1, err, sizeof err), -1);
    CHECK(strstr(err, "no hdrtone answers") != NULL, "message: %s", err);
    int c = accept(fd, NULL, NULL);
    char buf[64];
    CHECK(c >= 0 && recv(c, buf, sizeof buf, MSG_DONTWAIT) <= 0, "the stranger got bytes");
    close(c);
    close(fd);
    char path[PATH_MAX];
    if (handoff_socket_path(path, sizeof path, err, sizeof err))
        unlink(path);
}

int main(void)
{
    snprintf(root, sizeof root, "/tmp/ht_handoff_XXXXXX");
    if (!mkdtemp(root)) {
        perror("mkdtemp");
        return 1;
    }
    unsetenv("HT_HANDOFF");   /* the tests' environment turns it off */
    test_where();
    test_round_trip();
    test_stale_and_strangers();
    for (int i = 0; i < ngot; i++)
        free(got[i]);
    free(got);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", root);
    CHECK(system(cmd) == 0, "cleanup");
    return test_finish("test_handoff");
}
