/* The listening side of tev's protocol: one thread, poll() over non-blocking sockets. */
#define _POSIX_C_SOURCE 200809L /* getaddrinfo, getnameinfo */
#include "tev_server.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "tev_internal.h"

/* Smallest receive buffer; buffers grow by doubling towards the packet being received. */
#define BUF_MIN ((size_t)64 << 10)
/* A buffer this large is given back when it empties, so a one-off huge tile does not keep
 * its memory for the life of the connection. */
#define BUF_KEEP_MAX ((size_t)16 << 20)
/* Bytes read from one client before the others get their turn. */
#define ROUND_BUDGET ((size_t)16 << 20)

typedef struct conn {
    int fd;
    char who[80];             /* "address:port" of the client */
    uint8_t *buf;
    size_t fill, cap;
} conn;

struct tev_server {
    int listen_fd;
    int wake[2];              /* a byte written to wake[1] stops the thread */
    int port;
    int max_conn;
    tev_limits lim;
    tev_store store;
    conn conns[TEV_MAX_CONNECTIONS];
    int nconn;                /* used by the thread only */
    atomic_int connected;     /* nconn, for other threads */
    pthread_t thread;
};

static void describe_addr(const struct sockaddr *a, socklen_t len, char *out, size_t outlen)
{
    char host[64], serv[16];
    if (getnameinfo(a, len, host, sizeof host, serv, sizeof serv,
                    NI_NUMERICHOST | NI_NUMERICSERV) != 0)
        snprintf(out, outlen, "(unknown address)");
    else
        snprintf(out, outlen, a->sa_family == AF_INET6 ? "[%s]:%s" : "%s:%s", host, serv);
}

static bool is_loopback(const struct sockaddr *a)
{
    if (a->sa_family == AF_INET) {
        const uint8_t *ip = (const uint8_t *)&((const struct sockaddr_in *)a)->sin_addr;
        return ip[0] == 127;
    }
    if (a->sa_family == AF_INET6) {
        const struct in6_addr *ip = &((const struct sockaddr_in6 *)a)->sin6_addr;
        static const uint8_t v4mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
        return IN6_IS_ADDR_LOOPBACK(ip) ||
               (memcmp(ip->s6_addr, v4mapped, 12) == 0 && ip->s6_addr[12] == 127);
    }
    return false;
}

static bool set_nonblocking(int fd)
{
    int flags = fcntl(fd, F_GETFL, 0);
    return flags >= 0 && fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0;
}

/* Binds and listens on HOST:PORT; fills s->listen_fd and s->port. */
static bool bind_listen(tev_server *s, const char *host, int port, char *warn, size_t warnlen,
                        char *err, size_t errlen)
{
    char why[256];
    struct addrinfo *res = tev_resolve(host, port, true, why, sizeof why);
    if (!res) {
        snprintf(err, errlen, "cannot listen on %.80s:%d: %s", host, port, why);
        return false;
    }
    int e = 0;
    s->listen_fd = -1;
    for (struct addrinfo *ai = res; ai && s->listen_fd < 0; ai = ai->ai_next) {
        int fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
        int one = 1;
        if (fd >= 0 && setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) == 0 &&
            bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 && listen(fd, 32) == 0 &&
            set_nonblocking(fd)) {
            s->listen_fd = fd;
            break;
        }
        e = errno;
        if (fd >= 0)
            close(fd);
    }
    freeaddrinfo(res);
    if (s->listen_fd < 0) {
        snprintf(err, errlen, "cannot listen on %.80s:%d: %s", host, port, strerror(e));
        return false;
    }
    struct sockaddr_storage a;
    socklen_t len = sizeof a;
    getsockname(s->listen_fd, (struct sockaddr *)&a, &len);
    s->port = ntohs(a.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&a)->sin6_port
                                            : ((struct sockaddr_in *)&a)->sin_port);
    warn[0] = '\0';
    if (!is_loopback((struct sockaddr *)&a)) {
        char where[96];
        describe_addr((struct sockaddr *)&a, len, where, sizeof where);
        snprintf(warn, warnlen, "listening on %s, which is not a loopback address: anyone who "
                 "can reach it can open files and send images (the protocol has no "
                 "authentication)", where);
    }
    return true;
}

/* ---- connections (server thread) ---- */

