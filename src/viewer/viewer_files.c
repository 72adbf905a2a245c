/* The viewer's file list (the files given, or the HDR files of the one file's folder;
 * next/previous; dropped files), loading the current file, and its parts and layers. */
#define _XOPEN_SOURCE 700   /* opendir, strcasecmp, strdup */

#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "viewer_internal.h"

const char *viewer_base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static bool hdr_extension(const char *name)
{
    static const char *const exts[] = {".exr", ".hdr", ".pic", ".rgbe"};
    const char *dot = strrchr(name, '.');
    for (size_t i = 0; dot && i < sizeof exts / sizeof exts[0]; i++)
        if (strcasecmp(dot, exts[i]) == 0)
            return true;
    return false;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

void viewer_files_free(viewer *v)
{
    for (int i = 0; i < v->nfiles; i++)
        free(v->files[i]);
    free(v->files);
    v->files = NULL;
    v->nfiles = v->cur = 0;
}

bool viewer_files_set(viewer *v, char **paths, int n)
{
    viewer_files_free(v);
    if (n == 1) {
        char dir[PATH_MAX];
        const char *slash = strrchr(paths[0], '/');
        snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - paths[0]) : 1,
                 slash ? paths[0] : ".");
        if (slash == paths[0])
            snprintf(dir, sizeof dir, "/");
        DIR *d = opendir(dir);
        int cap = 16;
        v->files = malloc((size_t)cap * sizeof *v->files);
        bool found = false;
        for (struct dirent *e; d && v->files && (e = readdir(d));) {
            if (!hdr_extension(e->d_name))
                continue;
            if (v->nfiles == cap) {
                char **f = realloc(v->files, (size_t)(cap *= 2) * sizeof *f);
                if (!f)
                    break;
                v->files = f;
            }
            char path[PATH_MAX + 256];
            if (slash)
                snprintf(path, sizeof path, "%s%s%s", dir, strcmp(dir, "/") ? "/" : "", e->d_name);
            else
                snprintf(path, sizeof path, "%s", e->d_name);
            if (!(v->files[v->nfiles] = strdup(path)))
                break;
            found |= strcmp(e->d_name, viewer_base_name(paths[0])) == 0;
            v->nfiles++;
        }
        if (d)
            closedir(d);
        /* The given file is always in the list, whatever its name (or if the folder cannot
         * be read): as given, so messages show the user's spelling. */
        if (v->files && !found) {
            char **f = realloc(v->files, (size_t)(v->nfiles + 1) * sizeof *f);
            if (f && (f[v->nfiles] = strdup(paths[0])))
                v->nfiles++;
            if (f)
                v->files = f;
        }
        if (v->files)
            qsort(v->files, (size_t)v->nfiles, sizeof *v->files, cmp_str);
        for (int i = 0; i < v->nfiles; i++)
            if (strcmp(viewer_base_name(v->files[i]), viewer_base_name(paths[0])) == 0)
                v->cur = i;
        if (v->nfiles > 0)
            return true;
        viewer_files_free(v);
    }
    v->files = calloc((size_t)n, sizeof *v->files);
    if (!v->files)
        return false;
    for (int i = 0; i < n; i++)
        if ((v->files[v->nfiles] = strdup(paths[i])))
            v->nfiles++;
    return v->nfiles > 0;
}

bool viewer_load_source(viewer *v, const char *path, hdr_image *img, char *err, size_t errlen)
{
    const char *net = viewer_net_name(v, path);
    if (net)
        return viewer_net_load(v, net, img, err, errlen);
    image_load_options lo = {0};
    lo.part = v->part_set ? v->part_sel : v->opt_part;
    lo.layer = v->layer_set ? v->layer_sel : v->opt_layer;
    lo.max_pixels = v->max_pixels >= 1 ? (uint64_t)v->max_pixels : 0;
    return image_load(path, &lo, img, err, errlen);
}

