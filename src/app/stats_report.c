/* stats' report (commands_print_stats): the JSON object, the text, or pcond's curve file. */
#include "commands.h"
#include "stats_hdr.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "colour.h"
#include "gl_context.h"
#include "human.h"
#include "human_gpu.h"
#include "region.h"
#include "units.h"

/* What one input's report is made of. */
typedef struct stats_report {
    const char *path;
    const hdr_image *img;
    const image_stats *st;
    const ht_options *o;
    const tonemap_result *r;
    const imgstats *s;
    const human_report *hr;
    image_units units;            /* the file's (or --scale's) */
    const region_stats *whole;    /* the whole image in cd/m^2 (NULL: out of memory) */
    const region_stats *region;   /* --region's (NULL: not asked for, or out of memory) */
} stats_report;

/* JSON numbers: shortest round-trip-ish form; non-finite values become null. */
static void json_num(FILE *f, double v)
{
    if (isfinite(v))
        fprintf(f, "%.9g", v);
    else
        fputs("null", f);
}

void commands_json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* ", "KEY": " then V as a JSON string. */
static void json_str_field(FILE *f, const char *key, const char *v)
{
    fprintf(f, ", \"%s\": ", key);
    commands_json_str(f, v);
}

/* ", "KEY": " then V as a JSON number (null when not finite). */
static void json_num_field(FILE *f, const char *key, double v)
{
    fprintf(f, ", \"%s\": ", key);
    json_num(f, v);
}

/* The JSON fields of the file: format, size, windows, channels and its parts and layers. */
static void json_file(FILE *f, const char *path, const hdr_image *img)
{
    const int *dw = img->data_window, *vw = img->display_window;
    fputs("{\"file\": ", f);
    commands_json_str(f, path);
    json_str_field(f, "format", img->format);
    fprintf(f, ", \"width\": %d, \"height\": %d", img->width, img->height);
    fprintf(f, ", \"data_window\": [%d, %d, %d, %d]", dw[0], dw[1], dw[2], dw[3]);
    fprintf(f, ", \"display_window\": [%d, %d, %d, %d]", vw[0], vw[1], vw[2], vw[3]);
    json_str_field(f, "channels", img->channels);
    json_str_field(f, "compression", img->compression);
    json_str_field(f, "rgb_source", img->rgb_source);
    /* Which part and layer are shown, and all of them. */
    fprintf(f, ", \"part\": %d, \"part_name\": ", img->part);
    commands_json_str(f, img->part_name);
    json_str_field(f, "layer", img->layer);
    fputs(", \"parts\": [", f);
    for (int k = 0; img->parts && k < img->part_count; k++) {
        const hdr_part_info *pi = &img->parts[k];
        fputs(k ? ", {\"name\": " : "{\"name\": ", f);
        commands_json_str(f, pi->name);
        json_str_field(f, "type", pi->type);
        json_str_field(f, "compression", pi->compression);
        fprintf(f, ", \"data_window\": [%d, %d, %d, %d], \"channels\": ", pi->data_window[0],
                pi->data_window[1], pi->data_window[2], pi->data_window[3]);
        commands_json_str(f, pi->channels);
        fputs(", \"layers\": [", f);
        for (const char *l = pi->layers; *l;) {
            char one[sizeof pi->layers];
            size_t n = strcspn(l, ",");
            snprintf(one, sizeof one, "%.*s", (int)n, l);
            if (l != pi->layers)
                fputs(", ", f);
            commands_json_str(f, one);
            l += n + (l[n] == ',');
        }
        fputs("]}", f);
    }
    fputc(']', f);
}

/* The JSON object "colorspace" of C: {name (a named space, colour.h, or null), primaries
 * [[x, y] of R, G, B], white [x, y] (the encoding's), source (colour_source_name)}. */
