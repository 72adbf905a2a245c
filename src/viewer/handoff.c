/* The hand-off socket (handoff.h): where it lives, the client of `hdrtone FILE...`, and the
 * server thread of a running viewer. */
#define _GNU_SOURCE   /* accept4, struct ucred (SO_PEERCRED) */

#include "handoff.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "sequence.h"
#include "tev_server.h"

/* How long the client waits for the greeting (a running hdrtone answers from its own thread
 * at once; one that does not is stopped or not hdrtone) and then for the reply. */
static const int GREETING_TIMEOUT_MS = 2000;
static const int REPLY_TIMEOUT_MS = HANDOFF_LOAD_TIMEOUT_MS + 2000;   /* the server's ends first */
/* The longest reply line, '\n' included (a longer error is cut). */
enum { REPLY_MAX = 1024 };
/* The lock file beside the socket: whoever holds it may remove a stale socket and bind. */
static const char LOCK_NAME[] = "hdrtone.lock";

/* ---------------------------------------------------------------------------------------
 * Where */

/* Whether DIR is a folder (not a link) of this user's that nobody else may enter. */
static bool dir_is_private(const char *dir, char *err, size_t errlen)
{
    struct stat st;
    if (lstat(dir, &st) != 0) {
        snprintf(err, errlen, "%s: %s", dir, strerror(errno));
        return false;
    }
    if (!S_ISDIR(st.st_mode)) {
        snprintf(err, errlen, "%s is not a folder", dir);
        return false;
    }
    if (st.st_uid != geteuid()) {
        snprintf(err, errlen, "%s belongs to user %u, not to %u", dir, (unsigned)st.st_uid,
                 (unsigned)geteuid());
        return false;
    }
    if (st.st_mode & 077) {
        snprintf(err, errlen, "%s has mode %03o: others may enter it (0700 is needed)", dir,
                 (unsigned)(st.st_mode & 0777));
        return false;
    }
    return true;
}

bool handoff_enabled(void)
{
    const char *mode = getenv("HT_HANDOFF");
    return !(mode && strcmp(mode, "off") == 0);
}

bool handoff_socket_path(char *path, size_t len, char *err, size_t errlen)
{
    if (!handoff_enabled()) {
        snprintf(err, errlen, "the hand-off is off (HT_HANDOFF=off)");
        return false;
    }
    char dir[PATH_MAX], why[PATH_MAX + 64];
    const char *xdg = getenv("XDG_RUNTIME_DIR");
    if (xdg && xdg[0] == '/' && dir_is_private(xdg, why, sizeof why)) {
        snprintf(dir, sizeof dir, "%s", xdg);
    } else {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/hdrtone-%u", tmp && tmp[0] == '/' ? tmp : "/tmp",
                 (unsigned)geteuid());
        if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
            snprintf(err, errlen, "%s: %s", dir, strerror(errno));
            return false;
        }
        if (!dir_is_private(dir, err, errlen))
            return false;
    }
    struct sockaddr_un a;
    int n = snprintf(path, len, "%s/%s", dir, HANDOFF_SOCKET_NAME);
    if (n < 0 || (size_t)n >= len || (size_t)n >= sizeof a.sun_path) {
        snprintf(err, errlen, "%s: the socket's path is too long", dir);
        return false;
    }
    return true;
}

/* ---------------------------------------------------------------------------------------
 * Sockets */

static struct sockaddr_un unix_address(const char *path)
{
    struct sockaddr_un a = {.sun_family = AF_UNIX};   /* PATH fits: handoff_socket_path */
    memcpy(a.sun_path, path, strnlen(path, sizeof a.sun_path - 1));
    return a;
}

/* A connected blocking socket, or -1 with errno (ENOENT: no socket file; ECONNREFUSED:
 * nobody accepts on it). */
static int connect_unix(const char *path)
{
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    struct sockaddr_un a = unix_address(path);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
}

