/* hdrtone compare: each TEST against REF, on the CPU reference or the GPU. */
#include "compare_cmd.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "commands.h"
#include "compare_run.h"
#include "flip_input.h"
#include "map_write.h"
#include "metrics.h"
#include "png_export.h"

const ht_enum compare_metrics[] = {
    {COMPARE_METRIC_FLIP, "flip", "FLIP"},
    {COMPARE_METRIC_MSE, "mse", "MSE"},
    {COMPARE_METRIC_RMSE, "rmse", "RMSE"},
    {COMPARE_METRIC_PSNR, "psnr", "PSNR"},
    {COMPARE_METRIC_RELMSE, "relmse", "relative MSE"},
    {COMPARE_METRIC_MAE, "mae", "MAE"},
    {0, NULL, NULL},
};

const ht_enum compare_map_kinds[] = {
    {COMPARE_MAP_COLOR, "color", "colour map"},
    {COMPARE_MAP_GREY, "grey", "grey"},
    {0, NULL, NULL},
};

/* The value --metric names, from R. */
static double metric_value(int metric, const flip_report *r)
{
    switch (metric) {
    case COMPARE_METRIC_MSE: return r->metrics.mse;
    case COMPARE_METRIC_RMSE: return r->metrics.rmse;
    case COMPARE_METRIC_PSNR: return r->metrics.psnr;
    case COMPARE_METRIC_RELMSE: return r->metrics.relmse;
    case COMPARE_METRIC_MAE: return r->metrics.mae;
    default: return r->flip.mean;
    }
}

/* The error map -o writes for METRIC. */
static metrics_map map_of_metric(int metric)
{
    switch (metric) {
    case COMPARE_METRIC_FLIP: return METRICS_MAP_FLIP;
    case COMPARE_METRIC_RELMSE: return METRICS_MAP_RELATIVE;
    case COMPARE_METRIC_MAE: return METRICS_MAP_ABS;
    default: return METRICS_MAP_SQUARED;
    }
}

/* A JSON number; non-finite values (PSNR of identical images) as null. */
static void json_num(FILE *f, const char *key, double v)
{
    if (isfinite(v))
        fprintf(f, ",\"%s\":%.9g", key, v);
    else
        fprintf(f, ",\"%s\":null", key);
}

static void print_json(FILE *f, const char *ref, const char *test, int metric,
                       const flip_report *r)
{
    fputs("{\"reference\":", f);
    commands_json_str(f, ref);
    fputs(",\"test\":", f);
    commands_json_str(f, test);
    fprintf(f, ",\"metric\":\"%s\",\"mode\":\"%s\"", ht_enum_name(compare_metrics, metric),
            r->hdr ? "hdr" : "ldr");
    json_num(f, "ppd", r->ppd);
    const flip_pooled *p = &r->flip;
    json_num(f, "mean", p->mean);
    json_num(f, "weighted_median", p->weighted_median);
    json_num(f, "q1", p->q1);
    json_num(f, "q3", p->q3);
    json_num(f, "min", p->min);
    json_num(f, "max", p->max);
    if (r->hdr) {
        json_num(f, "start_exposure", r->exposures.start);
        json_num(f, "stop_exposure", r->exposures.stop);
        fprintf(f, ",\"exposures\":%d", r->exposures.count);
    }
    json_num(f, "mse", r->metrics.mse);
    json_num(f, "rmse", r->metrics.rmse);
    json_num(f, "psnr", r->metrics.psnr);
    json_num(f, "relmse", r->metrics.relmse);
    json_num(f, "mae", r->metrics.mae);
    fputs("}\n", f);
}

static void print_text(FILE *f, const char *test, int metric, const flip_report *r)
{
    const flip_pooled *p = &r->flip;
    fprintf(f, "%s: %s %.6g | FLIP (%s, %.1f ppd", test, ht_enum_label(compare_metrics, metric),
            metric_value(metric, r), r->hdr ? "HDR" : "LDR", r->ppd);
    if (r->hdr)
        fprintf(f, ", %d exposures %.4f..%.4f", r->exposures.count, r->exposures.start,
                r->exposures.stop);
    fprintf(f, ") mean %.6f median %.6f q1 %.6f q3 %.6f min %.6f max %.6f | MSE %.6g RMSE "
            "%.6g PSNR %.2f dB relMSE %.6g MAE %.6g\n", p->mean, p->weighted_median, p->q1,
            p->q3, p->min, p->max, r->metrics.mse, r->metrics.rmse, r->metrics.psnr,
            r->metrics.relmse, r->metrics.mae);
}

/* Where -o goes for TEST: OUT itself, or OUT/<TEST's name without extension>.png when OUT is
 * a directory. */
static void map_path(const char *out, const char *test, char *buf, size_t len)
{
    struct stat st;
    if (stat(out, &st) != 0 || !S_ISDIR(st.st_mode)) {
        snprintf(buf, len, "%s", out);
        return;
    }
    const char *base = strrchr(test, '/') ? strrchr(test, '/') + 1 : test;
    const char *dot = strrchr(base, '.');
    int n = dot && dot != base ? (int)(dot - base) : (int)strlen(base);
    snprintf(buf, len, "%s/%.*s.png", out, n, base);
}

static bool has_ext(const char *path, const char *ext)
{
    size_t n = strlen(path), e = strlen(ext);
    return n >= e && strcasecmp(path + n - e, ext) == 0;
}

