#include "commands.h"

#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "gl_context.h"
#include "imgstats_gpu.h"
#include "pipeline.h"
#include "batch.h"
#include "encode.h"
#include "export_linear.h"
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
        bool ok = true;
        if (rgb) {
            ok = commands_tonemap(o, img, NULL, rgb, err, errlen);
        } else {
            tonemap_result r;
            tonemap_fast_analyze(img, &o->tm, &r, o->jobs);
            tonemap_fast_apply16(img, &o->tm, &r, rgb16, o->jobs);
        }
        image_free(img);
        return ok;
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

/* The GPU has no passes for the human-vision options and reads back 8 or 16 bits: with
 * either, the CPU reference runs, said once on stderr by command NAME. */
static void cpu_fallback(ht_options *o, const char *name)
{
    const char *why = human_requested(&o->tm)
                          ? "the GPU has no veil/acuity/colour passes yet: the CPU reference "
                            "runs them"
                      : encode_format_is_float(o->format)
                          ? "the GPU has no linear output yet: the CPU reference writes it"
                          : NULL;
    if (why && o->backend != HT_BACKEND_CPU) {
        fprintf(stderr, "hdrtone %s: %s\n", name, why);
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
                status = encode_format_is_float(o.format)
                             ? export_linear(&o, (const char **)pos, outp, npos)
                             : batch_export(&o, (const char **)pos, outp, npos, NULL);
        }
        free(outs);
        free(outp);
    }
    free(pos);
    return status;
}

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
    fprintf(f, ",\n \"part\": %d, \"part_name\": ", img->part);
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

/* The JSON fields of the input's pixels: counts and luminance. */
static void json_pixels(FILE *f, const image_stats *st)
{
    fprintf(f, ",\n \"pixels\": {\"total\": %llu, \"finite\": %llu, \"positive_luminance\": %llu}",
            (unsigned long long)st->total, (unsigned long long)st->finite,
            (unsigned long long)st->positive);
    fprintf(f, ", \"values\": {\"nan\": %llu, \"inf\": %llu, \"negative\": %llu}",
            (unsigned long long)st->nan, (unsigned long long)st->inf,
            (unsigned long long)st->negative);
    fputs(",\n \"luminance\": {\"min\": ", f);
    json_num(f, st->positive ? st->y_min : NAN);   /* no pixel with Y > 0: null */
    json_num_field(f, "max", st->positive ? st->y_max : NAN);
    json_num_field(f, "mean", st->positive ? st->y_mean : NAN);
    json_num_field(f, "log_average", st->positive ? st->y_log_average : NAN);
    fputc('}', f);
}