static long long now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Reads one line (up to and with '\n') into BUF (CAP bytes, NUL-terminated) within TIMEOUT_MS.
 * False on timeout, end of stream, error or a line longer than BUF. */
static bool read_line(int fd, char *buf, size_t cap, int timeout_ms)
{
    long long end = now_ms() + timeout_ms;
    size_t n = 0;
    while (n + 1 < cap) {
        struct pollfd p = {fd, POLLIN, 0};
        long long left = end - now_ms();
        if (left <= 0 || poll(&p, 1, (int)left) <= 0)
            return false;
        ssize_t r = recv(fd, buf + n, 1, 0);
        if (r <= 0)
            return false;
        if (buf[n++] == '\n') {
            buf[n] = '\0';
            return true;
        }
    }
    return false;
}

/* All of the SIZE bytes, without SIGPIPE (tev_send_all; the reason is not needed here). */
static bool send_all(int fd, const void *bytes, size_t size)
{
    char err[128];
    return tev_send_all(fd, bytes, size, err, sizeof err);
}

/* ---------------------------------------------------------------------------------------
 * The client */

/* PATH made absolute against the working directory (not resolved: the viewer shows the
 * names the user gave), malloc'd; NULL when no memory or no working directory. */
static char *absolute_path(const char *path)
{
    if (path[0] == '/')
        return strdup(path);
    char cwd[PATH_MAX];
    if (!getcwd(cwd, sizeof cwd))
        return NULL;
    const char *rel = strncmp(path, "./", 2) == 0 ? path + 2 : path;
    size_t len = strlen(cwd) + strlen(rel) + 2;
    char *abs = malloc(len);
    if (abs)
        snprintf(abs, len, "%s%s%s", cwd, strcmp(cwd, "/") ? "/" : "", rel);
    return abs;
}

/* Sends the paths and their end; false with the reason in ERR. */
static bool send_paths(int fd, char *const *paths, int n, char *err, size_t errlen)
{
    for (int i = 0; i < n; i++) {
        char *abs = absolute_path(paths[i]);
        if (!abs) {
            snprintf(err, errlen, "%s: cannot make the path absolute: %s", paths[i],
                     strerror(errno));
            return false;
        }
        bool ok = send_all(fd, abs, strlen(abs) + 1);
        free(abs);
        if (!ok) {
            snprintf(err, errlen, "sending %s: %s", paths[i], strerror(errno));
            return false;
        }
    }
    if (!send_all(fd, "", 1)) {
        snprintf(err, errlen, "sending the end of the list: %s", strerror(errno));
        return false;
    }
    return true;
}

/* Whether each of PATHS[0..N) is there for the viewer to read: a file it may read, a folder it
 * may list, or a sequence's pattern (shot.%04d.exr, no file of that name: the viewer looks
 * for its frames). False with "PATH: reason" in ERR. */
static bool paths_readable(char *const *paths, int n, char *err, size_t errlen)
{
    for (int i = 0; i < n; i++) {
        struct stat st;
        if (stat(paths[i], &st) != 0 && seq_is_pattern(paths[i]))
            continue;
        if (stat(paths[i], &st) != 0 ||
            access(paths[i], S_ISDIR(st.st_mode) ? R_OK | X_OK : R_OK) != 0) {
            snprintf(err, errlen, "%s: %s", paths[i], strerror(errno));
            return false;
        }
    }
    return true;
}

