#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "seq_cmd.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "adapt.h"
#include "batch.h"
#include "commands.h"
#include "encode.h"
#include "imgstats.h"
#include "imgstats_gpu.h"
#include "pipeline.h"
#include "png_export.h"
#include "sequence.h"

/* The tone mapping of a sequence's frames, in order. */
typedef struct seq_mapper {
    cmd_backend *be;
    const ht_options *o;
    adapt_params ap;
    adapt_state st;
    const int *frames;       /* the batch's index -> frame number */
    bool keep_textures;      /* GPU: the output stays for the statistics */
    adapt_frame af;          /* the last frame's analysis */
    tonemap_result r;        /* the last frame's result, adapted */
    tonemap_params tm;       /* the last frame's parameters (o->tm with its colour) */
    char note[HT_ERR_MAX];   /* why the last frame ran on the CPU, not the GPU; else "" */
} seq_mapper;

bool seq_cmd_is_sequence(const char *in)
{
    return seq_is_pattern(in) && access(in, F_OK) != 0;
}

/* Opens SEQ with --frames into *s (seq_frames_open); returns -1 to go on, else the exit
 * status after the message (2 when SEQ or --frames is malformed). */
static int seq_open(const char *cmd, const ht_options *o, const char *in, seq_frames *s)
{
    char err[HT_ERR_MAX];
    bool malformed;
    if (seq_frames_open(in, o->frame_range, s, &malformed, err, sizeof err))
        return -1;
    if (malformed)
        return commands_usage_error(cmd, err);
    fprintf(stderr, "hdrtone %s: %s\n", cmd, err);
    return 1;
}

/* Reports the frames of [first, last] without a file, by number (a run of them at once);
 * true when there is one. */
static bool report_missing(const char *cmd, const seq_frames *s)
{
    bool any = false;
    int at = s->first;   /* the next frame that should exist */
    for (int k = 0; k <= s->nexist; k++) {
        int next = k < s->nexist ? s->exist[k] : s->last + 1;
        if (next < at)
            continue;
        if (next > s->last + 1)
            next = s->last + 1;
        if (next > at) {
            char a[4096], b[4096];
            seq_format(&s->pat, at, a, sizeof a);
            seq_format(&s->pat, next - 1, b, sizeof b);
            if (next - 1 == at)
                fprintf(stderr, "hdrtone %s: frame %d: %s: no such file\n", cmd, at, a);
            else
                fprintf(stderr, "hdrtone %s: frames %d-%d: %s .. %s: no such files\n", cmd, at,
                        next - 1, a, b);
            any = true;
        }
        if (next > s->last)
            break;
        at = next + 1;
    }
    return any;
}

/* The adaptation O asks for into m->ap, tone-mapping with BE; false after a usage error
 * (status 2 in *status). */
static bool mapper_init(const char *cmd, cmd_backend *be, const ht_options *o, seq_mapper *m,
                        int *status)
{
    char err[HT_ERR_MAX];
    memset(m, 0, sizeof *m);
    m->be = be;
    m->o = o;
    adapt_init(&m->st);
    if (!options_adapt(o, &m->ap, err, sizeof err)) {
        *status = commands_usage_error(cmd, err);
        return false;
    }
    return true;
}

/* What an analysis file's frame was analysed with: the options and the backend. */
static uint64_t fingerprint(const ht_options *o)
{
    return adapt_fingerprint(&o->tm) ^ (uint64_t)o->backend;
}

/* The still analysis of IMG into *r with BE; on the GPU IMG stays uploaded for the apply. An
 * image the GPU cannot take O's options on (backend_gpu_upload) is analysed on the CPU, and
 * NOTE (NOTELEN bytes) says why; else NOTE is "". */