static void json_colorspace(FILE *f, const image_colour *c)
{
    const colour_space *named = colour_space_match(c);
    const double(*xy)[2] = image_colour_xy(c);
    fputs(", \"colorspace\": {\"name\": ", f);
    if (named)
        commands_json_str(f, named->name);
    else
        fputs("null", f);
    for (int i = 0; i < 4; i++) {   /* R, G, B in "primaries", then "white" */
        fputs(i == 0 ? ", \"primaries\": [[" : i == 3 ? "], \"white\": [" : ", [", f);
        json_num(f, xy[i][0]);
        fputs(", ", f);
        json_num(f, xy[i][1]);
        fputc(']', f);
    }
    json_str_field(f, "source", colour_source_name(c->source));
    fputc('}', f);
}

/* The text line of C (json_colorspace's fields). */
static void text_colorspace(FILE *f, const image_colour *c)
{
    const colour_space *named = colour_space_match(c);
    const double(*xy)[2] = image_colour_xy(c);
    fprintf(f, "colour space  %s%s%s%s, R %.4g,%.4g G %.4g,%.4g B %.4g,%.4g white %.4g,%.4g; "
               "from %s\n", named ? named->name : "unnamed", named ? " (" : "",
            named ? named->label : "", named ? ")" : "", xy[0][0], xy[0][1], xy[1][0], xy[1][1],
            xy[2][0], xy[2][1], xy[3][0], xy[3][1], colour_source_name(c->source));
}

/* ", "metadata": {...}": the file's metadata entries (image_meta), keys in the file's order; a
 * repeated key keeps its first value. */
static void json_metadata(FILE *f, const hdr_image *img)
{
    fputs(", \"metadata\": {", f);
    for (int i = 0; i < img->meta_count; i++) {
        bool seen = false;
        for (int k = 0; k < i && !seen; k++)
            seen = strcmp(img->meta[k].key, img->meta[i].key) == 0;
        if (seen)
            continue;
        if (i)
            fputs(", ", f);
        commands_json_str(f, img->meta[i].key);
        fputs(": ", f);
        commands_json_str(f, img->meta[i].value);
    }
    fputc('}', f);
}

/* The JSON fields of the input's pixels: counts and luminance. */
static void json_pixels(FILE *f, const image_stats *st)
{
    fprintf(f, ", \"pixels\": {\"total\": %llu, \"finite\": %llu, \"positive_luminance\": %llu}",
            (unsigned long long)st->total, (unsigned long long)st->finite,
            (unsigned long long)st->positive);
    fprintf(f, ", \"values\": {\"nan\": %llu, \"inf\": %llu, \"negative\": %llu}",
            (unsigned long long)st->nan, (unsigned long long)st->inf,
            (unsigned long long)st->negative);
    fputs(", \"luminance\": {\"min\": ", f);
    json_num(f, st->positive ? st->y_min : NAN);   /* no pixel with Y > 0: null */
    json_num_field(f, "max", st->positive ? st->y_max : NAN);
    json_num_field(f, "mean", st->positive ? st->y_mean : NAN);
    json_num_field(f, "log_average", st->positive ? st->y_log_average : NAN);
    fputc('}', f);
}

/* The JSON fields of a region_lum as an object named KEY. */
static void json_lum(FILE *f, const char *key, const region_lum *l)
{
    fprintf(f, ", \"%s\": {\"min\": ", key);
    json_num(f, l->min);
    json_num_field(f, "max", l->max);
    json_num_field(f, "mean", l->mean);
    json_num_field(f, "median", l->median);
    json_num_field(f, "log_average", l->log_average);
    fputc('}', f);
}

/* The units of the file and the image's luminance in cd/m^2 (units.h): the fields "units"
 * {rule, scale, exposure} and "luminance_cd_m2" (null when out of memory). */
static void json_units(FILE *f, const image_units *u, const region_stats *whole)
{
    fputs(", \"units\": {\"rule\": ", f);
    commands_json_str(f, ht_enum_name(units_rules, u->rule));
    json_num_field(f, "scale", u->scale);
    json_num_field(f, "exposure", u->exposure);
    fputc('}', f);
    if (whole)
        json_lum(f, "luminance_cd_m2", &whole->cd_m2);
    else
        fputs(", \"luminance_cd_m2\": null", f);
}