int handoff_send(char *const *paths, int n, char *err, size_t errlen)
{
    char path[PATH_MAX];
    err[0] = '\0';
    if (!handoff_enabled())   /* asked for: nothing to say */
        return -1;
    if (!handoff_socket_path(path, sizeof path, err, errlen))
        return -1;
    int fd = connect_unix(path);
    if (fd < 0) {
        if (errno != ENOENT && errno != ECONNREFUSED)   /* else: none runs, or a stale socket */
            snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return -1;
    }
    char line[REPLY_MAX];
    if (!read_line(fd, line, sizeof line, GREETING_TIMEOUT_MS) ||
        strcmp(line, HANDOFF_GREETING) != 0) {
        snprintf(err, errlen, "%s: no hdrtone answers there", path);
        close(fd);
        return -1;
    }
    int status = 0;
    if (!paths_readable(paths, n, err, errlen) || !send_paths(fd, paths, n, err, errlen)) {
        status = 1;
    } else if (!read_line(fd, line, sizeof line, REPLY_TIMEOUT_MS)) {
        snprintf(err, errlen, "%s: the running hdrtone did not answer within %d s", path,
                 REPLY_TIMEOUT_MS / 1000);
        status = 1;
    } else if (strncmp(line, "ok ", 3) != 0) {
        line[strcspn(line, "\n")] = '\0';
        snprintf(err, errlen, "the running hdrtone's window could not show it: %s",
                 strncmp(line, "error ", 6) == 0 ? line + 6 : line);
        status = 1;
    }
    close(fd);
    return status;
}

/* ---------------------------------------------------------------------------------------
 * The server */

/* A client's complete list, until the viewer takes it. */
typedef struct batch {
    char **paths;
    int n;
    unsigned long ticket;
} batch;

/* The viewer's answer to a ticket, until the server thread sends it. */
typedef struct answer {
    unsigned long ticket;
    char text[REPLY_MAX];   /* the whole line, '\n' included; "": ok */
} answer;

struct handoff {
    int fd;                  /* listening, non-blocking */
    int poke[2];             /* a byte written to poke[1] wakes the thread: answers, or stop */
    pthread_t thread;
    bool started;            /* the thread runs: stop joins it */
    pthread_mutex_t lock;    /* guards what follows, to the next blank line */
    bool stopping;
    batch *batches;          /* received, not yet taken, oldest first */
    int nbatches;
    answer *answers;         /* given, not yet sent */
    int nanswers;

    unsigned long tickets;   /* the last ticket given (the thread's own) */
    void (*wake)(void);
    char path[PATH_MAX];
    dev_t dev;               /* the socket file made, to remove only our own */
    ino_t ino;
};

typedef struct client {
    int fd;                  /* -1: free slot */
    char *buf;
    size_t len;
    unsigned long ticket;    /* its list is with the viewer (0: still sending) */
    int npaths;              /* in that list */
    long long deadline;      /* now_ms() after which the client goes (with its ticket: told) */
} client;

/* Binds and listens on PATH, removing a stale socket first. The listening socket, or -1 with
 * the reason in ERR. Runs under the lock file (handoff_listen). */
static int bind_socket(const char *path, bool *taken, char *err, size_t errlen)
{
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    struct sockaddr_un a = unix_address(path);
    for (int attempt = 0; fd >= 0; attempt++) {
        if (bind(fd, (struct sockaddr *)&a, sizeof a) == 0)
            break;
        if (errno != EADDRINUSE || attempt > 0)
            goto fail;
        int probe = connect_unix(path);
        if (probe >= 0) {
            close(probe);
            *taken = true;
            snprintf(err, errlen, "another hdrtone accepts hand-offs on %s", path);
            close(fd);
            return -1;
        }
        struct stat st;
        if (errno != ECONNREFUSED || lstat(path, &st) != 0 || !S_ISSOCK(st.st_mode)) {
            snprintf(err, errlen, "%s is in the way (not a socket hdrtone can remove)", path);
            close(fd);
            return -1;
        }
        if (unlink(path) != 0)   /* stale: its hdrtone is gone */
            goto fail;
    }
    if (fd >= 0 && listen(fd, HANDOFF_MAX_CLIENTS) == 0)
        return fd;
fail:
    snprintf(err, errlen, "%s: %s", path, strerror(errno));
    if (fd >= 0)
        close(fd);
    return -1;
}

static void client_close(client *c)
{
    if (c->fd >= 0)
        close(c->fd);
    free(c->buf);
    *c = (client){.fd = -1};
}

