/* A server for tev's protocol (tev_proto.h) on its own thread, and the client side.
 *
 * The server listens on TCP, reads packets from up to TEV_MAX_CONNECTIONS clients at once
 * without ever blocking on one of them, and keeps what they send in a store: one float RGBA
 * buffer per created image, into which UpdateImage tiles are written as they arrive (so a
 * flood of tiles costs no memory beyond the image). The consumer (the viewer) drains a queue
 * of events once per frame: "image X created / changed / closed", "open this file", and
 * messages (connections, refusals, bad packets) as text; the library prints nothing. */
#ifndef HT_TEV_SERVER_H
#define HT_TEV_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "image.h"
#include "tev_proto.h"

/* Most clients connected at once; one more is refused with a message. */
#define TEV_MAX_CONNECTIONS 16

/* Most events waiting for a drain; later ones are dropped and counted in one message. */
#define TEV_MAX_EVENTS 1024

typedef struct tev_server_options {
    const char *listen;       /* "[HOST:]PORT" (see tev_parse_listen); NULL = "127.0.0.1:14158" */
    uint64_t max_pixels;      /* largest image or tile, and all stored images together;
                                 0 = HT_DEFAULT_MAX_PIXELS. Packets may be tev_max_packet() of
                                 it long. */
    int max_connections;      /* 1..TEV_MAX_CONNECTIONS; 0 = TEV_MAX_CONNECTIONS */
    const char *layer;        /* layer shown of created images (tev_channel_map_make); NULL =
                                 the default choice */
} tev_server_options;

typedef enum tev_event_kind {
    TEV_EVENT_OPEN_FILE,      /* load file NAME (TEXT = channel selector, "" = none) */
    TEV_EVENT_RELOAD,         /* reload image NAME from its file */
    TEV_EVENT_CREATED,        /* image NAME is (again) in the store: tev_server_copy_image */
    TEV_EVENT_CHANGED,        /* pixels of stored image NAME changed, within RECT */
    TEV_EVENT_CLOSED,         /* close image NAME (stored or opened from a file) */
    TEV_EVENT_MESSAGE,        /* TEXT for the user: a connection opened, refused or closed,
                                 a packet refused */
} tev_event_kind;

typedef struct tev_event {
    tev_event_kind kind;
    bool grab_focus;          /* the client asked to show this image */
    char *name;               /* image name or file path; "" for messages; owned */
    char *text;               /* selector or message; "" when none; owned */
    int rect[4];              /* CHANGED: x0, y0, x1, y1 (exclusive) covering every tile
                                 written since the last drain */
} tev_event;

typedef struct tev_server tev_server;

/* Splits "[HOST:]PORT" ("14158", "0.0.0.0:14158", "[::1]:14158", "localhost:0") into HOST
 * (TEV_DEFAULT_HOST when absent) and PORT (0..65535; 0 = any free port). Returns false with a
 * message for anything else. */
bool tev_parse_listen(const char *spec, char *host, size_t hostlen, int *port, char *err,
                      size_t errlen);

/* Binds and listens as OPTS says and starts the server thread. On success returns the
 * server; WARN (warnlen bytes) holds a warning for the user when the address is not a
 * loopback one (anyone who reaches it can open files and send images: the protocol has no
 * authentication), else "". Returns NULL with a message on failure (bad spec, port in use). */
tev_server *tev_server_start(const tev_server_options *opts, char *warn, size_t warnlen,
                             char *err, size_t errlen);

/* The port listened on (the one chosen when the spec said 0). */
int tev_server_port(const tev_server *s);

/* Clients connected now. */
int tev_server_connections(tev_server *s);

/* Moves every waiting event, oldest first, into a malloc'd array at *events and returns their
 * number (0: *events = NULL). Free them with tev_events_free. Thread-safe; call once a frame. */
size_t tev_server_drain(tev_server *s, tev_event **events);

void tev_events_free(tev_event *events, size_t n);

/* Copies stored image NAME into *img (RGBA floats, data and display window 0,0..w-1,h-1,
 * format "tev", channels and rgb_source describing the layer shown); the caller frees it with
 * image_free. Returns false with a message when NAME is not stored (closed meanwhile). */
bool tev_server_copy_image(tev_server *s, const char *name, hdr_image *img, char *err,
                           size_t errlen);

/* Stops the thread, closes every connection and frees the store; sets *s to NULL. Accepts
 * NULL and *s == NULL. */
void tev_server_stop(tev_server **s);

/* Connects to HOST:PORT within TIMEOUT_MS. Returns a blocking socket, or -1 with a message
 * ("nothing listens on ..." when refused). */
int tev_connect(const char *host, int port, int timeout_ms, char *err, size_t errlen);

/* Sends all SIZE bytes on FD (no SIGPIPE). Returns false with a message on failure. */
bool tev_send_all(int fd, const void *bytes, size_t size, char *err, size_t errlen);

/* Hands file PATH to the instance listening on HOST:PORT (an OpenImage packet that grabs
 * focus; a relative PATH is made absolute against the working directory first), then waits
 * up to 2 s for the instance to close the connection, so the packet has been read. Returns
 * false with a message when no instance listens or the send fails. */
bool tev_send_open(const char *host, int port, const char *path, char *err, size_t errlen);

#endif
