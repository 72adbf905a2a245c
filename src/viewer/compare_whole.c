/* The whole image's comparison with the reference (docs/viewer.md, Compare): FLIP and the
 * metrics of an open file against the reference as `hdrtone compare --backend cpu` computes
 * them (the files read again at full resolution: flip_input_load, flip_report_cpu), one
 * job at a time on a worker (load_job_run), so the window keeps answering. The results are
 * kept for a key (the reference's file, ppd, FLIP's tone mapper, the white rule) and dropped
 * when it changes; a job that finishes for another key is thrown away. The reference is read
 * once a key: the first job reads it, the next ones (the tiles' files) borrow it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "viewer_internal.h"

enum { WHOLE_ITEMS = HT_GRID_MAX + 2 };   /* the tiles' files and the shown one */

/* What a worker computes: its inputs copied (the list may change meanwhile), its answer. */
typedef struct whole_job {
    load_job *run;
    const flip_input *ref_in;  /* the reference as read for the key, or NULL: read it ... */
    flip_input ref_own;        /* ... here (whole_take keeps it for the next jobs) */
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
    flip_input ref_in;         /* the reference as read for the key (ref_ok), borrowed by ... */
    bool ref_ok, ref_stale;    /* ... the jobs; stale: of an older key, freed after the job */
    int reads;                 /* the files read so far (the test hook's count) */
};

static void whole_worker(void *arg)
{
    whole_job *j = arg;
    flip_input test = {0};
    float *map = NULL;
    const flip_input *ref = j->ref_in ? j->ref_in : &j->ref_own;
    j->ok = (j->ref_in ||
             flip_input_load(j->ref, &j->lo, j->white, &j->ref_own, j->err, sizeof j->err)) &&
            flip_input_load(j->test, &j->lo, j->white, &test, j->err, sizeof j->err) &&
            flip_input_check_pair(ref, j->ref, &test, j->test, j->err, sizeof j->err);
    if (j->ok && !(map = malloc((size_t)ref->width * ref->height * sizeof *map))) {
        snprintf(j->err, sizeof j->err, "out of memory");
        j->ok = false;
    }
    if (j->ok)
        j->ok = flip_report_cpu(ref, &test, &j->fp, NULL, map, &j->r, j->err, sizeof j->err);
    free(map);
    flip_input_free(&test);
}

/* The reference read for the key goes (freed now, or after the job that borrows it). */
static void ref_drop(struct whole_cmp *w)
{
    if (w->job && w->ref_ok) {
        w->ref_stale = true;
        return;
    }
    flip_input_free(&w->ref_in);
    w->ref_ok = false;
}

/* Whether W's key is that of the session's reference and settings now. */
static bool whole_current(const struct whole_cmp *w, const viewer *v)
{
    return strcmp(viewer_ref_path(v), w->ref) == 0 && w->ppd == v->s.ppd &&
           w->tonemapper == v->s.flip_tonemapper && w->white == v->s.tm.white;
}

/* The key of the session's reference and settings; a new one empties the results. */
static struct whole_cmp *whole_keyed(viewer *v)
{
    if (!v->whole && !(v->whole = calloc(1, sizeof *v->whole)))
        return NULL;
    struct whole_cmp *w = v->whole;
    if (!whole_current(w, v)) {
        snprintf(w->ref, sizeof w->ref, "%s", viewer_ref_path(v));
        w->ppd = v->s.ppd;
        w->tonemapper = v->s.flip_tonemapper;
        w->white = v->s.tm.white;
        w->key++;
        w->n = 0;
        ref_drop(w);
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
        j->ref_in = w->ref_ok ? &w->ref_in : NULL;
        if (!(j->run = load_job_run(whole_worker, j))) {
            free(j);
            return;
        }
        w->job = j;
        w->reads += 1 + !j->ref_in;
        return;
    }
}

/* Whether ENTRY has a whole-image comparison: a reference, and both files (a network image
 * is no file to read again). */
static bool whole_wanted(const viewer *v, int entry)
{
    return v->s.ref >= 0 && entry >= 0 && entry < v->doc.list.nfiles && entry != v->s.ref &&
           !viewer_net_name(v, v->doc.list.files[entry]) &&
           !viewer_net_name(v, viewer_ref_path(v));
}

/* The item of file PATH in W, or -1. */
static int whole_find(const struct whole_cmp *w, const char *path)
{
    for (int i = 0; i < w->n; i++)
        if (strcmp(w->items[i].test, path) == 0)
            return i;
    return -1;
}

int viewer_whole_peek(const viewer *v, int entry, flip_report *r, const char **err)
{
    if (!whole_wanted(v, entry))
        return WHOLE_NONE;
    const struct whole_cmp *w = v->whole;
    int i = w && whole_current(w, v) ? whole_find(w, v->doc.list.files[entry]) : -1;
    if (i < 0)
        return WHOLE_PENDING;   /* not asked for yet: viewer_whole_ask starts it */
    *r = w->items[i].r;
    *err = w->items[i].err;
    return w->items[i].state;
}

void viewer_whole_ask(viewer *v, int entry)
{
    struct whole_cmp *w = whole_wanted(v, entry) ? whole_keyed(v) : NULL;
    const char *path = w ? v->doc.list.files[entry] : NULL;
    if (!w || whole_find(w, path) >= 0)
        return;
    if (w->n == WHOLE_ITEMS)   /* the oldest result makes room */
        memmove(w->items, w->items + 1, sizeof w->items[0] * --w->n);
    int i = w->n++;
    snprintf(w->items[i].test, sizeof w->items[i].test, "%s", path);
    w->items[i].state = WHOLE_PENDING;
    whole_start(v, w);
}

/* A finished job's answer into its item (when its key is still the current one). */
static void whole_take(viewer *v, struct whole_cmp *w)
{
    whole_job *j = w->job;
    load_job_free(j->run);
    w->job = NULL;
    if (w->ref_stale) {   /* the key changed while the job borrowed the reference */
        w->ref_stale = false;
        ref_drop(w);
    }
    if (j->key == w->key && !w->ref_ok && j->ref_own.rgb) {   /* read here: kept for the key */
        w->ref_in = j->ref_own;
        w->ref_ok = true;
    } else {
        flip_input_free(&j->ref_own);
    }
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
    if (!w || !w->job || !load_job_done(w->job->run))
        return;
    whole_take(v, w);
    if (v->s.ref >= 0)
        whole_start(v, whole_keyed(v));
}

bool viewer_whole_busy(const viewer *v) { return v->whole && v->whole->job; }
int viewer_whole_reads(const viewer *v) { return v->whole ? v->whole->reads : 0; }

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
        load_job_free(v->whole->job->run);
        flip_input_free(&v->whole->job->ref_own);
        free(v->whole->job);
    }
    flip_input_free(&v->whole->ref_in);
    free(v->whole);
    v->whole = NULL;
}
