/* tev's protocol server on 127.0.0.1 with an ephemeral port: created images receive tiles in
 * every layout; 16 connections are served and more refused; a malformed client is closed
 * while others go on; a client stalled inside a packet blocks nobody; floods of updates and
 * events stay bounded; tev_send_open hands a file over. Every wait is bounded (5 s). */
#define _POSIX_C_SOURCE 200809L
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "tev_server.h"
#include "testutil.h"

#define S(lit) ((tev_str){lit, sizeof lit - 1})
#define WAIT_MS 5000

/* Every event drained so far, in order. */
static tev_event *log_ev;
static size_t log_n;

static void drain(tev_server *s)
{
    tev_event *ev;
    size_t n = tev_server_drain(s, &ev);
    log_ev = realloc(log_ev, (log_n + n + 1) * sizeof *log_ev);
    if (n)
        memcpy(log_ev + log_n, ev, n * sizeof *ev);
    log_n += n;
    free(ev);   /* the strings now belong to the log */
}

static void log_clear(void)
{
    tev_events_free(log_ev, log_n);
    log_ev = NULL;
    log_n = 0;
}

/* Index of the first logged event of KIND whose name is NAME (NULL: any) and whose text
 * contains TEXT (NULL: any), -1 when none. */
static int find_ev(tev_event_kind kind, const char *name, const char *text)
{
    for (size_t i = 0; i < log_n; i++)
        if (log_ev[i].kind == kind && (!name || strcmp(log_ev[i].name, name) == 0) &&
            (!text || strstr(log_ev[i].text, text)))
            return (int)i;
    return -1;
}

static int count_ev(tev_event_kind kind, const char *text)
{
    int n = 0;
    for (size_t i = 0; i < log_n; i++)
        n += log_ev[i].kind == kind && (!text || strstr(log_ev[i].text, text));
    return n;
}

static void sleep_ms(int ms)
{
    struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&t, NULL);
}

/* Drains until such an event is logged or WAIT_MS pass. */
static bool wait_ev(tev_server *s, tev_event_kind kind, const char *name, const char *text)
{
    for (int t = 0; t < WAIT_MS; t += 5) {
        drain(s);
        if (find_ev(kind, name, text) >= 0)
            return true;
        sleep_ms(5);
    }
    return false;
}

static bool wait_connections(tev_server *s, int n)
{
    for (int t = 0; t < WAIT_MS && tev_server_connections(s) != n; t += 5)
        sleep_ms(5);
    return tev_server_connections(s) == n;
}

static int connect_to(tev_server *s)
{
    char err[256];
    int fd = tev_connect("127.0.0.1", tev_server_port(s), WAIT_MS, err, sizeof err);
    CHECK(fd >= 0, "connect: %s", err);
    return fd;
}

static void send_packet(int fd, const tev_packet *p)
{
    uint8_t *b;
    size_t n;
    char err[256];
    CHECK(tev_serialize(p, &b, &n, err, sizeof err), "%s", err);
    CHECK(tev_send_all(fd, b, n, err, sizeof err), "%s", err);
    free(b);
}

/* True when FD is closed by the server (EOF) within WAIT_MS. */
static bool closed_by_server(int fd, int wait_ms)
{
    char buf[256];
    for (;;) {
        struct pollfd p = {fd, POLLIN, 0};
        if (poll(&p, 1, wait_ms) <= 0)
            return false;
        ssize_t n = recv(fd, buf, sizeof buf, 0);
        if (n <= 0)
            return true;
    }
}

static tev_packet create_packet(const char *name, int w, int h, int nch, const char **chans)
{
    tev_packet p;
    memset(&p, 0, sizeof p);
    p.type = TEV_CREATE_IMAGE;
    p.name = (tev_str){name, strlen(name)};
    p.width = w;
    p.height = h;
    p.channel_count = nch;
    for (int c = 0; c < nch; c++)
        p.channels[c] = (tev_str){chans[c], strlen(chans[c])};
    return p;
}

static const char *RGBA[] = {"R", "G", "B", "A"};