bool viewer_show_image(viewer *v, hdr_image *img, char *err, size_t errlen)
{
    image_free(&v->img);
    v->img = *img;
    memset(img, 0, sizeof *img);
    /* What E and Y cycle through. */
    v->part_idx = v->img.part;
    v->part_count = v->img.part_count;
    if (v->img.parts && v->img.part >= 0 && v->img.part < v->img.part_count)
        snprintf(v->layers, sizeof v->layers, "%s", v->img.parts[v->img.part].layers);
    else
        snprintf(v->layers, sizeof v->layers, "%s", v->img.layer[0] ? v->img.layer : "(none)");
    v->rb.valid = false;
    v->dirty = true;
    if (!pipeline_upload(v->pipe, &v->img, err, errlen)) {
        image_free(&v->img);
        v->have_image = false;
        return false;
    }
    v->have_image = true;
    v->image_gen++;
    viewer_update_y_range(v);
    return true;
}

static void set_title(viewer *v, const char *path)
{
    char title[512];
    snprintf(title, sizeof title, "hdrtone - %s", viewer_base_name(path));
    glfwSetWindowTitle(v->win, title);
}

bool viewer_load_current(viewer *v)
{
    image_free(&v->img);
    v->have_image = false;
    v->load_err[0] = '\0';
    v->message[0] = '\0';
    v->rb.valid = false;
    v->dirty = true;
    if (v->nfiles < 1) {
        glfwSetWindowTitle(v->win, "hdrtone");
        return false;
    }
    const char *path = v->files[v->cur];
    char err[HT_ERR_MAX];
    set_title(v, path);
    hdr_image img = {0};
    if (!viewer_load_source(v, path, &img, err, sizeof err)) {
        snprintf(v->load_err, sizeof v->load_err, "%s", err);
        fprintf(stderr, "hdrtone: %s\n", err);
        return false;
    }
    if (!viewer_show_image(v, &img, err, sizeof err)) {
        snprintf(v->load_err, sizeof v->load_err, "%.200s: %.300s", path, err);
        fprintf(stderr, "hdrtone: %s\n", v->load_err);
        return false;
    }
    v->view_fresh = true;
    return true;
}

bool viewer_replace_current(viewer *v, char *err, size_t errlen)
{
    if (v->nfiles < 1) {
        snprintf(err, errlen, "no file");
        return false;
    }
    const char *path = v->files[v->cur];
    hdr_image img = {0};
    if (!viewer_load_source(v, path, &img, err, errlen))
        return false;
    bool same = v->have_image &&
                memcmp(img.data_window, v->img.data_window, sizeof img.data_window) == 0 &&
                memcmp(img.display_window, v->img.display_window, sizeof img.display_window) == 0;
    char uerr[HT_ERR_MAX];
    if (!viewer_show_image(v, &img, uerr, sizeof uerr)) {
        snprintf(v->load_err, sizeof v->load_err, "%.200s: %.300s", path, uerr);
        snprintf(err, errlen, "%s", v->load_err);
        return false;
    }
    v->load_err[0] = '\0';
    if (!same)
        v->view_fresh = true;
    return true;
}

void viewer_update_y_range(viewer *v)
{
    v->y_min = v->y_max = 0;
    if (!v->have_image)
        return;
    double w[3];
    tonemap_luminance_weights(v->tm.luminance, w);
    double lo = INFINITY, hi = 0;
    size_t n = (size_t)v->img.width * v->img.height;
    for (size_t i = 0; i < n; i++) {
        const float *p = v->img.rgba + 4 * i;
        double y = w[0] * p[0] + w[1] * p[1] + w[2] * p[2];
        if (isfinite(y) && y > 0) {
            lo = fmin(lo, y);
            hi = fmax(hi, y);
        }
    }
    if (hi > 0) {
        v->y_min = lo;
        v->y_max = hi;
    }
}

/* Another file: from --part and --layer again, or the loader's default. */
static void load_other_file(viewer *v)
{
    v->part_set = v->layer_set = false;
    v->part_count = 0;
    viewer_load_current(v);
}

void viewer_file_step(viewer *v, int dir)
{
    if (v->nfiles <= 1) {
        viewer_set_message(v, false,
                           "no other file (give several, or one in a folder of HDR files)");
        return;
    }
    v->cur = (v->cur + dir + v->nfiles) % v->nfiles;
    load_other_file(v);
}

/* Loads files[cur] again (another part or layer, or the same), keeping the view when the
 * windows have not changed. */
