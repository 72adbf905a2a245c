/* The server's images (float RGBA per created image, tiles written in place) and its event
 * queue (bounded; changes of one image coalesced). */
#include "tev_internal.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *dup_str(tev_str s)
{
    char *d = malloc(s.len + 1);
    if (d) {
        memcpy(d, s.p, s.len);
        d[s.len] = '\0';
    }
    return d;
}

static char *dup_cstr(const char *s)
{
    return dup_str((tev_str){s, strlen(s)});
}

bool tev_store_init(tev_store *st, uint64_t max_pixels, const char *layer)
{
    memset(st, 0, sizeof *st);
    st->max_pixels = max_pixels;
    if (layer && !(st->layer = dup_cstr(layer)))
        return false;
    if (pthread_mutex_init(&st->lock, NULL) != 0) {
        free(st->layer);
        return false;
    }
    return true;
}

static void image_release(tev_image *im)
{
    for (int c = 0; c < im->channel_count; c++)
        free(im->channels[c]);
    free(im->channels);
    free(im->name);
    free(im->rgba);
    memset(im, 0, sizeof *im);
}

void tev_store_free(tev_store *st)
{
    for (int i = 0; i < st->image_count; i++)
        image_release(&st->images[i]);
    free(st->images);
    tev_events_free(st->events, st->event_count);
    free(st->layer);
    pthread_mutex_destroy(&st->lock);
    memset(st, 0, sizeof *st);
}

void tev_events_free(tev_event *events, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(events[i].name);
        free(events[i].text);
    }
    free(events);
}

/* ---- the queue (lock held) ---- */

static bool same_name(const char *a, tev_str b)
{
    return strlen(a) == b.len && memcmp(a, b.p, b.len) == 0;
}

/* Adds an event unless LIMIT are waiting (then counts it dropped). */
static void append(tev_store *st, tev_event_kind kind, bool grab, tev_str name, tev_str text,
                   const int rect[4], size_t limit)
{
    if (st->event_count >= limit) {
        st->dropped++;
        return;
    }
    if (st->event_count == st->event_cap) {
        size_t cap = st->event_cap ? st->event_cap * 2 : 64;
        tev_event *ev = realloc(st->events, cap * sizeof *ev);
        if (!ev) {
            st->dropped++;
            return;
        }
        st->events = ev;
        st->event_cap = cap;
    }
    tev_event e = {kind, grab, dup_str(name), dup_str(text), {0, 0, 0, 0}};
    if (!e.name || !e.text) {
        free(e.name);
        free(e.text);
        st->dropped++;
        return;
    }
    if (rect)
        memcpy(e.rect, rect, sizeof e.rect);
    st->events[st->event_count++] = e;
}

/* Queues an event, or merges it into the waiting one it repeats: a change of an image whose
 * latest event is a change (rectangles joined) or its creation (which copies it whole), a
 * message identical to the latest event. */
static void push(tev_store *st, tev_event_kind kind, bool grab, tev_str name, tev_str text,
                 const int rect[4])
{
    if (kind == TEV_EVENT_MESSAGE && st->event_count) {
        tev_event *last = &st->events[st->event_count - 1];
        if (last->kind == TEV_EVENT_MESSAGE && same_name(last->text, text))
            return;
    }
    for (size_t i = st->event_count; kind == TEV_EVENT_CHANGED && i-- > 0;) {
        tev_event *e = &st->events[i];
        if (e->kind == TEV_EVENT_MESSAGE || e->kind == TEV_EVENT_OPEN_FILE ||
            !same_name(e->name, name))
            continue;
        if (e->kind == TEV_EVENT_CHANGED) {
            e->grab_focus = e->grab_focus || grab;
            for (int k = 0; k < 2; k++) {
                e->rect[k] = rect[k] < e->rect[k] ? rect[k] : e->rect[k];
                e->rect[k + 2] = rect[k + 2] > e->rect[k + 2] ? rect[k + 2] : e->rect[k + 2];
            }
            return;
        }
        if (e->kind == TEV_EVENT_CREATED) {
            e->grab_focus = e->grab_focus || grab;
            return;
        }
        break;
    }
    append(st, kind, grab, name, text, rect, TEV_MAX_EVENTS - 1);
}

static void vmessage(tev_store *st, const char *fmt, va_list ap)
{
    char text[512];
    vsnprintf(text, sizeof text, fmt, ap);
    tev_str none = {"", 0};
    push(st, TEV_EVENT_MESSAGE, false, none, (tev_str){text, strlen(text)}, NULL);
}

static void message_locked(tev_store *st, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void message_locked(tev_store *st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage(st, fmt, ap);
    va_end(ap);
}

void tev_store_message(tev_store *st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&st->lock);
    vmessage(st, fmt, ap);
    pthread_mutex_unlock(&st->lock);
    va_end(ap);
}