/* Interleaved RGBA tile (layout 6) with value(x, y, c) = 1000 c + 100 y + x + BASE. */
static uint8_t tile_bytes[64 * 64 * 4 * 4];

static tev_packet rgba_tile(const char *name, int x, int y, int w, int h, float base)
{
    tev_packet p;
    memset(&p, 0, sizeof p);
    p.type = TEV_UPDATE_IMAGE;
    p.name = (tev_str){name, strlen(name)};
    p.x = x, p.y = y, p.width = w, p.height = h;
    p.channel_count = 4;
    for (int c = 0; c < 4; c++) {
        p.channels[c] = (tev_str){RGBA[c], 1};
        p.offsets[c] = c;
        p.strides[c] = 4;
    }
    for (int ty = 0; ty < h; ty++)
        for (int tx = 0; tx < w; tx++)
            for (int c = 0; c < 4; c++) {
                float v = 1000.0f * c + 100.0f * (y + ty) + (float)(x + tx) + base;
                memcpy(tile_bytes + 4 * (4 * ((size_t)ty * w + tx) + c), &v, 4);
            }
    p.data = tile_bytes;
    p.data_floats = (size_t)w * h * 4;
    return p;
}

static float stored(const hdr_image *img, int x, int y, int c)
{
    return img->rgba[4 * ((size_t)y * img->width + x) + c];
}

static tev_server *start(const char *listen, uint64_t max_pixels, const char *layer)
{
    tev_server_options o = {listen, max_pixels, 0, layer};
    char warn[256], err[256];
    tev_server *s = tev_server_start(&o, warn, sizeof warn, err, sizeof err);
    CHECK(s, "start %s: %s", listen, err);
    CHECK(!s || warn[0] == '\0', "loopback warned: %s", warn);
    if (!s)
        exit(test_finish("test_tev_server"));
    return s;
}

