#include "commands.h"
#include "region.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "human.h"
#include "human_gpu.h"
#include "imgstats_gpu.h"
#include "pipeline.h"
#include "seq_cmd.h"

const human_report *commands_gpu_human(cmd_backend *b, const ht_options *o)
{
    char err[HT_ERR_MAX];
    pipeline *p = o->backend == HT_BACKEND_GPU && human_requested(&o->tm)
                      ? backend_pipeline(b, err, sizeof err)
                      : NULL;
    return p ? pipeline_human_report(p) : NULL;
}

/* Each command's --help text before its options (commands_start). */
static const struct {
    unsigned command;
    const char *text;
} USAGES[] = {
    {HT_CMD_VIEW,
     "usage: hdrtone [view] [FILE...] [options]\n"
     "       hdrtone [view] SEQ [--frames A-B] [--fps N] [--adapt M] [options]\n"
     "Opens the files in a window (no file: the bundled default image), or plays the\n"
     "image sequence SEQ (shot.%04d.exr or shot.####.exr; Space pauses).\n"},
    {HT_CMD_EXPORT,
     "usage: hdrtone export IN... -o OUT [options]\n"
     "       hdrtone export SEQ -o OUT_SEQ|DIR/|- [--frames A-B] [--adapt ...] [options]\n"
     "Tone-maps each IN and writes an sRGB picture: OUT is the file for one input\n"
     "(PNG, or JPEG for .jpg/.jpeg; the linear output as pcond writes it for .hdr\n"
     "(Radiance) and .pfm; another extension is an error), a folder (IN's name with\n"
     "the format's extension; made when missing) for one or more, or - for standard\n"
     "output (PNG; --format jpeg, hdr or pfm for one input, rgb24 or y4m frames for\n"
     "video tools). The folders an output needs are made. A sequence\n"
     "(SEQ a pattern: shot.%04d.exr or shot.####.exr) is tone-mapped in frame order,\n"
     "adapted in time (--adapt), into OUT_SEQ (out/%04d.png), a folder (SEQ's pattern\n"
     "there) or a stream (-o -).\n"},
    {HT_CMD_STATS,
     "usage: hdrtone stats IN... [--json] [options]\n"
     "Prints each image's statistics, its histogram and the response curve; for a\n"
     "sequence (IN a pattern, shot.%04d.exr) those of every frame, adapted in time\n"
     "(--json: one object per frame, one per line).\n"},
    {HT_CMD_BENCH,
     "usage: hdrtone bench [FILE | --synthetic WxH] [--msaa N] [--runs N] [--json]\n"
     "       hdrtone bench --export FILE... [--format F] [-j N] [--json]\n"
     "       hdrtone bench --playback SEQ [--frames A-B] [--adapt M] [--json]\n"
     "       hdrtone bench --decode FILE... [--json]\n"
     "GPU time of every pass (median and minimum after a warm-up), bandwidth probes\n"
     "from the same run, and ratios to the bandwidth floor. Default: --synthetic 3840x2160.\n"
     "Exits 1 when the GPU result differs from the CPU reference.\n"},
    {HT_CMD_ANALYZE,
     "usage: hdrtone analyze SEQ [--frames A-B] -o DIR [options]\n"
     "Writes each frame's analysis (what the temporal adaptation needs of it) into\n"
     "DIR/analysis.NNNNNNNNN.txt, for export SEQ --frames A-B --analysis DIR on\n"
     "other machines or processes (the same tone-mapping options).\n"},
    {HT_CMD_COMPARE,
     "usage: hdrtone compare REF TEST... [--metric M] [--json] [-o MAP.png|MAP.exr]\n"
     "                       [--map grey] [--fail-above X] [--ppd N] [--tonemapper T]\n"
     "Compares each TEST with REF: FLIP (LDR-FLIP for PNG and JPEG pairs, HDR-FLIP for\n"
     "OpenEXR, .hdr and PFM pairs, as NVIDIA's FLIP tool computes them) with its pooled\n"
     "values, and MSE, RMSE, PSNR, relative MSE and MAE (as tev defines them). One line\n"
     "per test (--json: one object per line). Exits 1 when a test is worse than\n"
     "--fail-above in --metric, or cannot be compared.\n"},
};

int commands_start(int argc, char **argv, unsigned command, const char *name, ht_options *o,
                   char ***pos, int *npos)
{
    int early = commands_parse(argc, argv, command, name, o, pos, npos);
    if (early >= 0 || !o->help)
        return early;
    for (size_t i = 0; i < sizeof USAGES / sizeof USAGES[0]; i++)
        if (USAGES[i].command == command)
            fputs(USAGES[i].text, stdout);
    fputs("\noptions:\n", stdout);
    options_print_help(stdout, command);
    free(*pos);
    *pos = NULL;
    return 0;
}

int commands_usage_error(const char *cmd, const char *msg)
{
    fprintf(stderr, "hdrtone %s: %s\n", cmd, msg);
    return 2;
}

int commands_parse(int argc, char **argv, unsigned command, const char *name, ht_options *o,
                   char ***pos, int *npos)
{
    char err[HT_ERR_MAX];
    options_default(o);
    *npos = 0;
    if (!(*pos = calloc((size_t)argc + 2, sizeof **pos))) {   /* +2: room for a default */
        fprintf(stderr, "hdrtone %s: out of memory\n", name);
        return 1;
    }
    if (!options_parse(argc, argv, command, o, *pos, npos, err, sizeof err)) {
        free(*pos);
        *pos = NULL;
        return commands_usage_error(name, err);
    }
    return -1;
}

