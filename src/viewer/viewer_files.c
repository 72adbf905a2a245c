/* The viewer's file list in action (file_list.c holds the list): opening files and folders,
 * next/previous, the shown file's neighbours, dropped and handed-over files; loading the
 * current file, and its parts and layers. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parallel.h"
#include "tonemap_fast.h"
#include "viewer_internal.h"

void viewer_files_free(viewer *v) { file_list_free(&v->doc.list); }

bool viewer_files_set(viewer *v, char **paths, int n)
{
    viewer_files_free(v);
    char err[HT_ERR_MAX];
    for (int i = 0; i < n; i++)
        if (file_list_open(&v->doc.list, paths[i], err, sizeof err) < 0)
            fprintf(stderr, "hdrtone: %s\n", err);
    return v->doc.list.nfiles > 0;
}

bool viewer_load_source(viewer *v, const char *path, hdr_image *img, char *err, size_t errlen)
{
    const char *net = viewer_net_name(v, path);
    if (net)
        return viewer_net_load(v, net, img, err, errlen);
    char part[16], layer[64];
    image_load_options lo = viewer_load_options(v, true, part, sizeof part, layer, sizeof layer);
    return image_load(path, &lo, img, err, errlen);
}

bool viewer_show_image(viewer *v, hdr_image *img, char *err, size_t errlen)
{
    image_free(&v->doc.img);
    v->doc.img = *img;
    memset(img, 0, sizeof *img);
    /* What E and Y cycle through. */
    v->doc.part_idx = v->doc.img.part;
    v->doc.part_count = v->doc.img.part_count;
    if (v->doc.img.parts && v->doc.img.part >= 0 && v->doc.img.part < v->doc.img.part_count)
        snprintf(v->doc.layers, sizeof v->doc.layers, "%s",
                 v->doc.img.parts[v->doc.img.part].layers);
    else
        snprintf(v->doc.layers, sizeof v->doc.layers, "%s",
                 v->doc.img.layer[0] ? v->doc.img.layer : "(none)");
    v->dirty = true;
    /* Its colour space on the session's display (the loaders checked the tags). */
    if (!tonemap_set_colour(&v->s.tm, &v->doc.img.colour, err, errlen)) {
        viewer_image_drop(v);
        return false;
    }
    v->doc.have_image = true;
    v->doc.image_gen++;
    if (v->doc.list.cur < v->doc.list.nfiles)   /* what the image list shows */
        v->doc.list.info[v->doc.list.cur] = (file_info){v->doc.img.width, v->doc.img.height};
    viewer_update_y_range(v);
    return true;
}

void viewer_image_drop(viewer *v)
{
    image_free(&v->doc.img);
    v->doc.have_image = false;
}

void viewer_upload_failed(viewer *v, const char *err)
{
    viewer_image_drop(v);
    const char *path = v->doc.list.cur < v->doc.list.nfiles ? v->doc.list.files[v->doc.list.cur]
                                                            : "the image";
    snprintf(v->doc.load_err, sizeof v->doc.load_err, "%.200s: %.300s", path, err);
    fprintf(stderr, "hdrtone: %s\n", v->doc.load_err);
}

static void set_title(viewer *v, const char *path)
{
    char title[512];
    snprintf(title, sizeof title, "hdrtone - %s", viewer_base_name(path));
    platform_title(v, title);
}

/* A load of files[cur] begins: the shown image goes, the title and the neighbours follow,
 * and a load on its way is no longer wanted. Its path; NULL when the list is empty. */
static const char *load_prepare(viewer *v)
{
    image_free(&v->doc.img);
    v->doc.have_image = false;
    viewer_preview_drop(v);   /* an earlier load's rows */
    v->doc.load_err[0] = '\0';
    v->message[0] = '\0';
    v->doc.load_gen++;
    v->doc.load_want = false;
    v->dirty = true;
    if (v->doc.list.nfiles < 1) {
        platform_title(v, "hdrtone");
        return NULL;
    }
    const char *path = v->doc.list.files[v->doc.list.cur];
    char err[HT_ERR_MAX];
    set_title(v, path);
    if (viewer_net_name(v, path) || v->seq)
        file_list_clear_neighbours(&v->doc.list);
    else if (!file_list_update_neighbours(&v->doc.list, false, err, sizeof err))
        fprintf(stderr, "hdrtone: neighbours: %s\n", err);   /* the file may still load */
    return path;
}