/* Writes the map of --metric for the pair (MAP: FLIP's map, W x H). */
static bool write_map(const ht_options *o, const char *path, const flip_input *ref,
                      const flip_input *test, const float *flip_map, const flip_report *r,
                      char *err, size_t errlen)
{
    int w = ref->width, h = ref->height;
    size_t n = (size_t)w * h;
    metrics_map kind = map_of_metric(o->metric);
    float *vals = kind == METRICS_MAP_FLIP ? (float *)flip_map : malloc(n * sizeof *vals);
    uint8_t *px = malloc(n * 4);
    bool ok = vals && px;
    if (ok && kind != METRICS_MAP_FLIP)
        for (size_t i = 0; i < n; i++)
            vals[i] = metrics_pixel(kind, ref->rgb, test->rgb, 3, i);
    if (!ok) {
        snprintf(err, errlen, "out of memory for the map");
    } else if (has_ext(path, ".exr")) {
        ok = map_write_exr(path, vals, w, h, err, errlen);
    } else if (o->map_kind == COMPARE_MAP_GREY) {
        for (size_t i = 0; i < n; i++) {
            float v = vals[i] > 0.0f ? (vals[i] < 1.0f ? vals[i] : 1.0f) : 0.0f;
            px[i] = (uint8_t)(255.0f * v + 0.5f);
        }
        ok = png_write_atomic_channels(path, px, w, h, 1, err, errlen);
    } else {
        metrics_colorbar cb = metrics_colorbar_for(kind, &r->metrics);
        metrics_colorize(&cb, vals, n, px);
        ok = png_write_atomic_channels(path, px, w, h, 4, err, errlen);
    }
    if (vals != flip_map)
        free(vals);
    free(px);
    return ok;
}

/* Whether VALUE of METRIC is worse than the threshold (higher error; lower PSNR). */
static bool worse_than(int metric, double value, double threshold)
{
    return metric == COMPARE_METRIC_PSNR ? !(value >= threshold) : !(value <= threshold);
}

/* One TEST against the loaded REF: 0 pass, 1 failed or worse than --fail-above. */
static int compare_one(const ht_options *o, compare_run *run, const char *ref_path,
                       const flip_input *ref, const char *test_path)
{
    char err[HT_ERR_MAX];
    flip_input test;
    image_load_options lo = options_load(o);
    if (!flip_input_load(test_path, &lo, &test, err, sizeof err) ||
        !flip_input_check_pair(ref, ref_path, &test, test_path, err, sizeof err)) {
        fprintf(stderr, "hdrtone compare: %s\n", err);
        flip_input_free(&test);
        return 1;
    }
    float *map = malloc((size_t)ref->width * ref->height * sizeof *map);
    flip_report r;
    bool ok = map && compare_run_pair(run, ref, &test, map, &r, err, sizeof err);
    if (!map)
        snprintf(err, sizeof err, "%s: out of memory", test_path);
    char out[1024];
    if (ok && o->output) {
        map_path(o->output, test_path, out, sizeof out);
        ok = write_map(o, out, ref, &test, map, &r, err, sizeof err);
    }
    int status = 0;
    if (!ok) {
        fprintf(stderr, "hdrtone compare: %s against %s: %s\n", test_path, ref_path, err);
        status = 1;
    } else {
        if (o->json)
            print_json(stdout, ref_path, test_path, o->metric, &r);
        else
            print_text(stdout, test_path, o->metric, &r);
        if (!isnan(o->fail_above) && worse_than(o->metric, metric_value(o->metric, &r),
                                                o->fail_above))
            status = 1;
    }
    free(map);
    flip_input_free(&test);
    return status;
}

int cmd_compare(int argc, char **argv)
{
    ht_options o;
    char **pos;
    int npos, early = commands_start(argc, argv, HT_CMD_COMPARE, "compare", &o, &pos, &npos);
    if (early >= 0)
        return early;
    struct stat st;
    bool to_dir = o.output && (npos > 2 || o.output[strlen(o.output) - 1] == '/');
    if (npos < 2 || (to_dir && stat(o.output, &st) == 0 && !S_ISDIR(st.st_mode))) {
        free(pos);
        return commands_usage_error("compare", npos < 2 ? "needs REF and at least one TEST (see "
                                    "--help)" : "-o with several tests names a folder, not a file");
    }
    char err[HT_ERR_MAX];
    if (o.output && !(to_dir ? file_make_dirs(o.output, err, sizeof err)   /* maps/ is made */
                             : file_make_parent_dirs(o.output, err, sizeof err))) {
        fprintf(stderr, "hdrtone compare: %s\n", err);
        free(pos);
        return 1;
    }
    flip_input ref;
    image_load_options lo = options_load(&o);
    compare_run *run = NULL;
    int status = 1;
    if (!flip_input_load(pos[0], &lo, &ref, err, sizeof err) ||
        !(run = compare_run_create(&o, err, sizeof err))) {
        fprintf(stderr, "hdrtone compare: %s\n", err);
    } else {
        status = 0;
        for (int i = 1; i < npos; i++)
            status |= compare_one(&o, run, pos[0], &ref, pos[i]);
    }
    compare_run_destroy(&run);
    flip_input_free(&ref);
    free(pos);
    return status;
}