/* stats' tone mapping of IMG (file PATH) into *r. The CPU backend's statistics count the
 * output pixels it returns in *rgb (malloc'd); the GPU's read the pipeline's textures without
 * a read-back (*rgb NULL), except for an image in several textures, whose output is read back
 * into *rgb. The human-vision options on an image the GPU cannot take them on turn O to the
 * CPU backend, with a note. False, reason in err. */
static bool stats_tonemap(cmd_backend *be, ht_options *o, const char *path,
                          const hdr_image *img, tonemap_result *r, uint8_t **rgb, char *err,
                          size_t errlen)
{
    char note[HT_ERR_MAX];
    *rgb = NULL;
    if (o->backend == HT_BACKEND_GPU) {
        if (!backend_gpu_upload(be, o, img, note, sizeof note, err, errlen))
            return false;
        if (note[0]) {
            fprintf(stderr, "hdrtone stats: %s: %s\n", path, note);
            o->backend = HT_BACKEND_CPU;
        }
    }
    pipeline *p = o->backend == HT_BACKEND_GPU ? backend_pipeline(be, err, errlen) : NULL;
    if ((!p || pipeline_image_pieces(p) > 1) &&
        !(*rgb = malloc((size_t)img->width * img->height * 3))) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    tonemap_params tm;
    if (!options_tonemap(o, img, &tm, err, errlen))
        return false;
    return p ? pipeline_tonemap_uploaded(p, &tm, r, *rgb, err, errlen)
             : backend_tonemap(be, o, img, r, *rgb, err, errlen);
}

/* stats of the one still PATH as O asks, with the backend BE (its report after a blank line
 * when FIRST is not set: one block per file); 0, or 1 after an error (printed). */
static int stats_file(cmd_backend *be, const ht_options *opts, const char *path, bool first)
{
    ht_options own = *opts, *o = &own;   /* stats_tonemap may turn this file to the CPU */
    char err[HT_ERR_MAX + 64];
    hdr_image img = {0};
    image_load_options lo = options_load(o);
    if (!image_load(path, &lo, &img, err, sizeof err)) {
        fprintf(stderr, "hdrtone stats: %s\n", err);
        return 1;
    }
    int rect[4], xy[2];
    if ((o->region && (!region_parse(o->region, rect, err, sizeof err) ||
                       !region_check(&img, rect, err, sizeof err))) ||
        (o->pixel && !region_pixel(o->pixel, &img, xy, err, sizeof err))) {
        fprintf(stderr, "hdrtone stats: %s: %s\n", path, err);
        image_free(&img);
        return 1;
    }
    image_stats st;
    image_compute_stats(&img, &st);
    tonemap_result *r = malloc(sizeof *r);
    uint8_t *rgb = NULL;
    imgstats s = {0};
    int status = 1;
    if (!r)
        fprintf(stderr, "hdrtone stats: out of memory\n");
    else if (!stats_tonemap(be, o, path, &img, r, &rgb, err, sizeof err))
        fprintf(stderr, "hdrtone stats: %s: %s\n", path, err);
    else if (rgb ? !imgstats_cpu(&img, rgb, o->peaks, o->min_distance, &s)
                 : !imgstats_gpu(backend_pipeline(be, err, sizeof err), &img,
                                 o->histogram_kernel, o->peaks, o->min_distance, &s, err,
                                 sizeof err))
        fprintf(stderr, "hdrtone stats: %s: %s\n", path, rgb ? "out of memory" : err);
    else {
        if (!first && !o->json && o->curve_format != HT_CURVE_PCOND)
            fputc('\n', stdout);
        commands_print_stats(stdout, path, &img, &st, o, r, &s, commands_gpu_human(be, o));
        status = 0;
    }
    imgstats_free(&s);
    free(rgb);
    free(r);
    image_free(&img);
    return status;
}

int cmd_stats(int argc, char **argv)
{
    ht_options o;
    char **pos, err[HT_ERR_MAX];
    int npos, early = commands_start(argc, argv, HT_CMD_STATS, "stats", &o, &pos, &npos);
    if (early >= 0)
        return early;
    int rect[4], xy[2], status = 0;
    cmd_backend *be = NULL;
    if (npos == 0) {
        status = commands_usage_error("stats", "needs at least one input (see --help)");
    } else if ((o.region && !region_parse(o.region, rect, err, sizeof err)) ||
               (o.pixel && !region_pixel(o.pixel, NULL, xy, err, sizeof err))) {
        status = commands_usage_error("stats", err);
    } else if (!(be = backend_create(&o, err, sizeof err))) {
        fprintf(stderr, "hdrtone stats: %s\n", err);
        status = 1;
    } else if (npos == 1 && seq_cmd_is_sequence(pos[0])) {
        status = seq_stats(be, &o, pos[0]);
    } else {
        /* One bad input does not stop the others; any makes the exit status 1. */
        for (int i = 0; i < npos; i++)
            status |= stats_file(be, &o, pos[i], i == 0);
    }
    backend_destroy(&be);
    free(pos);
    return status;
}