static void test_listen_specs(void)
{
    char host[64], err[256];
    int port;
    CHECK(tev_parse_listen("14158", host, sizeof host, &port, err, sizeof err) &&
          strcmp(host, "127.0.0.1") == 0 && port == 14158, "PORT");
    CHECK(tev_parse_listen("0.0.0.0:99", host, sizeof host, &port, err, sizeof err) &&
          strcmp(host, "0.0.0.0") == 0 && port == 99, "HOST:PORT");
    CHECK(tev_parse_listen("[::1]:7", host, sizeof host, &port, err, sizeof err) &&
          strcmp(host, "::1") == 0 && port == 7, "[V6]:PORT");
    const char *bad[] = {"", "host", "host:", "1:2:3", "65536", "-1", "[::1]", "x:+5", "12a"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(!tev_parse_listen(bad[i], host, sizeof host, &port, err, sizeof err) && err[0],
              "'%s' accepted", bad[i]);
    /* Any address but loopback is served with a warning. */
    tev_server_options o = {"0.0.0.0:0", 0, 0, NULL};
    char warn[256];
    tev_server *s = tev_server_start(&o, warn, sizeof warn, err, sizeof err);
    CHECK(s && strstr(warn, "not a loopback address"), "0.0.0.0: '%s' %s", warn, err);
    tev_server_stop(&s);
    CHECK(s == NULL, "stop clears the pointer");
    tev_server_stop(&s);
    o.listen = "nonsense:1:2";
    CHECK(!tev_server_start(&o, warn, sizeof warn, err, sizeof err) && err[0], "bad spec");
}

static void test_create_and_update(tev_server *s)
{
    int fd = connect_to(s);
    tev_packet p = create_packet("img", 40, 30, 4, RGBA);
    p.grab_focus = true;
    send_packet(fd, &p);
    p = rgba_tile("img", 8, 4, 16, 8, 0.5f);
    send_packet(fd, &p);
    /* Layout 5 (planar G, B) and layout 3 (R alone) over part of the same tile. */
    float planar[2 * 6];
    for (int i = 0; i < 12; i++)
        planar[i] = -1.0f - (float)i;
    tev_packet q;
    memset(&q, 0, sizeof q);
    q.type = TEV_UPDATE_IMAGE_V2;
    q.name = S("img");
    q.x = 30, q.y = 20, q.width = 3, q.height = 2;
    q.channel_count = 2;
    q.channels[0] = S("G");
    q.channels[1] = S("B");
    q.data = (const uint8_t *)planar;   /* little-endian machine: floats as they are */
    q.data_floats = 12;
    send_packet(fd, &q);
    q.type = TEV_UPDATE_IMAGE_V1;
    q.channel_count = 1;
    q.channels[0] = S("R");
    q.data_floats = 6;
    send_packet(fd, &q);
    /* A channel the image lacks is ignored; the tile still counts as a change. */
    q.channels[0] = S("Z");
    send_packet(fd, &q);
    CHECK(wait_ev(s, TEV_EVENT_CREATED, "img", NULL), "no CREATED event");
    int ci = find_ev(TEV_EVENT_CREATED, "img", NULL);
    CHECK(ci >= 0 && log_ev[ci].grab_focus, "CreateImage grab focus lost");
    close(fd);
    CHECK(wait_ev(s, TEV_EVENT_MESSAGE, NULL, "disconnected"), "no disconnect message");
    int k = find_ev(TEV_EVENT_CHANGED, "img", NULL);
    /* Changes after the creation merge into it (copied whole) or into one change. */
    CHECK(count_ev(TEV_EVENT_CHANGED, NULL) <= 1, "%d changes", count_ev(TEV_EVENT_CHANGED,
          NULL));
    CHECK(k < 0 || (log_ev[k].rect[0] <= 8 && log_ev[k].rect[2] >= 33), "change rectangle");
    hdr_image img;
    char err[256];
    CHECK(tev_server_copy_image(s, "img", &img, err, sizeof err), "%s", err);
    if (!img.rgba)
        return;
    CHECK(img.width == 40 && img.height == 30 && strcmp(img.format, "tev") == 0, "header");
    CHECK(strcmp(img.rgb_source, "R,G,B") == 0, "rgb_source %s", img.rgb_source);
    CHECK(stored(&img, 9, 5, 0) == 509.5f && stored(&img, 23, 11, 2) == 2000 + 1100 + 23.5f,
          "tile pixels %g %g", stored(&img, 9, 5, 0), stored(&img, 23, 11, 2));
    CHECK(stored(&img, 0, 0, 0) == 0 && stored(&img, 0, 0, 3) == 1, "untouched pixel");
    CHECK(stored(&img, 31, 21, 1) == -5 && stored(&img, 31, 21, 2) == -11 &&
          stored(&img, 31, 21, 0) == -5, "planar and single-channel tiles: %g %g %g",
          stored(&img, 31, 21, 0), stored(&img, 31, 21, 1), stored(&img, 31, 21, 2));
    image_free(&img);
    log_clear();
}

/* Updates that cannot apply are refused with a message; the connection stays open. */
static void test_bad_updates(tev_server *s)
{
    int fd = connect_to(s);
    tev_packet p = rgba_tile("nobody", 0, 0, 2, 2, 0);
    send_packet(fd, &p);
    p = rgba_tile("img", 30, 25, 16, 8, 0);   /* runs past 40 x 30 */
    send_packet(fd, &p);
    tev_packet v;
    memset(&v, 0, sizeof v);
    v.type = TEV_VECTOR_GRAPHICS;
    v.name = S("img");
    send_packet(fd, &v);
    CHECK(wait_ev(s, TEV_EVENT_MESSAGE, NULL, "no such image"), "unknown image");
    CHECK(wait_ev(s, TEV_EVENT_MESSAGE, NULL, "lies outside its 40 x 30"), "tile outside");
    CHECK(wait_ev(s, TEV_EVENT_MESSAGE, NULL, "vector graphics"), "vector graphics");
    CHECK(!closed_by_server(fd, 50), "connection closed for a refused update");
    close(fd);
    log_clear();
}

/* A good client's packets reach the store: a fresh image NAME with one tile, checked. */
static void serve_good_client(tev_server *s, const char *name, const char *what)
{
    int fd = connect_to(s);
    tev_packet p = create_packet(name, 8, 8, 4, RGBA);
    send_packet(fd, &p);
    p = rgba_tile(name, 2, 3, 4, 4, 0.25f);
    send_packet(fd, &p);
    close(fd);
    char msg[64];
    snprintf(msg, sizeof msg, "%s", "disconnected");
    CHECK(wait_ev(s, TEV_EVENT_CREATED, name, NULL), "%s: not created", what);
    hdr_image img;
    char err[256];
    for (int t = 0; t < WAIT_MS; t += 5) {
        CHECK(tev_server_copy_image(s, name, &img, err, sizeof err), "%s: %s", what, err);
        bool done = img.rgba && stored(&img, 5, 6, 1) == 1000 + 600 + 5.25f;
        image_free(&img);
        if (done)
            return;
        sleep_ms(5);
    }
    CHECK(false, "%s: the tile never arrived", what);
}

/* 20 idle connections: 16 held, 4 refused (closed, with a message each); with one idle
 * connection gone, a good client is served while 15 idle ones stay. */
static void test_connection_limit(tev_server *s)
{
    int fds[20];
    for (int i = 0; i < 20; i++)
        fds[i] = connect_to(s);
    CHECK(wait_connections(s, 16), "%d connections held", tev_server_connections(s));
    int refused = 0, held = -1;
    for (int i = 0; i < 20; i++) {
        if (closed_by_server(fds[i], i < 16 ? 20 : 1000))
            refused++;
        else
            held = i;
    }
    CHECK(refused == 4, "%d connections refused", refused);
    for (int t = 0; t < WAIT_MS && count_ev(TEV_EVENT_MESSAGE, "refused") < 4; t += 5) {
        drain(s);
        sleep_ms(5);
    }
    CHECK(count_ev(TEV_EVENT_MESSAGE, "refused: 16 connections are open") == 4,
          "%d refusal messages", count_ev(TEV_EVENT_MESSAGE, "refused"));
    if (held >= 0) {
        close(fds[held]);
        fds[held] = -1;
    }
    CHECK(wait_connections(s, 15), "%d after one left", tev_server_connections(s));
    serve_good_client(s, "good", "a client beside 15 idle ones");
    CHECK(wait_connections(s, 15), "idle ones lost: %d", tev_server_connections(s));
    for (int i = 0; i < 20; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    CHECK(wait_connections(s, 0), "%d left open", tev_server_connections(s));
    log_clear();
}

/* Malformed packets close their own connection only. */
static void test_malformed_client(tev_server *s)
{
    static const uint8_t lies[][9] = {
        {3, 0, 0, 0, 0, 0, 0, 0, 0},              /* shorter than the header */
        {0xff, 0xff, 0xff, 0x7f, 4, 0, 0, 0, 0},  /* 2 GiB, over the limit */
        {9, 0, 0, 0, 42, 0, 0, 0, 0},             /* unknown type */
        {9, 0, 0, 0, 2, 'a', 'b', 'c', 'd'},      /* unterminated name */
    };
    const char *why[] = {"shorter than the 5-byte header", "exceeds the limit",
                         "unknown type 42", "not NUL-terminated"};
    int good = connect_to(s);
    tev_packet p = create_packet("steady", 4, 4, 4, RGBA);
    send_packet(good, &p);
    for (int k = 0; k < 4; k++) {
        int bad = connect_to(s);
        char err[256];
        CHECK(tev_send_all(bad, lies[k], sizeof lies[k], err, sizeof err), "%s", err);
        CHECK(closed_by_server(bad, WAIT_MS), "malformed client %d kept", k);
        CHECK(wait_ev(s, TEV_EVENT_MESSAGE, NULL, why[k]), "no message '%s'", why[k]);
        close(bad);
        p = rgba_tile("steady", 0, k, 4, 1, (float)k);
        send_packet(good, &p);
    }
    CHECK(!closed_by_server(good, 50), "the good client was closed");
    close(good);
    CHECK(wait_ev(s, TEV_EVENT_MESSAGE, NULL, "disconnected"), "good client");
    hdr_image img;
    char err[256];
    CHECK(tev_server_copy_image(s, "steady", &img, err, sizeof err), "%s", err);
    if (img.rgba)
        CHECK(stored(&img, 2, 3, 0) == 302 + 3, "last tile: %g", stored(&img, 2, 3, 0));
    image_free(&img);
    log_clear();
}

/* A client stalled inside a packet blocks nobody, and its packet lands once completed. */
static void test_stalled_client(tev_server *s)
{
    int slow = connect_to(s);
    tev_packet p = create_packet("slow", 8, 8, 4, RGBA);
    send_packet(slow, &p);
    p = rgba_tile("slow", 0, 0, 8, 8, 7.0f);
    uint8_t *b;
    size_t n;
    char err[256];
    CHECK(tev_serialize(&p, &b, &n, err, sizeof err), "%s", err);
    CHECK(tev_send_all(slow, b, n / 2, err, sizeof err), "%s", err);
    serve_good_client(s, "quick", "a client beside a stalled one");
    CHECK(tev_send_all(slow, b + n / 2, n - n / 2, err, sizeof err), "%s", err);
    free(b);
    close(slow);
    CHECK(wait_ev(s, TEV_EVENT_CHANGED, "slow", NULL), "the stalled packet never landed");
    log_clear();
}

/* 3000 tiles of one image make one change event; 3000 OpenImage packets cap the queue. */
static void test_floods(tev_server *s)
{
    int fd = connect_to(s);
    tev_packet p = create_packet("flood", 64, 64, 4, RGBA);
    send_packet(fd, &p);
    CHECK(wait_ev(s, TEV_EVENT_CREATED, "flood", NULL), "flood image");
    for (int i = 0; i < 3000; i++) {
        p = rgba_tile("flood", i % 60, (i / 60) % 60, 4, 4, (float)i);
        send_packet(fd, &p);
    }
    tev_packet o;
    memset(&o, 0, sizeof o);
    o.type = TEV_OPEN_IMAGE;
    o.name = S("/nowhere.exr");
    for (int i = 0; i < 3000; i++)
        send_packet(fd, &o);
    close(fd);
    /* The queue is full by now (its "disconnected" message dropped): wait for the thread. */
    CHECK(wait_connections(s, 0), "flood client still connected");
    drain(s);
    CHECK(count_ev(TEV_EVENT_CHANGED, NULL) == 1, "%d change events",
          count_ev(TEV_EVENT_CHANGED, NULL));
    CHECK(log_n <= TEV_MAX_EVENTS + 8, "%zu events", log_n);
    CHECK(find_ev(TEV_EVENT_MESSAGE, NULL, "events dropped") >= 0, "no dropped note");
    CHECK(count_ev(TEV_EVENT_OPEN_FILE, NULL) >= TEV_MAX_EVENTS - 10, "%d opens",
          count_ev(TEV_EVENT_OPEN_FILE, NULL));
    log_clear();
}

/* The pixel limit covers all images together; CloseImage frees its share. */
static void test_store_limit_and_close(tev_server *s)
{
    int fd = connect_to(s);
    tev_packet p = create_packet("big", 1024, 1020, 4, RGBA);   /* + the others > 2^20 */
    send_packet(fd, &p);
    CHECK(wait_ev(s, TEV_EVENT_MESSAGE, NULL, "image 'big' (1024 x 1020) refused"),
          "store limit");
    const char *names[] = {"img", "good", "steady", "quick", "slow", "flood"};
    for (int i = 0; i < 6; i++) {
        tev_packet c;
        memset(&c, 0, sizeof c);
        c.type = TEV_CLOSE_IMAGE;
        c.name = (tev_str){names[i], strlen(names[i])};
        send_packet(fd, &c);
    }
    send_packet(fd, &p);
    CHECK(wait_ev(s, TEV_EVENT_CREATED, "big", NULL), "big image after closing the others");
    CHECK(find_ev(TEV_EVENT_CLOSED, "flood", NULL) >= 0, "CLOSED event");
    hdr_image img;
    char err[256];
    CHECK(!tev_server_copy_image(s, "flood", &img, err, sizeof err) &&
          strstr(err, "not stored"), "closed image still copied: %s", err);
    close(fd);
    log_clear();
}

/* A layer chosen for the server picks its channels; Y alone is grey. */
static void test_layers(void)
{
    tev_server *s = start("127.0.0.1:0", 1 << 16, "diffuse");
    int fd = connect_to(s);
    const char *names[] = {"R", "G", "B", "diffuse.R", "diffuse.G", "diffuse.B"};
    tev_packet p = create_packet("aov", 4, 4, 6, names);
    send_packet(fd, &p);
    const char *grey[] = {"Y"};
    p = create_packet("grey", 2, 2, 1, grey);
    send_packet(fd, &p);
    float v[4] = {1, 2, 3, 4};
    tev_packet q;
    memset(&q, 0, sizeof q);
    q.type = TEV_UPDATE_IMAGE_V1;
    q.width = q.height = 2;
    q.channel_count = 1;
    q.data = (const uint8_t *)v;
    q.data_floats = 4;
    q.name = S("aov");
    q.channels[0] = S("R");   /* not the layer shown: ignored */
    send_packet(fd, &q);
    q.channels[0] = S("diffuse.G");
    send_packet(fd, &q);
    q.name = S("grey");
    q.channels[0] = S("Y");
    send_packet(fd, &q);
    close(fd);
    CHECK(wait_ev(s, TEV_EVENT_MESSAGE, NULL, "disconnected"), "layer client");
    CHECK(find_ev(TEV_EVENT_MESSAGE, NULL, "image 'grey': no layer 'diffuse'") >= 0,
          "no fallback message for the image without the layer");
    hdr_image img;
    char err[256];
    CHECK(tev_server_copy_image(s, "aov", &img, err, sizeof err), "%s", err);
    if (img.rgba)
        CHECK(stored(&img, 1, 1, 0) == 0 && stored(&img, 1, 1, 1) == 4 &&
              strcmp(img.layer, "diffuse") == 0, "diffuse layer: %g %g '%s'",
              stored(&img, 1, 1, 0), stored(&img, 1, 1, 1), img.layer);
    image_free(&img);
    CHECK(tev_server_copy_image(s, "grey", &img, err, sizeof err), "%s", err);
    if (img.rgba)
        CHECK(stored(&img, 0, 1, 0) == 3 && stored(&img, 0, 1, 1) == 3 &&
              stored(&img, 0, 1, 2) == 3 && stored(&img, 0, 1, 3) == 1, "grey Y");
    image_free(&img);
    tev_server_stop(&s);
    log_clear();
}

/* tev_send_open: an absolute path arrives as an OPEN_FILE event; nobody listening fails. */
static void test_send_open(tev_server *s)
{
    char err[256], cwd[512];
    CHECK(tev_send_open("127.0.0.1", tev_server_port(s), "sub/pic.exr", err, sizeof err),
          "%s", err);
    CHECK(getcwd(cwd, sizeof cwd) != NULL, "getcwd");
    strncat(cwd, "/sub/pic.exr", sizeof cwd - strlen(cwd) - 1);
    CHECK(wait_ev(s, TEV_EVENT_OPEN_FILE, cwd, NULL), "no OPEN_FILE %s", cwd);
    int i = find_ev(TEV_EVENT_OPEN_FILE, cwd, NULL);
    CHECK(i >= 0 && log_ev[i].grab_focus && log_ev[i].text[0] == '\0', "open event fields");
    int port = tev_server_port(s);
    tev_server_stop(&s);
    CHECK(!tev_send_open("127.0.0.1", port, "/x.exr", err, sizeof err) &&
          strstr(err, "nothing listens"), "send to a stopped server: %s", err);
    log_clear();
}

int main(void)
{
    test_listen_specs();
    tev_server *s = start("127.0.0.1:0", (uint64_t)1 << 20, NULL);
    CHECK(tev_server_port(s) > 0, "port %d", tev_server_port(s));
    test_create_and_update(s);
    test_bad_updates(s);
    test_connection_limit(s);
    test_malformed_client(s);
    test_stalled_client(s);
    test_floods(s);
    test_store_limit_and_close(s);
    test_layers();
    test_send_open(s);
    log_clear();
    return test_finish("test_tev_server");
}