static void close_conn(tev_server *s, int i)
{
    conn *c = &s->conns[i];
    close(c->fd);
    free(c->buf);
    s->conns[i] = s->conns[--s->nconn];
    atomic_store(&s->connected, s->nconn);
}

/* Room for more bytes of a packet of WANT bytes (4 while its length is unknown). */
static bool grow(conn *c, size_t want)
{
    if (c->fill < c->cap)
        return true;
    size_t cap = c->cap * 2 > BUF_MIN ? c->cap * 2 : BUF_MIN;
    size_t most = want > BUF_MIN ? want : BUF_MIN;
    cap = cap < most ? cap : most;
    uint8_t *b = realloc(c->buf, cap);
    if (!b)
        return false;
    c->buf = b;
    c->cap = cap;
    return true;
}

/* Handles every whole packet in C's buffer. False (message queued) on a malformed one. */
static bool process(tev_server *s, conn *c)
{
    size_t done = 0;
    char err[512];
    bool ok = true;
    while (c->fill - done >= 4) {
        uint32_t len;
        tev_packet p;
        ok = tev_check_length(c->buf + done, c->fill - done, &s->lim, &len, err, sizeof err);
        if (!ok || len > c->fill - done)
            break;
        ok = tev_parse(c->buf + done, len, &s->lim, &p, err, sizeof err);
        if (!ok)
            break;
        tev_store_apply(&s->store, &p, c->who);
        done += len;
    }
    if (!ok) {
        tev_store_message(&s->store, "client %s: %s; connection closed", c->who, err);
        return false;
    }
    memmove(c->buf, c->buf + done, c->fill - done);
    c->fill -= done;
    if (!c->fill && c->cap > BUF_KEEP_MAX) {
        free(c->buf);
        c->buf = NULL;
        c->cap = 0;
    }
    return true;
}

/* Reads what client C has sent (up to ROUND_BUDGET bytes). False when it is to be closed. */
static bool service(tev_server *s, conn *c)
{
    char err[512];
    for (size_t budget = ROUND_BUDGET; budget;) {
        uint32_t want = 4;
        if (c->fill >= 4 && !tev_check_length(c->buf, c->fill, &s->lim, &want, err,
                                              sizeof err)) {
            tev_store_message(&s->store, "client %s: %s; connection closed", c->who, err);
            return false;
        }
        if (!grow(c, want)) {
            tev_store_message(&s->store, "client %s: out of memory for a packet of %u bytes; "
                              "connection closed", c->who, (unsigned)want);
            return false;
        }
        ssize_t n = recv(c->fd, c->buf + c->fill, c->cap - c->fill, 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return true;
        if (n <= 0) {
            if (n < 0)
                tev_store_message(&s->store, "client %s: %s; connection closed", c->who,
                                  strerror(errno));
            else if (c->fill)
                tev_store_message(&s->store, "client %s disconnected inside a packet (%zu of "
                                  "%u bytes)", c->who, c->fill, (unsigned)want);
            else
                tev_store_message(&s->store, "client %s disconnected", c->who);
            return false;
        }
        c->fill += (size_t)n;
        budget -= (size_t)n < budget ? (size_t)n : budget;
        if (!process(s, c))
            return false;
    }
    return true;
}

static void accept_all(tev_server *s)
{
    for (;;) {
        struct sockaddr_storage a;
        socklen_t len = sizeof a;
        int fd = accept(s->listen_fd, (struct sockaddr *)&a, &len);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED)
                continue;
            if (errno != EAGAIN && errno != EWOULDBLOCK)
                tev_store_message(&s->store, "accepting a client failed: %s", strerror(errno));
            return;
        }
        char who[80];
        describe_addr((struct sockaddr *)&a, len, who, sizeof who);
        if (s->nconn >= s->max_conn || !set_nonblocking(fd)) {
            static const char refusal[] = "hdrtone: too many connections\n";
            send(fd, refusal, sizeof refusal - 1, MSG_NOSIGNAL | MSG_DONTWAIT);
            close(fd);
            tev_store_message(&s->store, "client %s refused: %d connections are open (the "
                              "limit)", who, s->nconn);
            continue;
        }
        conn *c = &s->conns[s->nconn++];
        memset(c, 0, sizeof *c);
        c->fd = fd;
        snprintf(c->who, sizeof c->who, "%s", who);
        atomic_store(&s->connected, s->nconn);
        tev_store_message(&s->store, "client %s connected (%d open)", who, s->nconn);
    }
}