/* The end of PATH's load: *IMG shown when it loaded (OK), else ERR said. */
static bool load_finish(viewer *v, const char *path, bool ok, hdr_image *img, const char *err)
{
    if (!ok) {
        snprintf(v->doc.load_err, sizeof v->doc.load_err, "%s", err);
        fprintf(stderr, "hdrtone: %s\n", err);
        return false;
    }
    char uerr[HT_ERR_MAX];
    if (!viewer_show_image(v, img, uerr, sizeof uerr)) {
        snprintf(v->doc.load_err, sizeof v->doc.load_err, "%.200s: %.300s", path, uerr);
        fprintf(stderr, "hdrtone: %s\n", v->doc.load_err);
        return false;
    }
    v->view_fresh = true;
    return true;
}

bool viewer_load_current(viewer *v)
{
    const char *path = load_prepare(v);
    if (!path)
        return false;
    hdr_image img = {0};
    char err[HT_ERR_MAX];
    bool ok = viewer_load_source(v, path, &img, err, sizeof err);
    return load_finish(v, path, ok, &img, err);
}

/* ---------------------------------------------------------------------------------------
 * Loading off the UI thread: one worker at a time, its job handed back under a lock */

static void load_start(viewer *v)
{
    v->doc.load_want = false;
    v->doc.load_job_gen = v->doc.load_gen;
    v->doc.load_percent = -1;
    /* As viewer_load_source asks (--colorspace too: it was left out here once). */
    if (!(v->doc.load_job = load_job_start(v, v->doc.list.files[v->doc.list.cur], true)))
        snprintf(v->doc.load_err, sizeof v->doc.load_err, "out of memory");
}

void viewer_load_begin(viewer *v)
{
    const char *path = load_prepare(v);
    if (!path)
        return;
    if (v->testing || viewer_net_name(v, path) || v->seq) {
        hdr_image img = {0};
        char err[HT_ERR_MAX];
        bool ok = viewer_load_source(v, path, &img, err, sizeof err);
        load_finish(v, path, ok, &img, err);
        return;
    }
    v->doc.load_want = true;
    viewer_load_poll(v);
}

void viewer_load_poll(viewer *v)
{
    load_job *j = v->doc.load_job;
    if (j) {
        bool wanted = v->doc.load_job_gen == v->doc.load_gen && !v->doc.load_want;
        if (!load_job_done(j)) {
            int pct = load_job_percent(j);   /* a band of rows in: the status line says so */
            v->dirty = v->dirty || pct != v->doc.load_percent;
            v->doc.load_percent = pct;
            if (wanted && load_job_preview(j))   /* and the rows landed show */
                viewer_preview_update(v, load_job_preview(j));
            return;
        }
        viewer_preview_drop(v);   /* the image or the error instead */
        v->doc.load_job = NULL;
        if (wanted)
            load_finish(v, load_job_path(j), load_job_wait(j), load_job_image(j),
                        load_job_err(j));
        v->dirty = true;
        load_job_free(j);
    }
    if (v->doc.load_want)
        load_start(v);
}

bool viewer_loading(const viewer *v) { return v->doc.load_job || v->doc.load_want; }

void viewer_loading_text(const viewer *v, char *buf, size_t len)
{
    const char *name =
        v->doc.list.nfiles > 0 ? viewer_base_name(v->doc.list.files[v->doc.list.cur]) : "";
    int pct = v->doc.load_job ? load_job_percent(v->doc.load_job) : -1;
    if (pct >= 0)
        snprintf(buf, len, "%s %d %%", name, pct);
    else
        snprintf(buf, len, "%s", name);
}

void viewer_load_stop(viewer *v)
{
    if (v->doc.load_job)
        load_job_free(v->doc.load_job);
    v->doc.load_job = NULL;
    v->doc.load_want = false;
}

bool viewer_replace_current(viewer *v, char *err, size_t errlen)
{
    if (v->doc.list.nfiles < 1) {
        snprintf(err, errlen, "no file");
        return false;
    }
    const char *path = v->doc.list.files[v->doc.list.cur];
    hdr_image img = {0};
    if (!viewer_load_source(v, path, &img, err, errlen))
        return false;
    bool same =
        v->doc.have_image &&
        memcmp(img.data_window, v->doc.img.data_window, sizeof img.data_window) == 0 &&
        memcmp(img.display_window, v->doc.img.display_window, sizeof img.display_window) == 0;
    char uerr[HT_ERR_MAX];
    if (!viewer_show_image(v, &img, uerr, sizeof uerr)) {
        snprintf(v->doc.load_err, sizeof v->doc.load_err, "%.200s: %.300s", path, uerr);
        snprintf(err, errlen, "%s", v->doc.load_err);
        return false;
    }
    v->doc.load_err[0] = '\0';
    if (!same)
        v->view_fresh = true;
    return true;
}

