#include "commands.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gl_context.h"
#include "imgstats_gpu.h"
#include "pipeline.h"
#include "batch.h"
#include "encode.h"
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

/* Float output is the CPU reference's (batch.c map_linear says why): the backend becomes the
 * CPU for it, said once on stderr by command NAME. */
static void cpu_fallback(ht_options *o, const char *name)
{
    if (encode_format_is_float(o->format) && o->backend != HT_BACKEND_CPU) {
        fprintf(stderr, "hdrtone %s: the GPU has no linear output yet: the CPU reference "
                        "writes it\n", name);
        o->backend = HT_BACKEND_CPU;
    }
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

static bool is_directory(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* OUTDIR/NAME.EXT for input IN (its base name, extension replaced). */
static void output_in_dir(const char *outdir, const char *in, const char *ext, char *buf,
                          size_t len)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", in);
    const char *base = basename(tmp);
    const char *dot = strrchr(base, '.');
    int n = dot && dot != base ? (int)(dot - base) : (int)strlen(base);
    snprintf(buf, len, "%s/%.*s.%s", outdir, n, base, ext);
}

/* Before anything is written: no output may be one of the inputs (export would replace the
 * picture it reads), and no two inputs may share an output (the second would silently replace
 * the first: a/x.exr and b/x.exr, or x.exr and x.hdr, into one directory). */
static int check_outputs(const char **in, const char **out, int n)
{
    for (int i = 0; i < n; i++) {
        struct stat so;
        if (strcmp(out[i], "-") == 0)   /* standard output: a stream, never a file here */
            continue;
        if (stat(out[i], &so) == 0)
            for (int k = 0; k < n; k++) {
                struct stat si;
                if (stat(in[k], &si) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino) {
                    fprintf(stderr, "hdrtone export: %s: the output would replace the input %s\n",
                            out[i], in[k]);
                    return 2;
                }
            }
        for (int k = 0; k < i; k++)
            if (strcmp(out[i], out[k]) == 0) {
                fprintf(stderr, "hdrtone export: %s and %s would both be written to %s\n", in[k],
                        in[i], out[i]);
                return 2;
            }
    }
    return 0;
}

/* Resolves o->format (the extension of -o, --format, the streams' rules) and checks the
 * combination of -o, the number of inputs NPOS and --format/--depth/--display-window.
 * Returns 0, or 2 after a usage error. */
static int resolve_format(ht_options *o, int npos)
{
    char msg[HT_ERR_MAX + 128], why[HT_ERR_MAX];
    bool to_stdout = strcmp(o->output, "-") == 0, dir = !to_stdout && is_directory(o->output);
    encode_format ext = to_stdout || dir ? ENCODE_AUTO : encode_format_of_path(o->output);
    encode_format f = o->format;
    if (f == ENCODE_AUTO && to_stdout)
        return commands_usage_error("export", "-o - (standard output) needs --format");
    if (f == ENCODE_AUTO)
        f = ext != ENCODE_AUTO ? ext : ENCODE_PNG;
    if (ext != ENCODE_AUTO && ext != f) {
        snprintf(msg, sizeof msg, "-o %s names %s, --format says %s", o->output,
                 encode_format_name(ext), encode_format_name(f));
        return commands_usage_error("export", msg);
    }
    if ((f == ENCODE_RGB24 || f == ENCODE_Y4M) && !to_stdout) {
        snprintf(msg, sizeof msg, "%s is a stream for video tools: -o - (standard output)",
                 encode_format_name(f));
        return commands_usage_error("export", msg);
    }
    if (to_stdout && npos > 1 && f != ENCODE_RGB24 && f != ENCODE_Y4M) {
        snprintf(msg, sizeof msg, "-o - --format %s takes one input (several: rgb24 or y4m)",
                 encode_format_name(f));
        return commands_usage_error("export", msg);
    }
    if (npos > 1 && !to_stdout && !dir)
        return commands_usage_error("export",
                                    "with several inputs, -o must be an existing directory");
    if (o->depth != 8 && o->depth != 16)
        return commands_usage_error("export", "--depth is 8 or 16");
    bool linear = encode_format_is_float(f);
    if (linear && o->depth != 8) {
        snprintf(msg, sizeof msg, "--depth is PNG's: %s holds the linear output as floats",
                 encode_format_name(f));
        return commands_usage_error("export", msg);
    }
    if (!encode_format_accepts(f, o->display_window ? 4 : 3, linear ? 32 : o->depth, why,
                               sizeof why)) {
        snprintf(msg, sizeof msg, "%s%s", why,
                 o->display_window ? " (--display-window: RGBA)" : "");
        return commands_usage_error("export", msg);
    }
    o->format = (int)f;
    return 0;
}

int cmd_export(int argc, char **argv)
{
    ht_options o;
    char **pos;
    int npos, early = commands_start(argc, argv, HT_CMD_EXPORT, "export", &o, &pos, &npos);
    if (early >= 0)
        return early;
    int status = 0;
    if (npos == 0 || !o.output || !o.output[0])
        status = commands_usage_error("export", "needs at least one input and -o OUT (see --help)");
    else
        status = resolve_format(&o, npos);
    if (status != 2)
        cpu_fallback(&o, "export");
    if (status != 2) {
        char (*outs)[4096] = calloc((size_t)npos, sizeof *outs);
        const char **outp = calloc((size_t)npos, sizeof *outp);
        if (!outs || !outp) {
            fprintf(stderr, "hdrtone export: out of memory\n");
            status = 1;
        } else {
            bool dir = strcmp(o.output, "-") != 0 && is_directory(o.output);
            for (int i = 0; i < npos; i++) {
                if (dir)
                    output_in_dir(o.output, pos[i], encode_format_extension(o.format), outs[i],
                                  sizeof outs[i]);
                else
                    snprintf(outs[i], sizeof outs[i], "%s", o.output);
                outp[i] = outs[i];
            }
            status = check_outputs((const char **)pos, outp, npos);
            if (status == 0 && npos == 1 && seq_cmd_is_sequence(pos[0]))
                status = seq_export(&o, pos[0], outp[0]);
            else if (status == 0)
                status = batch_export(&o, (const char **)pos, outp, npos, NULL);
        }
        free(outs);
        free(outp);
    }
    free(pos);
    return status;
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
