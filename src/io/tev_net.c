/* The client side of tev's protocol and the "[HOST:]PORT" syntax. */
#define _POSIX_C_SOURCE 200809L /* getaddrinfo */
#include "tev_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

bool tev_parse_listen(const char *spec, char *host, size_t hostlen, int *port, char *err,
                      size_t errlen)
{
    const char *p = spec, *colon = strrchr(spec, ':');
    size_t hl = 0;
    bool bracketed = spec[0] == '[';
    if (bracketed) {   /* [v6 address]:port */
        const char *close = strchr(spec, ']');
        if (!close || close[1] != ':') {
            snprintf(err, errlen, "'%.80s': expected [ADDRESS]:PORT", spec);
            return false;
        }
        hl = (size_t)(close - spec - 1);
        spec++;
        p = close + 2;
    } else if (colon) {
        hl = (size_t)(colon - spec);
        p = colon + 1;
    }
    if (!bracketed && memchr(spec, ':', hl)) {
        snprintf(err, errlen, "'%.80s': an IPv6 address needs brackets, as in [::1]:14158",
                 spec);
        return false;
    }
    char *end;
    errno = 0;
    long v = strtol(p, &end, 10);
    if (!*p || *end || errno || v < 0 || v > 65535 || *p == '-' || *p == '+' || *p == ' ') {
        snprintf(err, errlen, "'%.80s': expected [HOST:]PORT with PORT in 0..65535", spec);
        return false;
    }
    if (hl + 1 > hostlen) {
        snprintf(err, errlen, "'%.80s': host name too long", spec);
        return false;
    }
    if (hl)
        snprintf(host, hostlen, "%.*s", (int)hl, spec);
    else
        snprintf(host, hostlen, "%s", TEV_DEFAULT_HOST);
    *port = (int)v;
    return true;
}

static int elapsed_ms(const struct timespec *t0)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int)((t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000);
}

/* Connects FD to AI within TIMEOUT_MS; leaves FD blocking. Returns 0 or an errno value. */
static int connect_within(int fd, const struct addrinfo *ai, int timeout_ms)
{
    int flags = fcntl(fd, F_GETFL, 0);
    fcntl(fd, F_SETFL, flags | O_NONBLOCK);
    int e = 0;
    if (connect(fd, ai->ai_addr, ai->ai_addrlen) != 0) {
        e = errno;
        if (e == EINPROGRESS) {
            struct pollfd pfd = {fd, POLLOUT, 0};
            int r = poll(&pfd, 1, timeout_ms);
            socklen_t len = sizeof e;
            if (r <= 0)
                e = r == 0 ? ETIMEDOUT : errno;
            else if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &len) != 0)
                e = errno;
        }
    }
    fcntl(fd, F_SETFL, flags);
    return e;
}

struct addrinfo *tev_resolve(const char *host, int port, bool passive, char *err,
                             size_t errlen)
{
    char ps[16];
    snprintf(ps, sizeof ps, "%d", port);
    struct addrinfo hints, *res = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0);
    int gai = getaddrinfo(host, ps, &hints, &res);
    if (gai != 0) {
        snprintf(err, errlen, "%.80s: %s", host, gai_strerror(gai));
        return NULL;
    }
    return res;
}

int tev_connect(const char *host, int port, int timeout_ms, char *err, size_t errlen)
{
    struct addrinfo *res = tev_resolve(host, port, false, err, errlen);
    if (!res)
        return -1;
    int fd = -1, e = 0;
    for (struct addrinfo *ai = res; ai && fd < 0; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
        if (fd < 0) {
            e = errno;
            continue;
        }
        if ((e = connect_within(fd, ai, timeout_ms)) != 0) {
            close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(res);
    if (fd < 0 && e == ECONNREFUSED)
        snprintf(err, errlen, "nothing listens on %.80s:%d", host, port);
    else if (fd < 0)
        snprintf(err, errlen, "cannot connect to %.80s:%d: %s", host, port, strerror(e));
    return fd;
}

bool tev_send_all(int fd, const void *bytes, size_t size, char *err, size_t errlen)
{
    const uint8_t *b = bytes;
    while (size) {
        ssize_t n = send(fd, b, size, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            snprintf(err, errlen, "send failed: %s", n < 0 ? strerror(errno) : "closed");
            return false;
        }
        b += n;
        size -= (size_t)n;
    }
    return true;
}

/* PATH made absolute against the working directory (malloc'd), or NULL. */
static char *absolute_path(const char *path)
{
    char cwd[PATH_MAX];
    if (path[0] == '/' || !getcwd(cwd, sizeof cwd)) {
        char *d = malloc(strlen(path) + 1);
        return d ? strcpy(d, path) : NULL;
    }
    size_t n = strlen(cwd) + strlen(path) + 2;
    char *d = malloc(n);
    if (d)
        snprintf(d, n, "%s/%s", cwd, path);
    return d;
}

bool tev_send_open(const char *host, int port, const char *path, char *err, size_t errlen)
{
    char *abs = absolute_path(path);
    if (!abs) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    tev_packet p;
    memset(&p, 0, sizeof p);
    p.type = TEV_OPEN_IMAGE;
    p.grab_focus = true;
    p.name = (tev_str){abs, strlen(abs)};
    p.selector = (tev_str){"", 0};
    uint8_t *bytes;
    size_t size;
    bool ok = tev_serialize(&p, &bytes, &size, err, errlen);
    free(abs);
    if (!ok)
        return false;
    int fd = tev_connect(host, port, 2000, err, errlen);
    ok = fd >= 0 && tev_send_all(fd, bytes, size, err, errlen);
    free(bytes);
    if (!ok) {
        if (fd >= 0)
            close(fd);
        return false;
    }
    /* Wait for the server to close its side: then it has read the packet. */
    shutdown(fd, SHUT_WR);
    struct timespec t0;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    char sink[256];
    for (int left = 2000; left > 0; left = 2000 - elapsed_ms(&t0)) {
        struct pollfd pfd = {fd, POLLIN, 0};
        if (poll(&pfd, 1, left) <= 0 || recv(fd, sink, sizeof sink, 0) <= 0)
            break;
    }
    close(fd);
    return true;
}