/* A new connection into a free slot, greeted; refused when it is another user's (the folder
 * should keep them out already) or no slot is free. */
static void client_accept(handoff *h, client *cs)
{
    int fd = accept4(h->fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0)
        return;
    struct ucred cred;
    socklen_t len = sizeof cred;
    client *c = NULL;
    for (int i = 0; i < HANDOFF_MAX_CLIENTS && !c; i++)
        c = cs[i].fd < 0 ? &cs[i] : NULL;
    if (!c || getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0 ||
        cred.uid != geteuid() || !send_all(fd, HANDOFF_GREETING, strlen(HANDOFF_GREETING))) {
        close(fd);
        return;
    }
    *c = (client){.fd = fd, .deadline = now_ms() + HANDOFF_CLIENT_TIMEOUT_MS};
}

/* Whether BUF[0..LEN) holds the whole list (its empty path seen); *N = the paths before it. */
static bool list_complete(const char *buf, size_t len, int *n)
{
    *n = 0;
    for (size_t at = 0; at < len;) {
        const char *nul = memchr(buf + at, '\0', len - at);
        if (!nul)
            return false;
        if (nul == buf + at)
            return true;
        (*n)++;
        at = (size_t)(nul - buf) + 1;
    }
    return false;
}

static void free_paths(char **paths, int n)
{
    for (int i = 0; paths && i < n; i++)
        free(paths[i]);
    free(paths);
}

/* Queues the N paths of C's complete list for the viewer under a new ticket; false with the
 * reply for the client in REPLY. */
static bool queue_batch(handoff *h, client *c, int n, const char **reply)
{
    *reply = "error out of memory\n";
    batch b = {.paths = calloc((size_t)n, sizeof *b.paths), .n = n, .ticket = ++h->tickets};
    const char *p = c->buf;
    for (int i = 0; b.paths && i < n; p += strlen(p) + 1, i++) {
        if (p[0] != '/' || strlen(p) >= PATH_MAX)
            *reply = "error a path is not absolute or too long\n";
        if (p[0] != '/' || strlen(p) >= PATH_MAX || !(b.paths[i] = strdup(p))) {
            free_paths(b.paths, i);
            return false;
        }
    }
    pthread_mutex_lock(&h->lock);
    batch *q = b.paths ? realloc(h->batches, (size_t)(h->nbatches + 1) * sizeof *q) : NULL;
    if (q) {
        h->batches = q;
        q[h->nbatches++] = b;
    }
    pthread_mutex_unlock(&h->lock);
    if (!q) {
        free_paths(b.paths, n);
        return false;
    }
    c->ticket = b.ticket;
    c->npaths = n;
    c->deadline = now_ms() + HANDOFF_LOAD_TIMEOUT_MS;
    return true;
}

/* Sends LINE to C and closes it. */
static void client_answer(client *c, const char *line)
{
    send_all(c->fd, line, strlen(line));
    client_close(c);
}

/* Reads what client C sent; once its list is complete, queues it for the viewer (which
 * answers it) or, when it holds no path or cannot be queued, answers and closes. A client
 * waiting for its answer sends nothing more: anything it does (closing included) ends it. */
static void client_read(handoff *h, client *c)
{
    char chunk[4096];
    ssize_t r = recv(c->fd, chunk, sizeof chunk, 0);
    if (r < 0 && (errno == EAGAIN || errno == EINTR))
        return;
    char *b = r > 0 && !c->ticket && c->len + (size_t)r <= HANDOFF_MAX_BYTES
                  ? realloc(c->buf, c->len + (size_t)r)
                  : NULL;
    if (!b) {   /* closed early, failed, too long, or no memory */
        client_close(c);
        return;
    }
    memcpy(b + c->len, chunk, (size_t)r);
    c->buf = b;
    c->len += (size_t)r;
    int n;
    const char *reply;
    if (!list_complete(c->buf, c->len, &n))
        return;
    if (n == 0)
        client_answer(c, "ok 0\n");
    else if (!queue_batch(h, c, n, &reply))
        client_answer(c, reply);
    else if (h->wake)
        h->wake();
}