/* The JSON object "region" of stats --region (null when out of memory). */
static void json_region(FILE *f, const region_stats *r)
{
    if (!r) {
        fputs(", \"region\": null", f);
        return;
    }
    fprintf(f, ", \"region\": {\"rect\": [%d, %d, %d, %d], \"pixels\": %llu, \"counted\": %llu",
            r->rect[0], r->rect[1], r->rect[2], r->rect[3], (unsigned long long)r->pixels,
            (unsigned long long)r->counted);
    json_lum(f, "luminance", &r->file);
    json_lum(f, "luminance_cd_m2", &r->cd_m2);
    fprintf(f, ", \"histogram\": {\"bins\": %d, \"ln_min\": ", REGION_BINS);
    json_num(f, r->ln_min);
    json_num_field(f, "ln_max", r->ln_max);
    fputs(", \"counts\": [", f);
    for (int i = 0; i < REGION_BINS; i++)
        fprintf(f, "%s%u", i ? ", " : "", r->hist[i]);
    fputs("]}}", f);
}

/* The JSON object "tonemap": the parameters, the mapping and how the samples were taken. */
static void json_tonemap(FILE *f, const tonemap_params *tm, const tonemap_result *r)
{
    fputs(", \"tonemap\": {\"scale\": ", f);
    json_num(f, tm->scale);
    json_num_field(f, "ldmax", tm->ldmax);
    json_num_field(f, "drange", tm->drange);
    fprintf(f, ", \"ceiling\": \"%s\", \"range\": \"%s\"",
            ht_enum_name(tonemap_ceilings, tm->ceiling), tm->lmin > 0 ? "user" : "automatic");
    fprintf(f, ", \"excluded\": {\"nonfinite\": %u, \"nonpositive\": %u}, \"counted\": %u",
            r->n_nonfinite, r->n_nonpositive, r->n_counted);
    json_num_field(f, "log_average", r->n_counted ? exp(r->ln_avg) : NAN);
    fprintf(f, ", \"mapping\": \"%s\", \"ceiling_iterations\": %u",
            tonemap_mapping_name(r->mapping), r->iterations);
    fprintf(f, ", \"mapping_pcond\": \"%s\", \"linear_scale\": ",
            tonemap_mapping_pcond_name(r->mapping));
    json_num(f, r->linear_scale);
    fprintf(f, ", \"luminance\": \"%s\", \"pcond_rules\": %s, \"sampling\": \"%s\"",
            ht_enum_name(tonemap_luminances, tm->luminance), tm->pcond ? "true" : "false",
            ht_enum_name(tonemap_samplings, tm->sampling));
    if (tm->sampling == HT_SAMPLING_FOVEAL) {
        json_num_field(f, "fov", tm->fov);
        fprintf(f, ", \"foveal_grid\": [%u, %u], \"point_samples\": %u, "
                   "\"point_samples_counted\": %u, \"point_weight\": ",
                r->fov_width, r->fov_height, r->n_points, r->pt_counted);
        json_num(f, r->pt_weight);
    }
    fputc('}', f);
}

/* The JSON fields "histogram" (the analysis' counts) and "curve" (Lw, Ld at bin centres). */
static void json_histogram_curve(FILE *f, const tonemap_params *tm, const tonemap_result *r)
{
    fprintf(f, ", \"histogram\": {\"bins\": %u, \"ln_min\": ", r->bins);
    json_num(f, r->bw_min);
    json_num_field(f, "ln_max", r->bw_max);
    fputs(", \"counts\": [", f);
    for (unsigned i = 0; i < r->bins; i++)
        fprintf(f, "%s%u", i ? ", " : "", r->hist[i]);
    fputs("]}, \"curve\": [", f);
    double db = ((double)r->bw_max - r->bw_min) / r->bins;
    for (unsigned i = 0; i < r->bins; i++) {
        double lw = exp(r->bw_min + (i + 0.5) * db);
        fputs(i ? ", [" : "[", f);
        json_num(f, lw);
        fputs(", ", f);
        json_num(f, tonemap_curve_ld(r, tm, lw));
        fputc(']', f);
    }
    fputc(']', f);
}

