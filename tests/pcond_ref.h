/* Reading pcond-reference/ (the README there says what each file holds): shared by the pcond
 * tests. Header-only (static functions): the test CMake glob builds tests/test_*.c with
 * testutil.c and gpucpu.c only. */
#ifndef HT_PCOND_REF_H
#define HT_PCOND_REF_H

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tonemap.h"

/* A TSV file: rows of tab-separated cells, row 0 the header; or a whitespace-separated text
 * file (the curve files) when read with ws = 1. */
typedef struct tsv {
    char *text;
    char ***cells;   /* cells[row][col] */
    int *ncols;
    int nrows;
} tsv;

static inline void tsv_free(tsv *t)
{
    for (int i = 0; i < t->nrows; i++)
        free(t->cells[i]);
    free(t->cells);
    free(t->ncols);
    free(t->text);
    memset(t, 0, sizeof *t);
}

static inline int tsv_read(const char *path, int ws, tsv *t)
{
    memset(t, 0, sizeof *t);
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    t->text = malloc((size_t)size + 1);
    if (!t->text || fread(t->text, 1, (size_t)size, f) != (size_t)size) {
        fclose(f);
        tsv_free(t);
        return 0;
    }
    fclose(f);
    t->text[size] = '\0';
    int lines = 0;
    for (long i = 0; i < size; i++)
        lines += t->text[i] == '\n';
    t->cells = calloc((size_t)lines + 1, sizeof *t->cells);
    t->ncols = calloc((size_t)lines + 1, sizeof *t->ncols);
    char *save = NULL;
    for (char *line = strtok_r(t->text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        int cap = 8, n = 0;
        char **row = malloc(sizeof *row * (size_t)cap);
        char *s2 = NULL;
        for (char *c = strtok_r(line, ws ? " \t\r" : "\t\r", &s2); c;
             c = strtok_r(NULL, ws ? " \t\r" : "\t\r", &s2)) {
            if (n == cap)
                row = realloc(row, sizeof *row * (size_t)(cap *= 2));
            row[n++] = c;
        }
        t->cells[t->nrows] = row;
        t->ncols[t->nrows++] = n;
    }
    return 1;
}

static inline int tsv_col(const tsv *t, const char *name)
{
    for (int c = 0; t->nrows && c < t->ncols[0]; c++)
        if (strcmp(t->cells[0][c], name) == 0)
            return c;
    return -1;
}

/* DIR/NAME/FILE in a static buffer (exits when it does not fit). */
static inline const char *ref_path(const char *dir, const char *name, const char *file)
{
    static char buf[4096];
    int n = snprintf(buf, sizeof buf, "%s/%s/%s", dir, name, file);
    if (n < 0 || (size_t)n >= sizeof buf) {
        fprintf(stderr, "path too long: %s/%s\n", dir, name);
        exit(1);
    }
    return buf;
}

/* params.tsv: the value of KEY (row) in column COL ("default", "s_foveal", ...). */
static inline const char *param_value(const tsv *t, const char *key, const char *col)
{
    int c = tsv_col(t, col);
    for (int r = 1; c >= 0 && r < t->nrows; r++)
        if (strcmp(t->cells[r][0], key) == 0 && c < t->ncols[r])
            return t->cells[r][c];
    return NULL;
}

/* The six runs of every folder: pcond's options, and whether the point samples are on. */
typedef struct pcond_mode {
    const char *column;      /* params.tsv column */
    const char *curve;       /* the -x file */
    int ceiling;
    int force_linear;
    int point_samples;
} pcond_mode;

static const pcond_mode PCOND_MODES[6] = {
    {"default", "curve_default.txt", HT_CEILING_LINEAR, 0, 1},
    {"s", "curve_s.txt", HT_CEILING_HUMAN, 0, 1},
    {"l", "curve_l.txt", HT_CEILING_LINEAR, 1, 1},
    {"default_foveal", "curve_default_foveal.txt", HT_CEILING_LINEAR, 0, 0},
    {"s_foveal", "curve_s_foveal.txt", HT_CEILING_HUMAN, 0, 0},
    {"l_foveal", "curve_l_foveal.txt", HT_CEILING_LINEAR, 1, 0},
};

static inline void pcond_mode_params(const pcond_mode *m, tonemap_params *p)
{
    tonemap_params_default(p);
    tonemap_apply_preset(p, HT_PRESET_PCOND);
    p->ceiling = m->ceiling;
    p->force_linear = m->force_linear != 0;
    p->point_samples = m->point_samples;
}

/* pcond's human-vision runs (pcond-reference/README_human.md): the file suffix and
 * params_human.tsv column, the options, and hdrtone's command-line options for them. */
typedef struct human_mode {
    const char *column;
    bool veil, acuity, color, hsens;
    const char *cli;
} human_mode;

enum { HUMAN_RUN_COUNT = 5 };
static const human_mode HUMAN_MODES[HUMAN_RUN_COUNT] = {
    {"h", true, true, true, true, "--human"},
    {"v", true, false, false, false, "--veil"},
    {"a", false, true, false, false, "--acuity"},
    {"c", false, false, true, false, "--color-loss"},
    {"vs", true, false, false, true, "--veil --ceiling human"},
};

static inline void human_mode_params(const human_mode *m, tonemap_params *p)
{
    tonemap_params_default(p);
    tonemap_apply_preset(p, HT_PRESET_PCOND);
    p->ceiling = m->hsens ? HT_CEILING_HUMAN : HT_CEILING_LINEAR;
    p->veil = m->veil;
    p->acuity = m->acuity;
    p->color_loss = m->color;
}

/* The image folders of DIR (those with a params.tsv), sorted; returns the count. */
static inline int pcond_folders(const char *dir, char names[][64], int max)
{
    DIR *d = opendir(dir);
    int n = 0;
    if (!d)
        return 0;
    for (struct dirent *e; (e = readdir(d)) && n < max;) {
        if (e->d_name[0] == '.' || strlen(e->d_name) >= 64)
            continue;
        FILE *f = fopen(ref_path(dir, e->d_name, "params.tsv"), "r");
        if (!f)
            continue;
        fclose(f);
        snprintf(names[n++], 64, "%.63s", e->d_name);
    }
    closedir(d);
    for (int i = 1; i < n; i++)   /* insertion sort: a stable report order */
        for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            char tmp[64];
            memcpy(tmp, names[j], 64);
            memcpy(names[j], names[j - 1], 64);
            memcpy(names[j - 1], tmp, 64);
        }
    return n;
}

