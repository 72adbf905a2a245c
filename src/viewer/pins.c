/* Pinned pixels (docs/viewer.md, Pinned pixels): Ctrl+click pins the image pixel under the
 * cursor, Backspace clears the pins. Each pin is kept as absolute image coordinates (the
 * session's), and its values are read in every open image: the shown one from its copy in
 * memory, the others decoded on a worker (load_job.c: one at a time, never on the UI thread)
 * and kept per file until the pins change. */
#define _POSIX_C_SOURCE 200809L   /* strdup */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "viewer_act.h"
#include "viewer_internal.h"

/* One open file's values at the pins. */
typedef struct pin_entry {
    char *path;
    unsigned long gen;         /* v->doc.pins_gen they are of */
    int state;                 /* PIN_READY or PIN_FAILED (PIN_PENDING: not read yet) */
    float rgba[VIEWER_PINS_MAX][4];
    bool inside[VIEWER_PINS_MAX];
    image_colour colour;       /* the file's space: the working values' transform */
    char err[160];
} pin_entry;

/* IMG's values at the pins into E. */
static void sample(const hdr_image *img, const int (*pins)[2], int npins, pin_entry *e)
{
    for (int i = 0; i < npins; i++) {
        int x = pins[i][0] - img->data_window[0], y = pins[i][1] - img->data_window[1];
        e->inside[i] = x >= 0 && y >= 0 && x < img->width && y < img->height;
        if (e->inside[i])
            image_get_pixel(img, (size_t)y * img->width + (size_t)x, e->rgba[i]);
    }
    e->colour = img->colour;
    e->state = PIN_READY;
}

/* The cache's entry of PATH, or NULL. */
static pin_entry *find(const viewer *v, const char *path)
{
    for (int i = 0; i < v->doc.npin_cache; i++)
        if (strcmp(v->doc.pin_cache[i].path, path) == 0)
            return &v->doc.pin_cache[i];
    return NULL;
}

/* PATH's entry, added when missing (NULL: no memory). */
static pin_entry *entry(viewer *v, const char *path)
{
    pin_entry *e = find(v, path);
    if (e)
        return e;
    pin_entry *c = realloc(v->doc.pin_cache, (size_t)(v->doc.npin_cache + 1) * sizeof *c);
    if (!c)
        return NULL;
    v->doc.pin_cache = c;
    e = &c[v->doc.npin_cache];
    memset(e, 0, sizeof *e);
    if (!(e->path = strdup(path)))
        return NULL;
    v->doc.npin_cache++;
    return e;
}

/* A finished decode's values at the pins into its file's entry (none when the pins changed
 * meanwhile: the file is read again for the new ones). */
static void probe_take(viewer *v)
{
    load_job *j = v->doc.pin_job;
    if (!load_job_done(j))
        return;
    bool ok = load_job_wait(j);
    pin_entry *e = v->doc.pin_job_gen == v->doc.pins_gen ? entry(v, load_job_path(j)) : NULL;
    if (e && ok) {
        sample(load_job_image(j), (const int (*)[2])v->s.pins, v->s.npins, e);
    } else if (e) {
        e->state = PIN_FAILED;
        snprintf(e->err, sizeof e->err, "%.150s", load_job_err(j));
    }
    if (e)
        e->gen = v->doc.pin_job_gen;
    load_job_free(j);
    v->doc.pin_job = NULL;
    v->dirty = true;
}

/* Whether open entry I needs the worker: a file, not shown, without values for the pins. A
 * network image not shown has none to give (it is no file): said so in its entry. */
static bool wanted(viewer *v, int i)
{
    pin_entry *e = find(v, v->doc.list.files[i]);
    if (i == v->doc.list.cur || (e && e->gen == v->doc.pins_gen))
        return false;
    if (!viewer_net_name(v, v->doc.list.files[i]))
        return true;
    if ((e = entry(v, v->doc.list.files[i]))) {
        e->gen = v->doc.pins_gen;
        e->state = PIN_FAILED;
        snprintf(e->err, sizeof e->err, "a network image: its values show while it is shown");
    }
    return false;
}

/* A decode (load_job.c: one job at a time) of the first open file that wants one, if any;
 * with the command line's part and layer, as the next load of another file asks. */
static void probe_start(viewer *v)
{
    for (int i = 0; i < v->doc.list.nfiles; i++)
        if (wanted(v, i)) {
            v->doc.pin_job = load_job_start(v, v->doc.list.files[i], false);
            v->doc.pin_job_gen = v->doc.pins_gen;
            return;
        }
}