static bool analyze_image(cmd_backend *be, const ht_options *o, const tonemap_params *tm,
                          const hdr_image *img, tonemap_result *r, char *note, size_t notelen,
                          char *err, size_t errlen)
{
    note[0] = '\0';
    if (o->backend != HT_BACKEND_CPU) {
        if (!backend_gpu_upload(be, o, img, note, notelen, err, errlen))
            return false;
        if (!note[0])
            return pipeline_analyze_uploaded(backend_pipeline(be, err, errlen), tm, r, err,
                                             errlen);
    }
    tonemap_cpu_analyze(img, tm, r);
    return true;
}

/* Frame FRAME: analysis, the state's step, the apply with the adapted result into PX
 * (BITS 8 or 16; 32, the linear output, with the CPU backend only, as export makes it for a
 * float format; NULL: on the GPU only the output texture, on the CPU nothing). */
static bool map_frame(seq_mapper *m, int frame, const hdr_image *img, void *px, int bits,
                      char *err, size_t errlen)
{
    const ht_options *o = m->o;
    tonemap_params *tm = &m->tm;
    if (!options_tonemap(o, img, tm, err, errlen) ||
        !analyze_image(m->be, o, tm, img, &m->r, m->note, sizeof m->note, err, errlen))
        return false;
    adapt_frame_of(&m->r, frame, &m->af);
    adapt_update(&m->ap, &m->st, &m->af);
    if (m->af.valid)
        adapt_result(&m->st, tm, &m->r);
    if (o->backend == HT_BACKEND_CPU || m->note[0]) {
        if (px && bits == 32)
            tonemap_cpu_apply_linear(img, tm, &m->r, px);
        else if (px && bits == 16)
            tonemap_cpu_apply16(img, tm, &m->r, px);
        else if (px)
            tonemap_cpu_apply(img, tm, &m->r, px);
        return true;
    }
    pipeline *p = backend_pipeline(m->be, err, errlen);
    bool ok = pipeline_apply_result(p, tm, &m->r, px, bits, err, errlen);
    if (!m->keep_textures)
        pipeline_release_textures(p);
    return ok;
}

static bool hook_tonemap(void *ctx, int index, hdr_image *img, void *px, int bits,
                         double *exposure, char *err, size_t errlen)
{
    seq_mapper *m = ctx;
    if (!map_frame(m, m->frames[index], img, px, bits, err, errlen))
        return false;
    if (bits == 32)
        *exposure = tonemap_exposure_pcond(&m->r, &m->o->tm);
    return true;
}

/* --analysis DIR: the state after every frame with a file before s->first, from their
 * analyses. False, every missing or unusable one reported, when one is. */
static bool replay(const char *cmd, seq_mapper *m, const seq_frames *s, const char *dir)
{
    bool ok = true;
    uint64_t fp = fingerprint(m->o);
    for (int k = 0; k < s->nexist && s->exist[k] < s->first; k++) {
        char path[4096], err[HT_ERR_MAX + 64];
        if (!adapt_frame_path(dir, s->exist[k], path, sizeof path) ||
            !adapt_frame_read(path, &m->af, fp, err, sizeof err)) {
            fprintf(stderr, "hdrtone %s: frame %d: analysis %s\n", cmd, s->exist[k],
                    strlen(path) ? err : "path too long");
            ok = false;
            continue;
        }
        m->af.frame = s->exist[k];
        if (ok)
            adapt_update(&m->ap, &m->st, &m->af);
    }
    if (!ok)
        fprintf(stderr, "hdrtone %s: the analyses above are missing (hdrtone analyze makes "
                        "them%s): no frame written\n", cmd,
                encode_format_is_float(m->o->format) ? "; .hdr and .pfm output runs on the "
                                                       "CPU: analyze with --backend cpu" : "");
    return ok;
}

/* The inputs and outputs of the frames of S that exist, into *in, *out (arrays of N
 * malloc'd strings; *frames their numbers). False when out of memory or a name is too
 * long. */