/* Max |log10 ours - log10 pcond| over the 100 points of a -x file (LD: our curve as pcond
 * prints it); *npts gets the number of points, *worst_lw the world luminance of the worst.
 * -1 when the file cannot be read. */
static inline double curve_deviation(const char *path, const tonemap_result *r,
                                     const tonemap_params *p,
                                     double (*ld)(const tonemap_result *, const tonemap_params *,
                                                  double),
                                     int *npts, double *worst_lw)
{
    tsv t;
    if (!tsv_read(path, 1, &t))
        return -1;
    double worst = 0;
    *npts = 0;
    for (int i = 0; i < t.nrows; i++) {
        if (t.ncols[i] < 2)
            continue;
        double lw = atof(t.cells[i][0]), ref = atof(t.cells[i][1]);
        double d = fabs(log10(ld(r, p, lw)) - log10(ref));
        if (!(d <= worst)) {
            worst = d;
            *worst_lw = lw;
        }
        (*npts)++;
    }
    tsv_free(&t);
    return worst;
}

/* Our linear output OURS against pcond's stored REF: the largest channel difference over the
 * largest reference channel, and the luminance difference over the reference luminance, each
 * less one RGBE step of the reference (and ABS, the storage's absolute step); 0 when within.
 * *RAW: the same without the allowance. */
static inline double pcond_pixel_error(const double ours[3], const double ref[3],
                                       double abs_step, double *raw)
{
    double w[3], big = fmax(ref[0], fmax(ref[1], ref[2])), d = 0, yo = 0, yr = 0;
    tonemap_luminance_weights(HT_LUMINANCE_RADIANCE, w);
    for (int c = 0; c < 3; c++) {
        d = fmax(d, fabs(ours[c] - ref[c]));
        yo += w[c] * ours[c];
        yr += w[c] * ref[c];
    }
    *raw = big > 0 ? fmax(d / big, yr > 0 ? fabs(yo - yr) / yr : 0.0) : d > abs_step ? 1.0 : 0.0;
    if (!(big > 0))
        return d > abs_step + 1e-30 ? 1.0 : 0.0;
    int e;
    frexp(big, &e);
    double step = ldexp(1.0, e - 8) + abs_step;
    double ergb = (d - step) / big, ey = yr > 0 ? (fabs(yo - yr) - step) / yr : 0.0;
    return fmax(0.0, fmax(ergb, ey));
}

#endif