/* A worker's share of viewer_update_y_range: its rows' extremes. */
typedef struct y_range_job {
    const hdr_image *img;
    double w[3];
    int workers;
    double lo[PARALLEL_MAX_WORKERS], hi[PARALLEL_MAX_WORKERS];
} y_range_job;

static void y_range_rows(void *ctx, int worker)
{
    y_range_job *j = ctx;
    const hdr_image *img = j->img;
    size_t w = (size_t)img->width, y0 = (size_t)img->height * worker / j->workers,
           y1 = (size_t)img->height * (worker + 1) / j->workers;
    double lo = INFINITY, hi = 0;
    /* A sequence's frame has only half floats: a row at a time as floats. */
    float *row = img->rgba ? NULL : malloc(4 * w * sizeof *row);
    for (size_t r = y0; r < y1 && (img->rgba || row); r++) {
        const float *p = img->rgba ? img->rgba + 4 * w * r : row;
        if (row)
            image_half_to_rgba(img->half + 4 * w * r, 4 * w, row);
        for (const float *end = p + 4 * w; p < end; p += 4) {
            double y = j->w[0] * p[0] + j->w[1] * p[1] + j->w[2] * p[2];
            if (isfinite(y) && y > 0) {
                lo = fmin(lo, y);
                hi = fmax(hi, y);
            }
        }
    }
    free(row);
    j->lo[worker] = lo;
    j->hi[worker] = hi;
}

/* On every core: on the GL thread alone a 4K image's walk took 31 ms here, each time a file
 * or a sequence's frame is shown (BENCHMARKS.md, "The viewer's luminance range"). */
void viewer_update_y_range(viewer *v)
{
    v->doc.y_min = v->doc.y_max = 0;
    if (!v->doc.have_image || !(v->doc.img.rgba || v->doc.img.half))
        return;
    y_range_job *j = malloc(sizeof *j);
    if (!j)
        return;   /* the axis then spans the curve's range alone */
    j->img = &v->doc.img;
    tonemap_weights(&v->s.tm, j->w);
    int rows_per = 64;   /* a worker's least share: thread starts cost more below */
    j->workers = tonemap_fast_threads(0);
    if (j->workers > v->doc.img.height / rows_per)
        j->workers = v->doc.img.height / rows_per > 1 ? v->doc.img.height / rows_per : 1;
    parallel_run(j->workers, y_range_rows, j);
    double lo = INFINITY, hi = 0;
    for (int i = 0; i < j->workers; i++) {
        lo = fmin(lo, j->lo[i]);
        hi = fmax(hi, j->hi[i]);
    }
    free(j);
    if (hi > 0) {
        v->doc.y_min = lo;
        v->doc.y_max = hi;
    }
}

/* Another file: from --part and --layer again, or the loader's default. */
static void load_other_file(viewer *v)
{
    v->doc.part_set = v->doc.layer_set = false;
    v->doc.part_count = 0;
    viewer_load_begin(v);
}

void viewer_file_step(viewer *v, int dir)
{
    if (v->doc.list.nfiles <= 1) {
        int others = v->doc.list.nneighbours - (file_list_neighbour_index(&v->doc.list) >= 0);
        if (others > 0)
            viewer_set_message(v, false, "one image open; Ctrl+PageDown / Ctrl+PageUp show the "
                                         "%d other image file%s of its folder", others,
                               others == 1 ? "" : "s");
        else
            viewer_set_message(v, false, "one image open (open a folder or several files)");
        return;
    }
    v->doc.list.cur = (v->doc.list.cur + dir + v->doc.list.nfiles) % v->doc.list.nfiles;
    load_other_file(v);
}