static bool seq_files(const seq_frames *s, const seq_pattern *outp, bool stream, char ***in,
                      char ***out, int **frames, int *n)
{
    *n = 0;
    *in = calloc((size_t)s->nexist + 1, sizeof **in);
    *out = calloc((size_t)s->nexist + 1, sizeof **out);
    *frames = calloc((size_t)s->nexist + 1, sizeof **frames);
    if (!*in || !*out || !*frames)
        return false;
    for (int k = 0; k < s->nexist; k++) {
        int f = s->exist[k];
        if (f < s->first || f > s->last)
            continue;
        char a[4096], b[4096];
        if (!seq_format(&s->pat, f, a, sizeof a) ||
            (!stream && !seq_format(outp, f, b, sizeof b)))
            return false;
        (*frames)[*n] = f;
        (*in)[*n] = strdup(a);
        (*out)[*n] = strdup(stream ? "-" : b);
        if (!(*in)[(*n)++] || !(*out)[*n - 1])
            return false;
    }
    return true;
}

static void free_files(char **in, char **out, int *frames, int n)
{
    for (int i = 0; in && out && i < n; i++) {
        free(in[i]);
        free(out[i]);
    }
    free(in);
    free(out);
    free(frames);
}

int seq_export(cmd_backend *be, const ht_options *o, const char *in, const char *out)
{
    seq_frames s;
    seq_mapper *m = malloc(sizeof *m);
    seq_pattern outp;
    char err[HT_ERR_MAX];
    bool stream = strcmp(out, "-") == 0;
    int status = -1;
    if (!m) {
        fprintf(stderr, "hdrtone export: out of memory\n");
        return 1;
    }
    if (!stream && !seq_parse(out, &outp, err, sizeof err))
        status = commands_usage_error("export", "a sequence's -o is a pattern taking the frame "
                                                "number (out/%04d.png), a folder or -");
    else if (!stream && strcmp(out, in) == 0)
        status = commands_usage_error("export", "the output would replace the input");
    else if (o->analysis && !o->frame_range)
        status = commands_usage_error("export", "--analysis goes with --frames A-B");
    else
        mapper_init("export", be, o, m, &status);
    if (status >= 0) {
        free(m);
        return status;
    }
    if ((status = seq_open("export", o, in, &s)) >= 0) {
        free(m);
        return status;
    }
    status = report_missing("export", &s);
    char **ins = NULL, **outs = NULL;
    int *frames = NULL, n = 0;
    if (o->analysis && !replay("export", m, &s, o->analysis)) {
        status = 1;
    } else if (!stream && !file_make_parent_dirs(out, err, sizeof err)) {
        fprintf(stderr, "hdrtone export: %s\n", err);   /* the pattern's folder */
        status = 1;
    } else if (!seq_files(&s, &outp, stream, &ins, &outs, &frames, &n)) {
        fprintf(stderr, "hdrtone export: out of memory or a file name too long\n");
        status = 1;
    } else if (n > 0) {
        m->frames = frames;
        batch_hook hook = {m->ap.mode == HT_ADAPT_NONE ? NULL : hook_tonemap, m, frames};
        status |= batch_export_hooked(be, o, (const char **)ins, (const char **)outs, n, &hook,
                                      NULL);
    }
    free_files(ins, outs, frames, n);
    seq_frames_free(&s);
    free(m);
    return status;
}

/* JSON: the report of one frame on one line, "frame" and "adapt" first. */
static void print_json_line(const char *text, size_t len, int frame, const seq_mapper *m)
{
    static const char *const names[] = {"none", "exp", "human"};
    printf("{\"frame\": %d, \"adapt\": {\"mode\": \"%s\", \"rate\": %.9g, \"exact\": %s}, ",
           frame, names[m->ap.mode], m->st.rate, m->st.exact ? "true" : "false");
    /* The report's own newlines lie between fields (strings escape theirs). */
    for (size_t i = 1; i < len; i++)
        if (text[i] != '\n')
            putchar(text[i]);
    putchar('\n');
}

