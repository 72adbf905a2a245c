/* Work on a worker thread (viewer_internal.h, "load_job"), one kind of job for every read off
 * the UI thread: a file decoding (the shown file's load, viewer_files.c; the tiles', tiles.c;
 * the pins' values in the other files, pins.c) or a function (the whole image's comparison,
 * compare_whole.c). */
#define _POSIX_C_SOURCE 200809L   /* strdup */

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "viewer_internal.h"

struct load_job {
    pthread_t thread;
    atomic_bool done;
    char *path;                /* a copy: the list's entry may go while it loads */
    char part[64], layer[64];  /* what lo points at */
    image_load_options lo;
    image_progress progress;   /* lo.progress for the shown file's load: rows_done's */
    preview_rows *preview;     /* the shown file's rows as they land, reduced */
    atomic_int rows_done, rows;   /* what it told last: rows done of rows (0 of 0: nothing) */
    hdr_image img;
    bool ok;
    char err[HT_ERR_MAX];
    void (*fn)(void *arg);     /* load_job_run's function, or NULL: a decode */
    void *arg;
};

static void *worker(void *arg)
{
    load_job *j = arg;
    if (j->fn) {
        j->fn(j->arg);
        j->ok = true;
    } else {
        j->ok = image_load(j->path, &j->lo, &j->img, j->err, sizeof j->err);
    }
    atomic_store(&j->done, true);
    return NULL;
}

/* image_progress.rows: the rows for load_job_percent and the preview's copy of them (the
 * worker's; read on the UI thread). */
static void rows_done(void *ctx, const uint16_t *half, int width, int done, int height)
{
    load_job *j = ctx;
    preview_rows_add(j->preview, half, width, done, height);
    atomic_store(&j->rows, height);
    atomic_store(&j->rows_done, done);
}

/* J on a thread of its own (here when none starts). */
static load_job *begin(load_job *j)
{
    if (pthread_create(&j->thread, NULL, worker, j) != 0) {
        worker(j);   /* no thread: here */
        j->thread = pthread_self();
    }
    return j;
}

load_job *load_job_run(void (*fn)(void *arg), void *arg)
{
    load_job *j = calloc(1, sizeof *j);
    if (!j)
        return NULL;
    j->fn = fn;
    j->arg = arg;
    return begin(j);
}

load_job *load_job_start(viewer *v, const char *path, bool shown)
{
    load_job *j = calloc(1, sizeof *j);
    if (!j || !(j->path = strdup(path))) {
        free(j);
        return NULL;
    }
    j->lo = viewer_load_options(v, shown, j->part, sizeof j->part, j->layer, sizeof j->layer);
    if (shown && (j->preview = preview_rows_new())) {   /* none: no share, no preview */
        j->progress = (image_progress){rows_done, j};
        j->lo.progress = &j->progress;
    }
    return begin(j);
}

bool load_job_done(const load_job *j) { return atomic_load(&j->done); }

int load_job_percent(const load_job *j)
{
    int done = atomic_load(&j->rows_done), rows = atomic_load(&j->rows);
    return rows > 0 ? (int)((long long)done * 100 / rows) : -1;
}
const char *load_job_path(const load_job *j) { return j->path; }
preview_rows *load_job_preview(load_job *j) { return j->preview; }
hdr_image *load_job_image(load_job *j) { return &j->img; }
const char *load_job_err(const load_job *j) { return j->err; }

bool load_job_wait(load_job *j)
{
    if (!pthread_equal(j->thread, pthread_self())) {
        pthread_join(j->thread, NULL);
        j->thread = pthread_self();
    }
    return j->ok;
}

void load_job_free(load_job *j)
{
    load_job_wait(j);
    image_free(&j->img);
    preview_rows_free(j->preview);
    free(j->path);
    free(j);
}