/* The JSON fields "brightest", "darkest" and, when asked for, "peaks": one object each, null
 * when absent. */
static void json_pixels_found(FILE *f, const imgstats *s, int min_distance)
{
    int npix = 2 + (s->peaks_asked > 0 ? s->n_peaks : 0);
    for (int i = 0; i < npix; i++) {
        const imgstats_pixel *px = i == 0 ? &s->brightest : i == 1 ? &s->darkest : &s->peaks[i - 2];
        fputs(i == 0   ? ", \"brightest\": "
              : i == 1 ? ", \"darkest\": "
              : i == 2 ? ", \"peaks\": ["
                       : ", ",
              f);
        if (!px->valid) {
            fputs("null", f);
            continue;
        }
        fprintf(f, "{\"x\": %d, \"y\": %d, \"abs_x\": %d, \"abs_y\": %d, \"luminance\": ", px->x,
                px->y, px->abs_x, px->abs_y);
        json_num(f, px->luminance);
        for (int c = 0; c < 3; c++) {
            fputs(c ? ", " : ", \"rgb\": [", f);
            json_num(f, px->rgb[c]);
        }
        fputs("]}", f);
    }
    if (s->peaks_asked > 0)
        fprintf(f, "%s, \"peaks_min_distance\": %d", s->n_peaks ? "]" : ", \"peaks\": []",
                min_distance);
}

/* The JSON fields of the output's histograms (when computed) and of the backend. */
static void json_output_backend(FILE *f, const imgstats *s, const ht_options *o)
{
    if (s->have_hist) {
        fputs(", \"rgba_histogram\": [", f);
        for (int c = 0; c < 4; c++)
            for (int i = 0; i < HT_COLOR_BINS; i++)
                fprintf(f, "%s%u%s", i ? ", " : c ? ", [" : "[", s->rgba_hist[c][i],
                        i == HT_COLOR_BINS - 1 ? "]" : "");
        fputs("], \"grey_histogram\": [", f);
        for (int i = 0; i < HT_GREY_BINS; i++)
            fprintf(f, "%s%u", i ? ", " : "", s->grey_hist[i]);
        fputc(']', f);
        if (o->backend == HT_BACKEND_GPU)
            fprintf(f, ", \"grey_histogram_kernel\": \"%s\"",
                    ht_enum_name(options_grey_kernels, o->histogram_kernel));
    }
    fprintf(f, ", \"backend\": \"%s\"", ht_enum_name(options_backends, o->backend));
    if (o->backend == HT_BACKEND_GPU) {
        json_str_field(f, "renderer", gl_renderer());
    }
}

/* What became of the human-vision options of O on IMG into *REP (all not requested without
 * them, or out of memory): GPU, what the GPU's analysis of IMG reported, else the CPU
 * reference's analysis. */
static void human_outcome(const hdr_image *img, const ht_options *o, const human_report *gpu,
                          human_report *rep)
{
    const tonemap_params *tm = &o->tm;
    memset(rep, 0, sizeof *rep);
    if (gpu) {
        *rep = *gpu;
        return;
    }
    tonemap_result *r = human_requested(tm) ? malloc(sizeof *r) : NULL;
    human_state hs;
    if (r && human_cpu_analyze(img, tm, r, &hs))
        *rep = hs.report;
    if (r)
        human_state_free(&hs);
    free(r);
}

/* The JSON object "human": each option's outcome (pcond-reference's params_human.tsv words)
 * and what check2do decided on. */