static void *run(void *arg)
{
    tev_server *s = arg;
    struct pollfd fds[2 + TEV_MAX_CONNECTIONS];
    for (;;) {
        int n = 0;
        fds[n++] = (struct pollfd){s->wake[0], POLLIN, 0};
        fds[n++] = (struct pollfd){s->listen_fd, POLLIN, 0};
        for (int i = 0; i < s->nconn; i++)
            fds[n++] = (struct pollfd){s->conns[i].fd, POLLIN, 0};
        if (poll(fds, (nfds_t)n, -1) < 0) {
            if (errno == EINTR)
                continue;
            tev_store_message(&s->store, "server stopped: poll failed: %s", strerror(errno));
            break;
        }
        if (fds[0].revents)
            break;
        /* Backwards: closing connection i moves the last one, already served, into i. */
        for (int i = s->nconn - 1; i >= 0; i--)
            if (fds[2 + i].revents && !service(s, &s->conns[i]))
                close_conn(s, i);
        if (fds[1].revents & POLLIN)
            accept_all(s);
    }
    return NULL;
}

/* ---- the public side ---- */

tev_server *tev_server_start(const tev_server_options *opts, char *warn, size_t warnlen,
                             char *err, size_t errlen)
{
    tev_server_options o = opts ? *opts : (tev_server_options){0};
    char host[256];
    int port;
    if (warnlen)
        warn[0] = '\0';
    if (!o.listen) {
        snprintf(host, sizeof host, "%s", TEV_DEFAULT_HOST);
        port = TEV_DEFAULT_PORT;
    } else if (!tev_parse_listen(o.listen, host, sizeof host, &port, err, errlen)) {
        return NULL;
    }
    if (o.max_connections < 0 || o.max_connections > TEV_MAX_CONNECTIONS) {
        snprintf(err, errlen, "max_connections %d is outside 1..%d", o.max_connections,
                 TEV_MAX_CONNECTIONS);
        return NULL;
    }
    tev_server *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    s->max_conn = o.max_connections ? o.max_connections : TEV_MAX_CONNECTIONS;
    s->lim.max_pixels = o.max_pixels ? o.max_pixels : HT_DEFAULT_MAX_PIXELS;
    s->lim.max_packet = tev_max_packet(s->lim.max_pixels);
    s->wake[0] = s->wake[1] = -1;
    if (!tev_store_init(&s->store, s->lim.max_pixels, o.layer)) {
        snprintf(err, errlen, "out of memory");
        free(s);
        return NULL;
    }
    bool ok = bind_listen(s, host, port, warn, warnlen, err, errlen);
    if (ok && pipe(s->wake) != 0) {
        snprintf(err, errlen, "pipe: %s", strerror(errno));
        ok = false;
    }
    if (ok && pthread_create(&s->thread, NULL, run, s) != 0) {
        snprintf(err, errlen, "cannot start the server thread");
        ok = false;
    }
    if (!ok) {
        if (s->listen_fd >= 0)
            close(s->listen_fd);
        for (int k = 0; k < 2; k++)
            if (s->wake[k] >= 0)
                close(s->wake[k]);
        tev_store_free(&s->store);
        free(s);
        return NULL;
    }
    return s;
}

int tev_server_port(const tev_server *s)
{
    return s->port;
}

int tev_server_connections(tev_server *s)
{
    return atomic_load(&s->connected);
}

size_t tev_server_drain(tev_server *s, tev_event **events)
{
    return tev_store_drain(&s->store, events);
}

bool tev_server_copy_image(tev_server *s, const char *name, hdr_image *img, char *err,
                           size_t errlen)
{
    return tev_store_copy(&s->store, name, img, err, errlen);
}

void tev_server_stop(tev_server **sp)
{
    tev_server *s = sp ? *sp : NULL;
    if (!s)
        return;
    while (write(s->wake[1], "x", 1) < 0 && errno == EINTR) {
    }
    pthread_join(s->thread, NULL);
    while (s->nconn)
        close_conn(s, s->nconn - 1);
    close(s->listen_fd);
    close(s->wake[0]);
    close(s->wake[1]);
    tev_store_free(&s->store);
    free(s);
    *sp = NULL;
}
