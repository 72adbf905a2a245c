/* The whole image's comparison with the reference (docs/viewer.md, Compare): FLIP and the
 * metrics of an open file against the reference as `hdrtone compare --backend cpu` computes
 * them (both files read again at full resolution: flip_input_load, flip_report_cpu), on one
 * worker thread at a time, so the window keeps answering. The results are kept for a key
 * (the reference's file, ppd, FLIP's tone mapper, the white rule) and dropped when it
 * changes; a job that finishes for another key is thrown away. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "viewer_internal.h"

enum { WHOLE_ITEMS = HT_GRID_MAX + 2 };   /* the tiles' files and the shown one */

/* What a worker computes: its inputs copied (the list may change meanwhile), its answer. */
typedef struct whole_job {
    pthread_t thread;
    atomic_bool done;
    char ref[4096], test[4096], part[64], layer[64];
    image_load_options lo;
    flip_params fp;
    int white;
    unsigned long key;         /* the whole_cmp key it was started for */
    bool ok;
    flip_report r;
    char err[256];
} whole_job;

typedef struct whole_item {
    char test[4096];
    int state;                 /* WHOLE_PENDING (wanted, or computing), READY, FAILED */
    flip_report r;
    char err[256];
} whole_item;

struct whole_cmp {
    char ref[4096];            /* the key: the reference ... */
    double ppd;                /* ... FLIP's settings ... */
    int tonemapper, white;
    unsigned long key;         /* ... counted: each new one */
    whole_item items[WHOLE_ITEMS];
    int n;
    whole_job *job;            /* running, or NULL */
};

static void *whole_worker(void *arg)
{
    whole_job *j = arg;
    flip_input ref = {0}, test = {0};
    float *map = NULL;
    j->ok = flip_input_load(j->ref, &j->lo, j->white, &ref, j->err, sizeof j->err) &&
            flip_input_load(j->test, &j->lo, j->white, &test, j->err, sizeof j->err) &&
            flip_input_check_pair(&ref, j->ref, &test, j->test, j->err, sizeof j->err);
    if (j->ok && !(map = malloc((size_t)ref.width * ref.height * sizeof *map))) {
        snprintf(j->err, sizeof j->err, "out of memory");
        j->ok = false;
    }
    if (j->ok)
        j->ok = flip_report_cpu(&ref, &test, &j->fp, NULL, map, &j->r, j->err, sizeof j->err);
    free(map);
    flip_input_free(&ref);
    flip_input_free(&test);
    atomic_store(&j->done, true);
    return NULL;
}

/* The key of the session's reference and settings; a new one empties the results. */
static struct whole_cmp *whole_keyed(viewer *v)
{
    if (!v->whole && !(v->whole = calloc(1, sizeof *v->whole)))
        return NULL;
    struct whole_cmp *w = v->whole;
    const char *ref = viewer_ref_path(v);
    if (strcmp(ref, w->ref) != 0 || w->ppd != v->s.ppd || w->tonemapper != v->s.flip_tonemapper ||
        w->white != v->s.tm.white) {
        snprintf(w->ref, sizeof w->ref, "%s", ref);
        w->ppd = v->s.ppd;
        w->tonemapper = v->s.flip_tonemapper;
        w->white = v->s.tm.white;
        w->key++;
        w->n = 0;
    }
    return w;
}

/* Starts the worker on the first wanted item not computed yet, when none runs. */
static void whole_start(viewer *v, struct whole_cmp *w)
{
    if (w->job)
        return;
    for (int i = 0; i < w->n; i++) {
        if (w->items[i].state != WHOLE_PENDING)
            continue;
        whole_job *j = calloc(1, sizeof *j);
        if (!j)
            return;
        snprintf(j->ref, sizeof j->ref, "%s", w->ref);
        snprintf(j->test, sizeof j->test, "%s", w->items[i].test);
        j->lo = viewer_load_options(v, false, j->part, sizeof j->part, j->layer,
                                    sizeof j->layer);
        j->fp = (flip_params){.ppd = (float)w->ppd, .tonemapper = (flip_tonemapper)w->tonemapper};
        j->white = w->white;
        j->key = w->key;
        if (pthread_create(&j->thread, NULL, whole_worker, j) != 0) {
            free(j);
            return;
        }
        w->job = j;
        return;
    }
}

int viewer_whole_get(viewer *v, int entry, flip_report *r, const char **err)
{
    if (v->s.ref < 0 || entry < 0 || entry >= v->doc.list.nfiles || entry == v->s.ref ||
        viewer_net_name(v, v->doc.list.files[entry]) || viewer_net_name(v, viewer_ref_path(v)))
        return WHOLE_NONE;   /* a network image is no file to read again */
    struct whole_cmp *w = whole_keyed(v);
    if (!w)
        return WHOLE_NONE;
    const char *path = v->doc.list.files[entry];
    int i = 0;
    while (i < w->n && strcmp(w->items[i].test, path) != 0)
        i++;
    if (i == w->n) {   /* wanted now: the oldest result makes room */
        if (w->n == WHOLE_ITEMS)
            memmove(w->items, w->items + 1, sizeof w->items[0] * --w->n);
        i = w->n++;
        snprintf(w->items[i].test, sizeof w->items[i].test, "%s", path);
        w->items[i].state = WHOLE_PENDING;
        whole_start(v, w);
    }
    *r = w->items[i].r;
    *err = w->items[i].err;
    return w->items[i].state;
}

/* A finished job's answer into its item (when its key is still the current one). */
static void whole_take(viewer *v, struct whole_cmp *w)
{
    whole_job *j = w->job;
    pthread_join(j->thread, NULL);
    w->job = NULL;
    for (int i = 0; j->key == w->key && i < w->n; i++)
        if (strcmp(w->items[i].test, j->test) == 0) {
            w->items[i].state = j->ok ? WHOLE_READY : WHOLE_FAILED;
            w->items[i].r = j->r;
            snprintf(w->items[i].err, sizeof w->items[i].err, "%s", j->err);
            v->dirty = true;
        }
    free(j);
}

void viewer_whole_poll(viewer *v)
{
    struct whole_cmp *w = v->whole;
    if (!w || !w->job || !atomic_load(&w->job->done))
        return;
    whole_take(v, w);
    if (v->s.ref >= 0)
        whole_start(v, whole_keyed(v));
}

void viewer_whole_wait(viewer *v)
{
    struct whole_cmp *w = v->whole;
    while (w && w->job) {
        whole_take(v, w);
        whole_start(v, w);
    }
}

void viewer_whole_stop(viewer *v)
{
    if (!v->whole)
        return;
    if (v->whole->job) {
        pthread_join(v->whole->job->thread, NULL);
        free(v->whole->job);
    }
    free(v->whole);
    v->whole = NULL;
}