/* Wakes the thread (a full pipe wakes it as well: the byte is not needed). */
static void poke(handoff *h)
{
    if (write(h->poke[1], "a", 1) != 1) {
    }
}

/* Sends the viewer's answers to their clients (a ticket whose client went is forgotten);
 * false when the thread is to stop. */
static bool send_answers(handoff *h, client *cs)
{
    char bytes[64];
    while (read(h->poke[0], bytes, sizeof bytes) == (ssize_t)sizeof bytes) {
    }
    pthread_mutex_lock(&h->lock);
    answer *as = h->answers;
    int n = h->nanswers;
    bool stopping = h->stopping;
    h->answers = NULL;
    h->nanswers = 0;
    pthread_mutex_unlock(&h->lock);
    for (int k = 0; k < n; k++)
        for (int i = 0; i < HANDOFF_MAX_CLIENTS; i++)
            if (cs[i].fd >= 0 && cs[i].ticket == as[k].ticket) {
                if (!as[k].text[0])
                    snprintf(as[k].text, sizeof as[k].text, "ok %d\n", cs[i].npaths);
                client_answer(&cs[i], as[k].text);
            }
    free(as);
    return !stopping;
}

/* How long poll may wait: until the nearest client's deadline (-1: none). */
static int poll_timeout(const client *cs)
{
    long long next = -1, now = now_ms();
    for (int i = 0; i < HANDOFF_MAX_CLIENTS; i++)
        if (cs[i].fd >= 0 && (next < 0 || cs[i].deadline < next))
            next = cs[i].deadline;
    return next < 0 ? -1 : next <= now ? 0 : (int)(next - now);
}

static void *serve(void *arg)
{
    handoff *h = arg;
    char load_timeout_reply[96];   /* to a client whose list the viewer has not answered */
    snprintf(load_timeout_reply, sizeof load_timeout_reply,
             "error its load took more than %d s (it may show it later)\n",
             HANDOFF_LOAD_TIMEOUT_MS / 1000);
    client cs[HANDOFF_MAX_CLIENTS];
    for (int i = 0; i < HANDOFF_MAX_CLIENTS; i++)
        cs[i] = (client){.fd = -1};
    for (;;) {
        struct pollfd p[2 + HANDOFF_MAX_CLIENTS] = {{h->poke[0], POLLIN, 0}, {h->fd, POLLIN, 0}};
        for (int i = 0; i < HANDOFF_MAX_CLIENTS; i++)
            p[2 + i] = (struct pollfd){cs[i].fd, POLLIN, 0};   /* fd -1 is skipped */
        if (poll(p, 2 + HANDOFF_MAX_CLIENTS, poll_timeout(cs)) < 0 && errno != EINTR)
            break;
        if (p[0].revents && !send_answers(h, cs))
            break;
        for (int i = 0; i < HANDOFF_MAX_CLIENTS; i++)
            if (cs[i].fd >= 0 && p[2 + i].revents)
                client_read(h, &cs[i]);
        if (p[1].revents & POLLIN)
            client_accept(h, cs);
        long long now = now_ms();
        for (int i = 0; i < HANDOFF_MAX_CLIENTS; i++)
            if (cs[i].fd >= 0 && now >= cs[i].deadline && cs[i].ticket)
                client_answer(&cs[i], load_timeout_reply);
            else if (cs[i].fd >= 0 && now >= cs[i].deadline)
                client_close(&cs[i]);
    }
    for (int i = 0; i < HANDOFF_MAX_CLIENTS; i++)
        client_close(&cs[i]);
    return NULL;
}

