/* Internal to the tev_*.c files: the server's store of images and its event queue, and name
 * resolution. */
#ifndef HT_TEV_INTERNAL_H
#define HT_TEV_INTERNAL_H

#include <pthread.h>

#include "tev_server.h"

typedef struct tev_image {
    char *name;
    int width, height;
    int channel_count;
    char **channels;          /* channel_count names, owned */
    tev_channel_map map;
    float *rgba;              /* width*height*4, owned */
} tev_image;

typedef struct tev_store {
    pthread_mutex_t lock;     /* guards everything below */
    tev_image *images;
    int image_count, image_cap;
    uint64_t pixels;          /* of all images */
    uint64_t max_pixels;
    char *layer;              /* NULL = default */
    tev_event *events;
    size_t event_count, event_cap;
    size_t dropped;           /* events lost to TEV_MAX_EVENTS since the last drain */
} tev_store;

bool tev_store_init(tev_store *st, uint64_t max_pixels, const char *layer);
void tev_store_free(tev_store *st);

/* Applies a parsed packet from client WHO (for messages): stores, updates or removes images
 * and queues the events. Takes the lock. */
void tev_store_apply(tev_store *st, const tev_packet *p, const char *who);

/* Queues a message event (printf format). Takes the lock. */
void tev_store_message(tev_store *st, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

size_t tev_store_drain(tev_store *st, tev_event **events);

bool tev_store_copy(tev_store *st, const char *name, hdr_image *img, char *err, size_t errlen);

struct addrinfo;

/* getaddrinfo for a TCP stream to HOST:PORT (PASSIVE: to listen on). Returns NULL with
 * "HOST: reason" on failure; free the list with freeaddrinfo. */
struct addrinfo *tev_resolve(const char *host, int port, bool passive, char *err,
                             size_t errlen);

#endif
