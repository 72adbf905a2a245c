#include "commands.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gl_context.h"
#include "imgstats_gpu.h"
#include "pipeline.h"
#include "human.h"
#include "seq_cmd.h"
#include "tonemap_fast.h"
#include "viewer.h"

/* The headless GPU state of a CLI process: one context, one pipeline, made on first use. */
static gl_context *g_ctx;
static pipeline *g_pipe;

static void release_gpu(void)
{
    pipeline_destroy(&g_pipe);
    gl_context_destroy(&g_ctx);
}

/* The context, made on first use (WHY: why there is none). */
static bool ensure_context(char *why, size_t len)
{
    static bool registered;
    if (!g_ctx && !(g_ctx = gl_context_create_headless(why, len)))
        return false;
    if (!registered)
        registered = atexit(release_gpu) == 0;
    return true;
}

/* The GPU state, made on first use. */
static bool ensure_gpu(char *err, size_t errlen)
{
    if (!g_pipe) {
        char why[HT_ERR_MAX];
        if (!ensure_context(why, sizeof why)) {
            snprintf(err, errlen, "no GPU: %s (--backend cpu works without one)", why);
            return false;
        }
        if (!(g_pipe = pipeline_create(why, sizeof why))) {
            snprintf(err, errlen, "GPU pipeline: %s", why);
            gl_context_destroy(&g_ctx);
            return false;
        }
        /* Test knob: pieces of at most HT_MAX_PIECE pixels a side, so that the tests reach
         * the paths of an image larger than a texture with ordinary images. */
        const char *piece = getenv("HT_MAX_PIECE");
        if (piece)
            pipeline_set_max_piece(g_pipe, atoi(piece));
    }
    return true;
}

pipeline *commands_pipeline(char *err, size_t errlen)
{
    return ensure_gpu(err, errlen) ? g_pipe : NULL;
}

/* --backend auto: the GPU when there is a context whose renderer is not one of Mesa's
 * software rasterisers (the fast CPU path beats them: BENCHMARKS.md), else the CPU. The
 * context stays for the GPU backend. */
static int resolve_backend(void)
{
    char why[HT_ERR_MAX];
    if (!ensure_context(why, sizeof why))
        return HT_BACKEND_CPU;
    const char *renderer = gl_renderer();
    if (strstr(renderer, "llvmpipe") || strstr(renderer, "softpipe") ||
        strstr(renderer, "swrast")) {
        gl_context_destroy(&g_ctx);
        return HT_BACKEND_CPU;
    }
    return HT_BACKEND_GPU;
}

bool commands_tonemap(const ht_options *o, const hdr_image *img, tonemap_result *r,
                      uint8_t *rgb, char *err, size_t errlen)
{
    if (o->backend == HT_BACKEND_CPU) {
        tonemap_result local;
        tonemap_result *res = r ? r : &local;
        tonemap_fast_analyze(img, &o->tm, res, o->jobs);
        if (rgb)
            tonemap_fast_apply(img, &o->tm, res, rgb, o->jobs);
        return true;
    }
    return ensure_gpu(err, errlen) &&
           pipeline_tonemap_image(g_pipe, img, &o->tm, r, rgb, err, errlen);
}

bool commands_tonemap_consume(const ht_options *o, hdr_image *img, uint8_t *rgb,
                              uint16_t *rgb16, char *err, size_t errlen)
{
    if (o->backend == HT_BACKEND_CPU) {
        tonemap_result r;
        tonemap_fast_analyze(img, &o->tm, &r, o->jobs);
        if (rgb)
            tonemap_fast_apply(img, &o->tm, &r, rgb, o->jobs);
        else
            tonemap_fast_apply16(img, &o->tm, &r, rgb16, o->jobs);
        image_free(img);
        return true;
    }
    if (!ensure_gpu(err, errlen) || !pipeline_upload(g_pipe, img, err, errlen)) {
        image_free(img);
        return false;
    }
    /* The texture has the pixels now: the CPU copy goes before the GPU allocates the rest
     * (with a CPU rasteriser all of it is system memory). */
    image_free(img);
    bool ok = rgb ? pipeline_tonemap_uploaded(g_pipe, &o->tm, NULL, rgb, err, errlen)
                  : pipeline_tonemap_uploaded16(g_pipe, &o->tm, NULL, rgb16, err, errlen);
    pipeline_release_textures(g_pipe);
    return ok;
}