/* The socket bound and listening under the lock file beside it; false with ERR. */
static bool listen_locked(handoff *h, bool *taken, char *err, size_t errlen)
{
    char lock[PATH_MAX + sizeof LOCK_NAME];
    snprintf(lock, sizeof lock, "%.*s/%s", (int)(strrchr(h->path, '/') - h->path), h->path,
             LOCK_NAME);
    int lk = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (lk < 0 || flock(lk, LOCK_EX) != 0) {
        snprintf(err, errlen, "%s: %s", lock, strerror(errno));
        if (lk >= 0)
            close(lk);
        return false;
    }
    h->fd = bind_socket(h->path, taken, err, errlen);
    struct stat st;
    if (h->fd >= 0 && lstat(h->path, &st) == 0) {
        h->dev = st.st_dev;
        h->ino = st.st_ino;
    }
    close(lk);   /* and with it the lock */
    return h->fd >= 0;
}

handoff *handoff_listen(void (*wake)(void), bool *quiet, char *err, size_t errlen)
{
    bool taken = false;
    *quiet = !handoff_enabled();
    handoff *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    h->fd = h->poke[0] = h->poke[1] = -1;
    h->wake = wake;
    if (!handoff_socket_path(h->path, sizeof h->path, err, errlen) ||
        !listen_locked(h, &taken, err, errlen)) {
        *quiet |= taken;
        free(h);
        return NULL;
    }
    pthread_mutex_init(&h->lock, NULL);
    h->started = pipe2(h->poke, O_CLOEXEC | O_NONBLOCK) == 0 &&
                 pthread_create(&h->thread, NULL, serve, h) == 0;
    if (!h->started) {
        snprintf(err, errlen, "cannot start the hand-off thread: %s", strerror(errno));
        handoff_stop(&h);
        return NULL;
    }
    return h;
}

int handoff_take(handoff *h, char ***paths, unsigned long *ticket)
{
    pthread_mutex_lock(&h->lock);
    batch b = h->nbatches > 0 ? h->batches[0] : (batch){0};
    if (h->nbatches > 0)
        memmove(h->batches, h->batches + 1, (size_t)--h->nbatches * sizeof *h->batches);
    pthread_mutex_unlock(&h->lock);
    *paths = b.paths;
    *ticket = b.ticket;
    return b.n;
}

void handoff_reply(handoff *h, unsigned long ticket, const char *error)
{
    answer a = {.ticket = ticket};
    if (error) {   /* one line, cut to fit */
        snprintf(a.text, sizeof a.text - 1, "error %s", error);
        for (char *c = a.text; *c; c++)
            *c = *c == '\n' || *c == '\r' ? ' ' : *c;
        strcat(a.text, "\n");
    }
    pthread_mutex_lock(&h->lock);
    answer *q = realloc(h->answers, (size_t)(h->nanswers + 1) * sizeof *q);
    if (q) {   /* else the client hears the timeout */
        h->answers = q;
        q[h->nanswers++] = a;
    }
    pthread_mutex_unlock(&h->lock);
    poke(h);
}

const char *handoff_path(const handoff *h) { return h->path; }

void handoff_stop(handoff **hp)
{
    handoff *h = hp ? *hp : NULL;
    if (!h)
        return;
    if (h->started) {
        pthread_mutex_lock(&h->lock);
        h->stopping = true;
        pthread_mutex_unlock(&h->lock);
        poke(h);
        pthread_join(h->thread, NULL);
    }
    struct stat st;
    if (lstat(h->path, &st) == 0 && st.st_dev == h->dev && st.st_ino == h->ino)
        unlink(h->path);   /* ours still: a later hdrtone may have replaced a stale one */
    for (int i = 0; i < 2; i++)
        if (h->poke[i] >= 0)
            close(h->poke[i]);
    close(h->fd);
    for (int i = 0; i < h->nbatches; i++)
        free_paths(h->batches[i].paths, h->batches[i].n);
    free(h->batches);
    free(h->answers);
    pthread_mutex_destroy(&h->lock);
    free(h);
    *hp = NULL;
}