static bool reload_keep_view(viewer *v)
{
    bool had = v->have_image;
    int dw[4], dsp[4];
    memcpy(dw, v->img.data_window, sizeof dw);
    memcpy(dsp, v->img.display_window, sizeof dsp);
    view_state view = v->view;
    if (!viewer_load_current(v))
        return false;
    if (had && memcmp(dw, v->img.data_window, sizeof dw) == 0 &&
        memcmp(dsp, v->img.display_window, sizeof dsp) == 0) {
        v->view = view;
        v->view_fresh = false;
    }
    return true;
}

void viewer_reload(viewer *v, int arg)
{
    (void)arg;
    if (v->nfiles < 1)
        return;
    if (reload_keep_view(v))
        viewer_set_message(v, false, "reloaded %s", v->files[v->cur]);
}

void viewer_part_step(viewer *v, int dir)
{
    int n = v->part_count;
    if (n <= 1) {
        if (v->nfiles > 0)
            viewer_set_message(v, false, "%s has one part only",
                               viewer_base_name(v->files[v->cur]));
        return;
    }
    int k = ((v->part_idx + dir) % n + n) % n;
    snprintf(v->part_sel, sizeof v->part_sel, "%d", k);
    v->part_set = true;
    v->layer_set = false;
    v->part_idx = k;
    if (reload_keep_view(v))
        viewer_set_message(v, false, "part %d/%d%s%s%s, layer %s", k + 1, n,
                           v->img.part_name[0] ? " '" : "", v->img.part_name,
                           v->img.part_name[0] ? "'" : "",
                           v->img.layer[0] ? v->img.layer : "(none)");
}

int viewer_layer_names(const viewer *v, char (*names)[64], int max)
{
    int n = 0;
    const char *s = v->layers;
    while (*s && n < max) {
        size_t len = strcspn(s, ",");
        if (len < 64 && !(len >= 3 && strncmp(s + len - 3, "...", 3) == 0)) {
            snprintf(names[n], 64, "%.*s", (int)len, s);
            if (strcmp(names[n], "(none)") == 0)
                names[n][0] = '\0';
            n++;
        }
        s += len + (s[len] == ',');
    }
    return n;
}

void viewer_layer_step(viewer *v, int dir)
{
    char names[VIEWER_MAX_LAYERS][64];
    int n = viewer_layer_names(v, names, VIEWER_MAX_LAYERS);
    if (n <= 1) {
        viewer_set_message(v, false, "this part has one layer only (%s)",
                           v->layers[0] ? v->layers : "-");
        return;
    }
    const char *cur = v->have_image ? v->img.layer : v->layer_sel;
    int i = 0;
    while (i < n && strcmp(names[i], cur) != 0)
        i++;
    i = i == n ? 0 : ((i + dir) % n + n) % n;
    snprintf(v->layer_sel, sizeof v->layer_sel, "%.63s", names[i]);
    snprintf(v->part_sel, sizeof v->part_sel, "%d", v->part_idx);
    v->part_set = v->layer_set = true;
    if (reload_keep_view(v))
        viewer_set_message(v, false, "layer %d/%d %s: %s", i + 1, n,
                           names[i][0] ? names[i] : "(none)", v->img.rgb_source);
}

int viewer_files_add(viewer *v, const char *path)
{
    for (int i = 0; i < v->nfiles; i++)
        if (strcmp(v->files[i], path) == 0)
            return i;
    char **f = realloc(v->files, (size_t)(v->nfiles + 1) * sizeof *f);
    if (!f)
        return -1;
    v->files = f;
    if (!(f[v->nfiles] = strdup(path)))
        return -1;
    return v->nfiles++;
}

void viewer_files_remove(viewer *v, int i)
{
    free(v->files[i]);
    memmove(v->files + i, v->files + i + 1, (size_t)(v->nfiles - i - 1) * sizeof *v->files);
    v->nfiles--;
    if (v->cur > i || v->cur >= v->nfiles)
        v->cur = v->cur > 0 ? v->cur - 1 : 0;
}

void viewer_files_drop(viewer *v, char **paths, int n)
{
    if (n > 0)
        viewer_seq_stop(v);   /* the dropped files replace a sequence too */
    if (n > 0 && viewer_files_set(v, paths, n))
        load_other_file(v);
}