static void json_human(FILE *f, const human_report *h)
{
    fputs(", \"human\": {\"veil\": ", f);
    commands_json_str(f, human_outcome_name(h->veil));
    json_str_field(f, "acuity", human_outcome_name(h->acuity));
    json_str_field(f, "colour", human_outcome_name(h->color));
    json_num_field(f, "range_ln", h->range > 0 ? h->range : NAN);
    fprintf(f, ", \"range_fits_display\": %s, \"l5\": ", h->range_fits ? "true" : "false");
    json_num(f, h->l5 > 0 ? h->l5 : NAN);   /* null: the skip tests did not need it */
    json_num_field(f, "hacuity_l5", h->l5 > 0 ? h->hacuity_l5 : NAN);
    json_num_field(f, "px_per_deg", h->l5 > 0 ? h->px_per_deg : NAN);
    bool blur = h->acuity == HUMAN_APPLIED || h->acuity == HUMAN_APPLIED_NOOP;
    json_num_field(f, "max_sample_radius", blur ? h->max_sr : NAN);
    json_num_field(f, "pyramid_levels", blur ? h->root_level : NAN);
    fputc('}', f);
}

/* The text line "human" (only when an option was asked for). */
static void text_human(FILE *f, const tonemap_params *tm, const human_report *h)
{
    if (!human_requested(tm))
        return;
    fprintf(f, "human         veil %s, acuity %s, colour %s; first histogram %.4g ln",
            human_outcome_name(h->veil), human_outcome_name(h->acuity),
            human_outcome_name(h->color), h->range);
    if (h->l5 > 0)
        fprintf(f, ", L5 %.4g cd/m^2 (resolves %.4g cycles/deg, picture %.4g px/deg)", h->l5,
                h->hacuity_l5, h->px_per_deg);
    if (h->acuity == HUMAN_APPLIED || h->acuity == HUMAN_APPLIED_NOOP)
        fprintf(f, ", sample radius <= %.4g px", h->max_sr);
    fputc('\n', f);
}

/* --pixel's RGBA (XY checked by region_pixel) into P. */
static const float *pixel_at(const hdr_image *img, const int xy[2], float p[4])
{
    image_get_pixel(img, (size_t)xy[1] * img->width + (size_t)xy[0], p);
    return p;
}

static void print_stats_json(FILE *f, const stats_report *v)
{
    const ht_options *o = v->o;
    json_file(f, v->path, v->img);
    json_colorspace(f, &v->img->colour);
    json_metadata(f, v->img);
    json_pixels(f, v->st);
    json_units(f, &v->units, v->whole);
    if (o->region)
        json_region(f, v->region);
    int xy[2];
    char err[HT_ERR_MAX];
    if (o->pixel && region_pixel(o->pixel, v->img, xy, err, sizeof err)) {
        float px[4];
        const float *p = pixel_at(v->img, xy, px);
        fprintf(f, ", \"pixel\": {\"xy\": [%d, %d], \"rgba\": [", xy[0], xy[1]);
        for (int c = 0; c < 4; c++) {
            fputs(c ? ", " : "", f);
            json_num(f, p[c]);
        }
        fputs("]}", f);
    }
    json_tonemap(f, &o->tm, v->r);
    json_human(f, v->hr);
    json_histogram_curve(f, &o->tm, v->r);
    json_pixels_found(f, v->s, o->min_distance);
    json_output_backend(f, v->s, o);
    stats_hdr_json(f, o, v->img);
    fputs("}\n", f);
}

/* A region_lum as one text line after LABEL. */
static void text_lum(FILE *f, const char *label, const region_lum *l)
{
    fprintf(f, "%s min %.9g  max %.9g  mean %.9g  median %.9g  log-average %.9g\n", label,
            l->min, l->max, l->mean, l->median, l->log_average);
}

/* The curve's N lines "Lw Ld" at the bin centres, Ld by LD. */
static void text_curve(FILE *f, const tonemap_result *r, const tonemap_params *tm,
                       double (*ld)(const tonemap_result *, const tonemap_params *, double))
{
    double db = ((double)r->bw_max - r->bw_min) / r->bins;
    for (unsigned i = 0; i < r->bins; i++) {
        double lw = exp(r->bw_min + (i + 0.5) * db);
        fprintf(f, "%e %e\n", lw, ld(r, tm, lw));
    }
}