size_t tev_store_drain(tev_store *st, tev_event **events)
{
    pthread_mutex_lock(&st->lock);
    if (st->dropped) {
        /* The last slot is kept for this note (push stops one short of TEV_MAX_EVENTS). */
        char text[128];
        snprintf(text, sizeof text, "%zu events dropped: more than %d arrived between two "
                 "drains", st->dropped, TEV_MAX_EVENTS - 1);
        st->dropped = 0;
        append(st, TEV_EVENT_MESSAGE, false, (tev_str){"", 0}, (tev_str){text, strlen(text)},
               NULL, TEV_MAX_EVENTS);
    }
    size_t n = st->event_count;
    *events = n ? st->events : NULL;
    if (!n)
        free(st->events);
    st->events = NULL;
    st->event_count = st->event_cap = 0;
    pthread_mutex_unlock(&st->lock);
    return n;
}

/* ---- images (lock held) ---- */

static int find_image(const tev_store *st, tev_str name)
{
    for (int i = 0; i < st->image_count; i++)
        if (same_name(st->images[i].name, name))
            return i;
    return -1;
}

static void remove_image(tev_store *st, int i)
{
    st->pixels -= (uint64_t)st->images[i].width * (uint64_t)st->images[i].height;
    image_release(&st->images[i]);
    st->images[i] = st->images[--st->image_count];
}

/* The channel names and map of image IM from CreateImage P (names already copied). */
static void map_channels(tev_store *st, tev_image *im, const char *shown)
{
    char err[256];
    if (tev_channel_map_make((const char *const *)im->channels, NULL, im->channel_count,
                             st->layer, &im->map, err, sizeof err))
        return;
    message_locked(st, "image '%s': %s; showing the default layer", shown, err);
    tev_channel_map_make((const char *const *)im->channels, NULL, im->channel_count, NULL,
                         &im->map, err, sizeof err);
}

static bool make_image(const tev_packet *p, tev_image *im)
{
    memset(im, 0, sizeof *im);
    size_t pixels = (size_t)p->width * (size_t)p->height;
    im->name = dup_str(p->name);
    im->channels = calloc((size_t)p->channel_count, sizeof *im->channels);
    im->rgba = malloc(pixels * 4 * sizeof *im->rgba);
    bool ok = im->name && im->channels && im->rgba;
    for (int c = 0; ok && c < p->channel_count; c++) {
        ok = (im->channels[c] = dup_str(p->channels[c])) != NULL;
        im->channel_count = c + 1;
    }
    if (!ok) {
        image_release(im);
        return false;
    }
    im->width = p->width;
    im->height = p->height;
    for (size_t i = 0; i < pixels; i++) {
        float *px = im->rgba + 4 * i;
        px[0] = px[1] = px[2] = 0.0f;
        px[3] = 1.0f;
    }
    return true;
}

static void apply_create(tev_store *st, const tev_packet *p, const char *shown)
{
    int old = find_image(st, p->name);
    uint64_t kept = st->pixels - (old >= 0 ? (uint64_t)st->images[old].width *
                                                 (uint64_t)st->images[old].height : 0);
    uint64_t want = (uint64_t)p->width * (uint64_t)p->height;
    if (kept + want > st->max_pixels) {
        message_locked(st, "image '%s' (%" PRId32 " x %" PRId32 ") refused: the %d other "
                       "images hold %" PRIu64 " pixels and the limit is %" PRIu64, shown,
                       p->width, p->height, st->image_count - (old >= 0), kept,
                       st->max_pixels);
        return;
    }
    if (old >= 0)
        remove_image(st, old);
    if (st->image_count == st->image_cap) {
        int cap = st->image_cap ? st->image_cap * 2 : 8;
        tev_image *im = realloc(st->images, (size_t)cap * sizeof *im);
        if (!im) {
            message_locked(st, "image '%s': out of memory", shown);
            return;
        }
        st->images = im;
        st->image_cap = cap;
    }
    tev_image *im = &st->images[st->image_count];
    if (!make_image(p, im)) {
        message_locked(st, "image '%s' (%" PRId32 " x %" PRId32 "): out of memory", shown,
                       p->width, p->height);
        return;
    }
    st->image_count++;
    st->pixels += want;
    map_channels(st, im, shown);
    int rect[4] = {0, 0, p->width, p->height};
    push(st, TEV_EVENT_CREATED, p->grab_focus, p->name, (tev_str){"", 0}, rect);
}

/* Which RGBA components channel name NAME of IM fills: a bit mask (grey fills R, G, B). */
static unsigned channel_targets(const tev_image *im, tev_str name)
{
    unsigned mask = 0;
    for (int k = 0; k < 4; k++) {
        int c = im->map.rgba[k];
        if (c >= 0 && same_name(im->channels[c], name))
            mask |= k == 0 && im->map.grey ? 7u : 1u << k;
    }
    return mask;
}