/* The JSON object "tonemap": the parameters, the mapping and how the samples were taken. */
static void json_tonemap(FILE *f, const tonemap_params *tm, const tonemap_result *r)
{
    fputs(",\n \"tonemap\": {\"scale\": ", f);
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
    fprintf(f, ",\n \"histogram\": {\"bins\": %u, \"ln_min\": ", r->bins);
    json_num(f, r->bw_min);
    json_num_field(f, "ln_max", r->bw_max);
    fputs(", \"counts\": [", f);
    for (unsigned i = 0; i < r->bins; i++)
        fprintf(f, "%s%u", i ? ", " : "", r->hist[i]);
    fputs("]},\n \"curve\": [", f);
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
        fputs(i == 0   ? ",\n \"brightest\": "
              : i == 1 ? ", \"darkest\": "
              : i == 2 ? ",\n \"peaks\": ["
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
        fprintf(f, "%s, \"peaks_min_distance\": %d", s->n_peaks ? "]" : ",\n \"peaks\": []",
                min_distance);
}

/* The JSON fields of the output's histograms (when computed) and of the backend. */
static void json_output_backend(FILE *f, const imgstats *s, const ht_options *o)
{
    if (s->have_hist) {
        fputs(",\n \"rgba_histogram\": [", f);
        for (int c = 0; c < 4; c++)
            for (int i = 0; i < HT_COLOR_BINS; i++)
                fprintf(f, "%s%u%s", i ? ", " : c ? ", [" : "[", s->rgba_hist[c][i],
                        i == HT_COLOR_BINS - 1 ? "]" : "");
        fputs("],\n \"grey_histogram\": [", f);
        for (int i = 0; i < HT_GREY_BINS; i++)
            fprintf(f, "%s%u", i ? ", " : "", s->grey_hist[i]);
        fputc(']', f);
        if (o->backend == HT_BACKEND_GPU)
            fprintf(f, ", \"grey_histogram_kernel\": \"%s\"",
                    ht_enum_name(options_grey_kernels, o->histogram_kernel));
    }
    fprintf(f, ",\n \"backend\": \"%s\"", ht_enum_name(options_backends, o->backend));
    if (o->backend == HT_BACKEND_GPU) {
        json_str_field(f, "renderer", gl_renderer());
    }
}

/* What became of the human-vision options of TM on IMG into *REP (all not requested without
 * them, or out of memory). */
static void human_outcome(const hdr_image *img, const tonemap_params *tm, human_report *rep)
{
    memset(rep, 0, sizeof *rep);
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
    fputs(",\n \"human\": {\"veil\": ", f);
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

static void print_stats_json(FILE *f, const char *path, const hdr_image *img,
                             const image_stats *st, const ht_options *o, const tonemap_result *r,
                             const imgstats *s, const human_report *hr)
{
    json_file(f, path, img);
    json_pixels(f, st);
    json_tonemap(f, &o->tm, r);
    json_human(f, hr);
    json_histogram_curve(f, &o->tm, r);
    json_pixels_found(f, s, o->min_distance);
    json_output_backend(f, s, o);
    fputs("}\n", f);
}

static void print_stats_text(FILE *f, const char *path, const hdr_image *img,
                             const image_stats *st, const ht_options *o, const tonemap_result *r,
                             const imgstats *s, const human_report *hr)
{
    const int *dw = img->data_window, *vw = img->display_window;
    if (o->curve_format == HT_CURVE_PCOND) {
        /* Only the curve, as pcond -x writes it: N lines "Lw Ld" at the bin centres. */
        double db = ((double)r->bw_max - r->bw_min) / r->bins;
        for (unsigned i = 0; i < r->bins; i++) {
            double lw = exp(r->bw_min + (i + 0.5) * db);
            fprintf(f, "%e %e\n", lw, tonemap_curve_ld_pcond(r, &o->tm, lw));
        }
        return;
    }
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
    fprintf(f, "pixels        %llu total, %llu finite, %llu with Y > 0\n",
            (unsigned long long)st->total, (unsigned long long)st->finite,
            (unsigned long long)st->positive);
    fprintf(f, "values        %llu NaN, %llu Inf, %llu negative\n", (unsigned long long)st->nan,
            (unsigned long long)st->inf, (unsigned long long)st->negative);
    fprintf(f, "luminance     min %.9g  max %.9g  mean %.9g  log-average %.9g\n", st->y_min,
            st->y_max, st->y_mean, st->y_log_average);
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
    text_human(f, &o->tm, hr);
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
    fprintf(f, "backend       %s\ncurve         Lw -> Ld (cd/m^2) at bin centres\n",
            o->backend == HT_BACKEND_CPU ? ht_enum_name(options_backends, o->backend)
                                         : gl_renderer());
    double db = ((double)r->bw_max - r->bw_min) / r->bins;
    for (unsigned i = 0; i < r->bins; i++) {
        double lw = exp(r->bw_min + (i + 0.5) * db);
        fprintf(f, "%e %e\n", lw, tonemap_curve_ld(r, &o->tm, lw));
    }
}

void commands_print_stats(FILE *f, const char *path, const hdr_image *img,
                          const image_stats *st, const ht_options *o, const tonemap_result *r,
                          const imgstats *s)
{
    human_report hr;
    human_outcome(img, &o->tm, &hr);
    (o->json && o->curve_format != HT_CURVE_PCOND ? print_stats_json : print_stats_text)(
        f, path, img, st, o, r, s, &hr);
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
    cpu_fallback(&o, "stats");
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
    /* The CPU backend's statistics count the output pixels it returns; the GPU's read the
     * pipeline's textures (g_pipe, made by commands_tonemap) without a read-back, except for
     * an image in several textures, whose output is read back and counted on the CPU. */
    uint8_t *rgb = o.backend == HT_BACKEND_CPU ? malloc((size_t)img.width * img.height * 3) : NULL;
    imgstats s = {0};
    int status = 1;
    if (!r || (o.backend == HT_BACKEND_CPU && !rgb))
        fprintf(stderr, "hdrtone stats: out of memory\n");
    else if (!commands_tonemap(&o, &img, r, rgb, err, sizeof err))
        fprintf(stderr, "hdrtone stats: %s: %s\n", path, err);
    else if (o.backend == HT_BACKEND_GPU && pipeline_image_pieces(g_pipe) > 1 &&
             (!(rgb = malloc((size_t)img.width * img.height * 3)) ||
              !pipeline_tonemap_uploaded(g_pipe, &o.tm, NULL, rgb, err, sizeof err)))
        fprintf(stderr, "hdrtone stats: %s: %s\n", path, rgb ? err : "out of memory");
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