/* The text lines of the file, its size and its pixels' values and luminance. */
static void text_file(FILE *f, const stats_report *v)
{
    const char *path = v->path;
    const hdr_image *img = v->img;
    const image_stats *st = v->st;
    const int *dw = img->data_window, *vw = img->display_window;
    fprintf(f, "file          %s (%s, %s, %s)\n", path, img->format, img->channels,
            img->compression);
    /* Parts and layers of the file; '*' marks the part shown. */
    for (int k = 0; img->parts && k < img->part_count; k++) {
        const hdr_part_info *pi = &img->parts[k];
        fprintf(f, "%s%c%d '%s' %s %s: %s; layers %s\n", k ? "              " : "parts         ",
                k == img->part ? '*' : ' ', k, pi->name, pi->type, pi->compression, pi->channels,
                pi->layers);
    }
    fprintf(f, "shown         part %d%s%s%s, layer %s%s%s: %s\n", img->part,
            img->part_name[0] ? " '" : "", img->part_name, img->part_name[0] ? "'" : "",
            img->layer[0] ? "'" : "", img->layer[0] ? img->layer : "(none)",
            img->layer[0] ? "'" : "", img->rgb_source);
    fprintf(f, "size          %dx%d, data window (%d,%d)-(%d,%d), display window (%d,%d)-(%d,%d)\n",
            img->width, img->height, dw[0], dw[1], dw[2], dw[3], vw[0], vw[1], vw[2], vw[3]);
    text_colorspace(f, &img->colour);
    fprintf(f, "pixels        %llu total, %llu finite, %llu with Y > 0\n",
            (unsigned long long)st->total, (unsigned long long)st->finite,
            (unsigned long long)st->positive);
    fprintf(f, "values        %llu NaN, %llu Inf, %llu negative\n", (unsigned long long)st->nan,
            (unsigned long long)st->inf, (unsigned long long)st->negative);
    fprintf(f, "luminance     min %.9g  max %.9g  mean %.9g  log-average %.9g\n", st->y_min,
            st->y_max, st->y_mean, st->y_log_average);
    char units[160];
    units_describe(&v->units, units, sizeof units);
    fprintf(f, "units         %s\n", units);
    if (v->whole)
        text_lum(f, "cd/m^2       ", &v->whole->cd_m2);
    if (v->region) {
        const region_stats *g = v->region;
        fprintf(f, "region        (%d,%d)-(%d,%d): %llu pixels, %llu with Y > 0\n", g->rect[0],
                g->rect[1], g->rect[2], g->rect[3], (unsigned long long)g->pixels,
                (unsigned long long)g->counted);
        text_lum(f, "  luminance  ", &g->file);
        text_lum(f, "  cd/m^2     ", &g->cd_m2);
    }
    int xy[2];
    char err[HT_ERR_MAX];
    if (v->o->pixel && region_pixel(v->o->pixel, img, xy, err, sizeof err)) {
        float px[4];
        const float *p = pixel_at(img, xy, px);
        fprintf(f, "pixel         (%d,%d): R %.9g  G %.9g  B %.9g  A %.9g\n", xy[0], xy[1], p[0],
                p[1], p[2], p[3]);
    }
}