static void apply_update(tev_store *st, const tev_packet *p, const char *shown)
{
    int i = find_image(st, p->name);
    if (i < 0) {
        message_locked(st, "update of image '%s' ignored: no such image (CreateImage first)",
                       shown);
        return;
    }
    tev_image *im = &st->images[i];
    if ((int64_t)p->x + p->width > im->width || (int64_t)p->y + p->height > im->height) {
        message_locked(st, "update of image '%s' ignored: tile %" PRId32 ",%" PRId32 " + %"
                       PRId32 " x %" PRId32 " lies outside its %d x %d pixels", shown, p->x,
                       p->y, p->width, p->height, im->width, im->height);
        return;
    }
    for (int c = 0; c < p->channel_count; c++) {
        unsigned mask = channel_targets(im, p->channels[c]);
        for (int k = 0; k < 4 && mask; k++) {
            if (!(mask & (1u << k)))
                continue;
            for (int32_t ty = 0; ty < p->height; ty++) {
                size_t at = (size_t)(p->y + ty) * (size_t)im->width + (size_t)p->x;
                float *row = im->rgba + 4 * at;
                size_t src = (size_t)ty * (size_t)p->width;
                for (int32_t tx = 0; tx < p->width; tx++)
                    row[4 * tx + k] = tev_sample(p, c, src + (size_t)tx);
            }
        }
    }
    int rect[4] = {p->x, p->y, p->x + p->width, p->y + p->height};
    push(st, TEV_EVENT_CHANGED, p->grab_focus, p->name, (tev_str){"", 0}, rect);
}

void tev_store_apply(tev_store *st, const tev_packet *p, const char *who)
{
    char shown[72];
    tev_printable(p->name, 64, shown, sizeof shown);
    pthread_mutex_lock(&st->lock);
    switch (p->type) {
    case TEV_OPEN_IMAGE_V1:
    case TEV_OPEN_IMAGE:
        push(st, TEV_EVENT_OPEN_FILE, p->grab_focus, p->name, p->selector, NULL);
        break;
    case TEV_RELOAD_IMAGE:
        push(st, TEV_EVENT_RELOAD, p->grab_focus, p->name, (tev_str){"", 0}, NULL);
        break;
    case TEV_CLOSE_IMAGE: {
        int i = find_image(st, p->name);
        if (i >= 0)
            remove_image(st, i);
        push(st, TEV_EVENT_CLOSED, false, p->name, (tev_str){"", 0}, NULL);
        break;
    }
    case TEV_CREATE_IMAGE:
        apply_create(st, p, shown);
        break;
    case TEV_UPDATE_IMAGE_V1:
    case TEV_UPDATE_IMAGE_V2:
    case TEV_UPDATE_IMAGE:
        apply_update(st, p, shown);
        break;
    case TEV_VECTOR_GRAPHICS:
        message_locked(st, "%s: vector graphics for image '%s' ignored (not supported)", who,
                       shown);
        break;
    }
    pthread_mutex_unlock(&st->lock);
}

/* "R,G,B,A (float)" from the channel names, cut with "..." when long. */
static void describe(const tev_image *im, char *out, size_t len)
{
    size_t n = 0;
    out[0] = '\0';
    for (int c = 0; c < im->channel_count && n < len; c++) {
        char s[40];
        tev_printable((tev_str){im->channels[c], strlen(im->channels[c])}, 32, s, sizeof s);
        int r = snprintf(out + n, len - n, "%s%s", c ? "," : "", s);
        n += r > 0 ? (size_t)r : 0;
    }
    if (n < len)
        snprintf(out + n, len - n, " (float)");
    else if (len > 4)
        memcpy(out + len - 4, "...", 4);
}

bool tev_store_copy(tev_store *st, const char *name, hdr_image *img, char *err, size_t errlen)
{
    memset(img, 0, sizeof *img);
    pthread_mutex_lock(&st->lock);
    int i = find_image(st, (tev_str){name, strlen(name)});
    const tev_image *im = i >= 0 ? &st->images[i] : NULL;
    size_t bytes = im ? (size_t)im->width * (size_t)im->height * 4 * sizeof(float) : 0;
    float *rgba = im ? malloc(bytes) : NULL;
    if (rgba) {
        memcpy(rgba, im->rgba, bytes);
        img->width = im->width;
        img->height = im->height;
        img->rgba = rgba;
        int win[4] = {0, 0, im->width - 1, im->height - 1};
        memcpy(img->data_window, win, sizeof win);
        memcpy(img->display_window, win, sizeof win);
        snprintf(img->format, sizeof img->format, "tev");
        describe(im, img->channels, sizeof img->channels);
        snprintf(img->rgb_source, sizeof img->rgb_source, "%s", im->map.source);
        snprintf(img->layer, sizeof img->layer, "%s", im->map.layer);
        img->part_count = 1;
        img->exposure = 1.0;
    }
    pthread_mutex_unlock(&st->lock);
    if (!rgba) {
        char shown[72];
        snprintf(err, errlen, "image '%s': %s",
                 tev_printable((tev_str){name, strlen(name)}, 64, shown, sizeof shown),
                 im ? "out of memory" : "not stored (closed)");
        return false;
    }
    return true;
}