void viewer_pins_poll(viewer *v)
{
    if (v->doc.pin_job)
        probe_take(v);
    if (v->s.npins == 0)
        return;
    if (v->doc.have_image && v->doc.list.nfiles > 0) { /* the shown image: read now, every frame */
        pin_entry *e = entry(v, v->doc.list.files[v->doc.list.cur]);
        if (e) {
            e->gen = v->doc.pins_gen;
            sample(&v->doc.img, (const int (*)[2])v->s.pins, v->s.npins, e);
        }
    }
    if (!v->doc.pin_job)
        probe_start(v);
    if (v->testing)   /* the test hooks see every value (reproducible screenshots) */
        viewer_pins_wait(v);
}

void viewer_pins_wait(viewer *v)
{
    /* Each round reads one file; a file whose entry cannot be made (no memory) stays wanted:
     * as many rounds as files at most. */
    for (int round = 0; v->doc.pin_job && round <= v->doc.list.nfiles; round++) {
        load_job_wait(v->doc.pin_job);
        probe_take(v);
        if (v->s.npins > 0)
            probe_start(v);
    }
}

bool viewer_pins_busy(const viewer *v) { return v->doc.pin_job != NULL; }

void viewer_pins_stop(viewer *v)
{
    if (v->doc.pin_job)
        load_job_free(v->doc.pin_job);
    v->doc.pin_job = NULL;
    for (int i = 0; i < v->doc.npin_cache; i++)
        free(v->doc.pin_cache[i].path);
    free(v->doc.pin_cache);
    v->doc.pin_cache = NULL;
    v->doc.npin_cache = 0;
}

int viewer_pin_value(const viewer *v, int file, int pin, double out[4])
{
    const pin_entry *e =
        file >= 0 && file < v->doc.list.nfiles ? find(v, v->doc.list.files[file]) : NULL;
    if (!e || e->gen != v->doc.pins_gen || pin < 0 || pin >= v->s.npins)
        return PIN_PENDING;
    if (e->state != PIN_READY || !e->inside[pin])
        return e->state == PIN_READY ? PIN_OUTSIDE : e->state;
    const float *p = e->rgba[pin];
    tonemap_params tm = v->s.tm;
    char why[HT_ERR_MAX];
    if (v->s.pin_values != PIN_FILE && file != v->doc.list.cur &&
        !tonemap_set_colour(&tm, &e->colour, why, sizeof why))
        return PIN_FAILED;
    switch (v->s.pin_values) {
    case PIN_WORKING: {
        double in[3] = {p[0], p[1], p[2]};
        colour_xform_apply(&tm.colour, in, out);
        out[3] = p[3];
        return PIN_READY;
    }
    case PIN_DISPLAY: {
        int b[3];
        if (viewer_display_in(&v->rnd, &v->s) || !viewer_pixel_bytes(v, &tm, p, b))
            return PIN_NO_CURVE;
        for (int c = 0; c < 3; c++)
            out[c] = b[c];
        out[3] = 255;
        return PIN_READY;
    }
    default:
        for (int c = 0; c < 4; c++)
            out[c] = p[c];
        return PIN_READY;
    }
}

const char *viewer_pin_error(const viewer *v, int file)
{
    const pin_entry *e =
        file >= 0 && file < v->doc.list.nfiles ? find(v, v->doc.list.files[file]) : NULL;
    return e && e->state == PIN_FAILED ? e->err : "";
}

/* ---------------------------------------------------------------------------------------
 * The actions */

void act_pin(viewer *v, double arg)
{
    (void)arg;
    view_place place = viewer_place_at(&v->s, &v->doc, v->vp.w, v->vp.h);
    view_point i = view_to_image(place, (view_point){v->in.pin_at[0], v->in.pin_at[1]});
    int x = (int)floor(i.x), y = (int)floor(i.y);
    if (!v->doc.have_image ||
        !(i.x >= 0 && i.y >= 0 && x < v->doc.img.width && y < v->doc.img.height)) {
        viewer_set_message(v, true, "Ctrl+click on the image pins a pixel (not outside it)");
        return;
    }
    x += v->doc.img.data_window[0];
    y += v->doc.img.data_window[1];
    for (int k = 0; k < v->s.npins; k++)
        if (v->s.pins[k][0] == x && v->s.pins[k][1] == y)
            return;   /* pinned already */
    if (v->s.npins == VIEWER_PINS_MAX) {   /* the oldest goes */
        memmove(v->s.pins, v->s.pins + 1, sizeof v->s.pins - sizeof v->s.pins[0]);
        v->s.npins--;
    }
    v->s.pins[v->s.npins][0] = x;
    v->s.pins[v->s.npins][1] = y;
    v->s.npins++;
    v->doc.pins_gen++;
}

void act_pins_clear(viewer *v, double arg)
{
    (void)arg;
    v->s.npins = 0;
    v->doc.pins_gen++;
}

void act_set_pin_values(session *s, double mode)
{
    if (ht_enum_has(pin_value_modes, (int)mode))
        s->pin_values = (int)mode;
}