void viewer_neighbour_step(viewer *v, int dir)
{
    const char *cur = file_list_current(&v->doc.list);
    char err[HT_ERR_MAX];
    if (!cur || viewer_net_name(v, cur) || v->seq) {
        viewer_set_message(v, false, "no folder to step through: the image is not a file");
        return;
    }
    if (!file_list_update_neighbours(&v->doc.list, true, err, sizeof err)) {   /* files come, go */
        viewer_set_message(v, true, "%s", err);
        return;
    }
    const char *next = file_list_neighbour(&v->doc.list, dir);
    if (!next) {
        viewer_set_message(v, false, "no other image file in the folder of %s",
                           viewer_base_name(cur));
        return;
    }
    if (!file_list_show_neighbour(&v->doc.list, next)) {
        viewer_set_message(v, true, "out of memory");
        return;
    }
    load_other_file(v);
    if (!v->doc.load_err[0])
        viewer_set_message(v, false, "%s: %d of %d in its folder",
                           viewer_base_name(file_list_current(&v->doc.list)),
                           file_list_neighbour_index(&v->doc.list) + 1, v->doc.list.nneighbours);
}

/* Loads files[cur] again (another part or layer, or the same), keeping the view when the
 * windows have not changed. */
static bool reload_keep_view(viewer *v)
{
    bool had = v->doc.have_image;
    int dw[4], dsp[4];
    memcpy(dw, v->doc.img.data_window, sizeof dw);
    memcpy(dsp, v->doc.img.display_window, sizeof dsp);
    view_state view = v->s.view;
    if (!viewer_load_current(v))
        return false;
    if (had && memcmp(dw, v->doc.img.data_window, sizeof dw) == 0 &&
        memcmp(dsp, v->doc.img.display_window, sizeof dsp) == 0) {
        v->s.view = view;
        v->view_fresh = false;
    }
    return true;
}

void viewer_reload(viewer *v, int arg)
{
    (void)arg;
    if (v->doc.list.nfiles < 1)
        return;
    if (reload_keep_view(v))
        viewer_set_message(v, false, "reloaded %s", v->doc.list.files[v->doc.list.cur]);
}

void viewer_part_step(viewer *v, int dir)
{
    int n = v->doc.part_count;
    if (n <= 1) {
        if (v->doc.list.nfiles > 0)
            viewer_set_message(v, false, "%s has one part only",
                               viewer_base_name(v->doc.list.files[v->doc.list.cur]));
        return;
    }
    int k = ((v->doc.part_idx + dir) % n + n) % n;
    snprintf(v->doc.part_sel, sizeof v->doc.part_sel, "%d", k);
    v->doc.part_set = true;
    v->doc.layer_set = false;
    v->doc.part_idx = k;
    if (reload_keep_view(v))
        viewer_set_message(v, false, "part %d of %d (from 0, as --part)%s%s%s, layer %s", k, n,
                           v->doc.img.part_name[0] ? " '" : "", v->doc.img.part_name,
                           v->doc.img.part_name[0] ? "'" : "",
                           v->doc.img.layer[0] ? v->doc.img.layer : "(none)");
}

void viewer_layer_step(viewer *v, int dir)
{
    char names[VIEWER_MAX_LAYERS][64];
    int n = viewer_layer_names(v, names, VIEWER_MAX_LAYERS);
    if (n <= 1) {
        viewer_set_message(v, false, "this part has one layer only (%s)",
                           v->doc.layers[0] ? v->doc.layers : "-");
        return;
    }
    const char *cur = v->doc.have_image ? v->doc.img.layer : v->doc.layer_sel;
    int i = 0;
    while (i < n && strcmp(names[i], cur) != 0)
        i++;
    i = i == n ? 0 : ((i + dir) % n + n) % n;
    snprintf(v->doc.layer_sel, sizeof v->doc.layer_sel, "%.63s", names[i]);
    snprintf(v->doc.part_sel, sizeof v->doc.part_sel, "%d", v->doc.part_idx);
    v->doc.part_set = v->doc.layer_set = true;
    if (reload_keep_view(v))
        viewer_set_message(v, false, "layer %d/%d %s: %s", i + 1, n,
                           names[i][0] ? names[i] : "(none)", v->doc.img.rgb_source);
}

void viewer_files_drop(viewer *v, char **paths, int n)
{
    if (n <= 0)
        return;
    char err[HT_ERR_MAX];
    int first = -1;
    bool failed = false;
    for (int i = 0; i < n; i++) {
        int k = file_list_open(&v->doc.list, paths[i], err, sizeof err);
        failed |= k < 0;
        first = first < 0 ? k : first;
    }
    if (first >= 0) {
        v->doc.list.cur = first;
        load_other_file(v);
    }
    if (failed)   /* after the load, which clears the message */
        viewer_set_message(v, true, "%s", err);
}