/* Frame FRAME's report (stats as RAN computed them) on standard output: a JSON line, or
 * text. False when out of memory. */
static bool report_frame(seq_mapper *m, int frame, const char *path, const hdr_image *img,
                         const image_stats *st, const ht_options *ran, const imgstats *s)
{
    if (!ran->json || ran->curve_format == HT_CURVE_PCOND) {
        printf("frame         %d (adapt rate %.6g)\n", frame, m->st.rate);
        commands_print_stats(stdout, path, img, st, ran, &m->r, s,
                             commands_gpu_human(m->be, ran));
        return true;
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (f) {
        commands_print_stats(f, path, img, st, ran, &m->r, s, commands_gpu_human(m->be, ran));
        fclose(f);
        print_json_line(buf, len, frame, m);
    }
    free(buf);
    return f != NULL;
}

/* One frame of stats SEQ: load, tone-map with the state, report. False after a failure
 * (reported). */
static bool stats_frame(seq_mapper *m, int frame, const char *path)
{
    const ht_options *o = m->o;
    char err[HT_ERR_MAX];
    hdr_image img = {0};
    image_load_options lo = options_load(o);
    if (!image_load(path, &lo, &img, err, sizeof err)) {
        fprintf(stderr, "hdrtone stats: frame %d: %s\n", frame, err);
        return false;
    }
    image_stats st;
    image_compute_stats(&img, &st);
    uint8_t *rgb = NULL;
    imgstats s = {0};
    size_t bytes = (size_t)img.width * img.height * 3;
    bool cpu = o->backend == HT_BACKEND_CPU, ok = !cpu || (rgb = malloc(bytes));
    m->keep_textures = true;
    pipeline *p = NULL;
    if (ok)
        ok = map_frame(m, frame, &img, rgb, 8, err, sizeof err);
    else
        snprintf(err, sizeof err, "out of memory");
    /* A frame the GPU could not take ran on the CPU: its output and report are the CPU's. */
    ht_options ran = *o;
    if (ok && m->note[0]) {
        fprintf(stderr, "hdrtone stats: frame %d: %s: %s\n", frame, path, m->note);
        ran.backend = HT_BACKEND_CPU;
        cpu = true;
        if ((ok = rgb || (rgb = malloc(bytes))))
            tonemap_cpu_apply(&img, &m->tm, &m->r, rgb);
        else
            snprintf(err, sizeof err, "out of memory");
    }
    /* The GPU's statistics read its output texture; an image in pieces is read back. */
    if (ok && !cpu && pipeline_image_pieces(p = backend_pipeline(m->be, err, sizeof err)) > 1)
        ok = (rgb = malloc(bytes)) &&
             pipeline_apply_result(p, &m->tm, &m->r, rgb, 8, err, sizeof err);
    if (ok && !(rgb ? imgstats_cpu(&img, rgb, o->peaks, o->min_distance, &s)
                    : imgstats_gpu(p, &img, o->histogram_kernel, o->peaks, o->min_distance, &s,
                                   err, sizeof err)))
        ok = false;
    if (!ok)
        fprintf(stderr, "hdrtone stats: frame %d: %s: %s\n", frame, path, err);
    else
        ok = report_frame(m, frame, path, &img, &st, &ran, &s);
    imgstats_free(&s);
    free(rgb);
    image_free(&img);
    return ok;
}

int seq_stats(cmd_backend *be, const ht_options *o, const char *in)
{
    seq_frames s;
    int status = -1;
    seq_mapper *m = malloc(sizeof *m);
    if (!m) {
        fprintf(stderr, "hdrtone stats: out of memory\n");
        return 1;
    }
    if (!mapper_init("stats", be, o, m, &status) || (status = seq_open("stats", o, in, &s)) >= 0) {
        free(m);
        return status;
    }
    status = report_missing("stats", &s);
    for (int k = 0; k < s.nexist; k++) {
        char path[4096];
        int f = s.exist[k];
        if (f < s.first || f > s.last)
            continue;
        if (!seq_format(&s.pat, f, path, sizeof path) || !stats_frame(m, f, path))
            status = 1;
        fflush(stdout);
    }
    seq_frames_free(&s);
    free(m);
    return status;
}

/* analyze: frame FRAME's analysis (an unreadable frame's says so) into DIR. False after a
 * failure (reported). */
static bool analyze_frame(cmd_backend *be, const ht_options *o, int frame, const char *path,
                          const char *dir, tonemap_result *r, adapt_frame *af)
{
    char err[HT_ERR_MAX], file[4096], note[HT_ERR_MAX];
    hdr_image img = {0};
    tonemap_params tm;
    image_load_options lo = options_load(o);
    bool ok = image_load(path, &lo, &img, err, sizeof err);
    if (!ok) {
        fprintf(stderr, "hdrtone analyze: frame %d: %s\n", frame, err);
    } else if (!options_tonemap(o, &img, &tm, err, sizeof err) ||
               !analyze_image(be, o, &tm, &img, r, note, sizeof note, err, sizeof err)) {
        /* No note to print: analyze takes no human-vision option, so no frame falls back. */
        fprintf(stderr, "hdrtone analyze: frame %d: %s: %s\n", frame, path, err);
        ok = false;
    }
    if (ok)
        adapt_frame_of(r, frame, af);
    else
        adapt_frame_invalid(frame, o->tm.bins, af);
    if (o->backend == HT_BACKEND_GPU && ok)
        pipeline_release_textures(backend_pipeline(be, err, sizeof err));
    image_free(&img);
    if (!adapt_frame_path(dir, frame, file, sizeof file) ||
        !adapt_frame_write(file, af, fingerprint(o), err, sizeof err)) {
        fprintf(stderr, "hdrtone analyze: frame %d: %s\n", frame, err);
        return false;
    }
    return ok;
}

/* The frames of S into DIR (made when missing), analysed with BE. Returns the exit status. */
static int analyze_all(cmd_backend *be, const ht_options *o, const seq_frames *s,
                       const char *dir)
{
    char err[HT_ERR_MAX];
    if (!file_make_dirs(dir, err, sizeof err)) {
        fprintf(stderr, "hdrtone analyze: %s\n", err);
        return 1;
    }
    int status = report_missing("analyze", s);
    tonemap_result *r = malloc(sizeof *r);
    adapt_frame *af = malloc(sizeof *af);
    if (!r || !af) {
        fprintf(stderr, "hdrtone analyze: out of memory\n");
        status = 1;
    }
    for (int k = 0; r && af && k < s->nexist; k++) {
        char path[4096];
        int f = s->exist[k];
        if (f >= s->first && f <= s->last &&
            (!seq_format(&s->pat, f, path, sizeof path) ||
             !analyze_frame(be, o, f, path, dir, r, af)))
            status = 1;
    }
    free(r);
    free(af);
    return status;
}

int cmd_analyze(int argc, char **argv)
{
    ht_options o;
    char **pos, err[HT_ERR_MAX];
    int npos, early = commands_start(argc, argv, HT_CMD_ANALYZE, "analyze", &o, &pos, &npos);
    if (early >= 0)
        return early;
    int status;
    seq_frames s;
    cmd_backend *be = NULL;
    if (npos != 1 || !o.output || !o.output[0] || !seq_is_pattern(pos[0])) {
        status = commands_usage_error("analyze", "needs one sequence (shot.%04d.exr) and -o DIR "
                                                 "(see --help)");
    } else if ((status = seq_open("analyze", &o, pos[0], &s)) < 0) {
        if ((be = backend_create(&o, err, sizeof err))) {
            status = analyze_all(be, &o, &s, o.output);
        } else {
            fprintf(stderr, "hdrtone analyze: %s\n", err);
            status = 1;
        }
        seq_frames_free(&s);
    }
    backend_destroy(&be);
    free(pos);
    return status;
}