bool commands_gpu_upload(const ht_options *o, const hdr_image *img, char *note, size_t len,
                         char *err, size_t errlen)
{
    note[0] = '\0';
    if (!ensure_gpu(err, errlen) || !pipeline_upload(g_pipe, img, err, errlen))
        return false;
    int pieces = pipeline_image_pieces(g_pipe);
    if (!human_requested(&o->tm) || pieces <= 1)
        return true;
    snprintf(note, len, "larger than a texture (in %d pieces), which the GPU's human-vision "
             "stage cannot take: the CPU reference runs the options on it", pieces);
    pipeline_release_textures(g_pipe);
    return true;
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
     "       hdrtone export SEQ -o OUT_SEQ|- [--frames A-B] [--adapt ...] [options]\n"
     "Tone-maps each IN and writes an sRGB picture: OUT is the file for one input\n"
     "(PNG, or JPEG for .jpg/.jpeg; the linear output as pcond writes it for .hdr\n"
     "(Radiance) and .pfm), an existing directory (IN's name with the format's\n"
     "extension) for one or more, or - for standard output (--format: png, jpeg,\n"
     "hdr or pfm for one input, rgb24 or y4m frames for video tools). A sequence\n"
     "(SEQ a pattern: shot.%04d.exr or shot.####.exr) is tone-mapped in frame order,\n"
     "adapted in time (--adapt), into OUT_SEQ (out/%04d.png) or a stream (-o -).\n"},
    {HT_CMD_STATS,
     "usage: hdrtone stats IN [--json] [options]\n"
     "Prints the image's statistics, its histogram and the response curve; for a\n"
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
    if (command == HT_CMD_VIEW) {
        fputs("\nkeys:\n", stdout);
        viewer_print_keys(stdout);
    }
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
    /* The commands that tone-map with a backend (bench without --export times the GPU's
     * passes; the viewer draws with its own context). */
    bool tonemaps = command == HT_CMD_EXPORT || command == HT_CMD_STATS ||
                    command == HT_CMD_ANALYZE || (command == HT_CMD_BENCH && o->bench_export);
    if (o->backend == HT_BACKEND_AUTO && tonemaps && !o->help)
        o->backend = resolve_backend();
    return -1;
}

/* stats' tone mapping of IMG (file PATH) into *r. The CPU backend's statistics count the
 * output pixels it returns in *rgb (malloc'd); the GPU's read the pipeline's textures without
 * a read-back (*rgb NULL), except for an image in several textures, whose output is read back
 * into *rgb. The human-vision options on an image the GPU cannot take them on turn O to the
 * CPU backend, with a note. False, reason in err. */
static bool stats_tonemap(ht_options *o, const char *path, const hdr_image *img,
                          tonemap_result *r, uint8_t **rgb, char *err, size_t errlen)
{
    char note[HT_ERR_MAX];
    *rgb = NULL;
    if (o->backend == HT_BACKEND_GPU) {
        if (!commands_gpu_upload(o, img, note, sizeof note, err, errlen))
            return false;
        if (note[0]) {
            fprintf(stderr, "hdrtone stats: %s: %s\n", path, note);
            o->backend = HT_BACKEND_CPU;
        }
    }
    bool gpu = o->backend == HT_BACKEND_GPU;
    if ((!gpu || pipeline_image_pieces(g_pipe) > 1) &&
        !(*rgb = malloc((size_t)img->width * img->height * 3))) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    return gpu ? pipeline_tonemap_uploaded(g_pipe, &o->tm, r, *rgb, err, errlen)
               : commands_tonemap(o, img, r, *rgb, err, errlen);
}

int cmd_stats(int argc, char **argv)
{
    ht_options o;
    char **pos, err[HT_ERR_MAX];
    int npos, early = commands_start(argc, argv, HT_CMD_STATS, "stats", &o, &pos, &npos);
    if (early >= 0)
        return early;
    if (npos != 1) {
        free(pos);
        return commands_usage_error("stats", "needs exactly one input (see --help)");
    }
    const char *path = pos[0];
    free(pos);
    if (seq_cmd_is_sequence(path))
        return seq_stats(&o, path);
    hdr_image img = {0};
    image_load_options lo = options_load(&o);
    if (!image_load(path, &lo, &img, err, sizeof err)) {
        fprintf(stderr, "hdrtone stats: %s\n", err);
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
    else if (!stats_tonemap(&o, path, &img, r, &rgb, err, sizeof err))
        fprintf(stderr, "hdrtone stats: %s: %s\n", path, err);
    else if (rgb ? !imgstats_cpu(&img, rgb, o.peaks, o.min_distance, &s)
                 : !imgstats_gpu(g_pipe, &img, o.histogram_kernel, o.peaks, o.min_distance, &s,
                                 err, sizeof err))
        fprintf(stderr, "hdrtone stats: %s: %s\n", path, rgb ? "out of memory" : err);
    else {
        commands_print_stats(stdout, path, &img, &st, &o, r, &s);
        status = 0;
    }
    imgstats_free(&s);
    free(rgb);
    free(r);
    image_free(&img);
    return status;
}