/* The text lines of the analysis, the pixels found, the output and (with --curve) the curve. */
static void text_analysis(FILE *f, const stats_report *v)
{
    const ht_options *o = v->o;
    const tonemap_result *r = v->r;
    const imgstats *s = v->s;
    fprintf(f, "histogram     %u bins, Lw %.6g .. %.6g cd/m^2 (%s range), %u samples\n", r->bins,
            exp(r->bw_min), exp(r->bw_max), o->tm.lmin > 0 ? "user" : "automatic", r->n_counted);
    fprintf(f, "mapping       %s, ceiling %s, %u passes; display %g..%g cd/m^2\n",
            tonemap_mapping_name(r->mapping), ht_enum_name(tonemap_ceilings, o->tm.ceiling),
            r->iterations,
            o->tm.ldmax / o->tm.drange, o->tm.ldmax);
    fprintf(f, "samples       %s, %s luminance%s", ht_enum_label(tonemap_samplings, o->tm.sampling),
            ht_enum_label(tonemap_luminances, o->tm.luminance),
            o->tm.pcond ? ", pcond's range rules" : "");
    if (o->tm.sampling == HT_SAMPLING_FOVEAL)
        fprintf(f, "; %ux%u foveal grid over %g deg, %u point samples (%u counted, weight %g)",
                r->fov_width, r->fov_height, o->tm.fov, r->n_points, r->pt_counted, r->pt_weight);
    fputc('\n', f);
    text_human(f, &o->tm, v->hr);
    const imgstats_pixel *ext[2] = {&s->brightest, &s->darkest};
    for (int i = 0; i < 2; i++) {
        fputs(i ? "darkest       " : "brightest     ", f);
        if (!ext[i]->valid)
            fputs("none (no pixel with Y > 0)\n", f);
        else
            fprintf(f, "(%d,%d) abs (%d,%d)  Y %.9g  RGB %.9g %.9g %.9g\n", ext[i]->x, ext[i]->y,
                    ext[i]->abs_x, ext[i]->abs_y, ext[i]->luminance, ext[i]->rgb[0],
                    ext[i]->rgb[1], ext[i]->rgb[2]);
    }
    if (s->peaks_asked > 0) {
        fprintf(f, "peaks         %d of %d, >= %d px apart:", s->n_peaks, s->peaks_asked,
                o->min_distance);
        for (int i = 0; i < s->n_peaks; i++)
            fprintf(f, "%s (%d,%d) %.6g", i ? ";" : "", s->peaks[i].x, s->peaks[i].y,
                    s->peaks[i].luminance);
        fputc('\n', f);
    }
    if (s->have_hist) {
        uint64_t n = 0, sum = 0, half = 0;
        for (int i = 0; i < HT_GREY_BINS; i++) {
            n += s->grey_hist[i];
            sum += (uint64_t)i * s->grey_hist[i];
        }
        int median = 0;
        for (; median < HT_GREY_BINS - 1 && (half += s->grey_hist[median]) * 2 < n; median++)
            ;
        fprintf(f, "output grey   mean %.2f, median %d of 255 (RGBA and grey histograms: --json)\n",
                n ? (double)sum / n : 0.0, median);
    }
    fprintf(f, "backend       %s\n", o->backend == HT_BACKEND_CPU
                                         ? ht_enum_name(options_backends, o->backend)
                                         : gl_renderer());
    stats_hdr_text(f, o, v->img);
    if (o->curve) {
        fputs("curve         Lw -> Ld (cd/m^2) at bin centres\n", f);
        text_curve(f, r, &o->tm, tonemap_curve_ld);
    }
}

void commands_print_stats(FILE *f, const char *path, const hdr_image *img,
                          const image_stats *st, const ht_options *o, const tonemap_result *r,
                          const imgstats *s, const human_report *gpu_human)
{
    human_report hr;
    ht_options own = *o;   /* the parameters with IMG's colour (its luminance weights) */
    char err[HT_ERR_MAX];
    if (options_tonemap(o, img, &own.tm, err, sizeof err))
        o = &own;
    stats_report v = {path, img, st, o, r, s, &hr, {0}, NULL, NULL};
    if (o->curve_format == HT_CURVE_PCOND) {   /* only the curve, as pcond -x writes it */
        text_curve(f, r, &o->tm, tonemap_curve_ld_pcond);
        return;
    }
    human_outcome(img, o, gpu_human, &hr);
    units_of_image(img, o->scale_given ? o->tm.scale : 0, &v.units);
    int whole[4] = {0, 0, img->width - 1, img->height - 1}, rect[4];
    region_stats *g = malloc(2 * sizeof *g);
    if (g && region_compute(img, whole, v.units.weights, v.units.scale, &g[0], err, sizeof err))
        v.whole = &g[0];
    /* (The rectangle was checked before the analysis: commands_stats_region.) */
    if (g && o->region && region_parse(o->region, rect, err, sizeof err) &&
        region_compute(img, rect, v.units.weights, v.units.scale, &g[1], err, sizeof err))
        v.region = &g[1];
    if (o->json)
        print_stats_json(f, &v);
    else {
        text_file(f, &v);
        text_analysis(f, &v);
    }
    free(g);
}
