/* bench --export: the export pipeline on real files, stage by stage, so its bottleneck shows. */
#define _DEFAULT_SOURCE /* mkdtemp */
#include "bench_export.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch.h"
#include "bench_decode.h"
#include "commands.h"
#include "encode.h"
#include "gl_context.h"

/* Frames per second stage I of S allows: its threads over its time per frame (0: unknown);
 * for stages that share their threads, what they allow together. */
static double stage_allows(const batch_stats *s, int i)
{
    int threads = s->threads[i] ? s->threads[i] : 1;
    double busy = s->busy_s[i];
    if (s->shared && i != BATCH_tonemap)
        busy = s->busy_s[BATCH_decode] + s->busy_s[BATCH_encode] + s->busy_s[BATCH_write];
    return busy > 0 ? threads * (double)s->frames / busy : 0;
}

/* The least that any stage allows, and which stage (-1: none measured). */
static double stages_bound(const batch_stats *s, int *which)
{
    double bound = 0;
    *which = -1;
    for (int i = 0; i < BATCH_STAGE_COUNT; i++) {
        double a = stage_allows(s, i);
        if (a > 0 && (*which < 0 || a < bound)) {
            bound = a;
            *which = i;
        }
    }
    return bound;
}

/* The GL thread's terms (ms a frame), the direct uploads, the process's CPU and the encode's
 * terms (ms a frame; each term [CPU, wall]) and each frame's moments (ms), as JSON keys
 * after the stages. */
static void print_gl_json(FILE *f, const batch_stats *s, int n)
{
    int frames = s->frames > 0 ? s->frames : 1;
    fprintf(f, "], \"direct_uploads\": %lu, \"gl_ms_per_frame\": {", s->direct_uploads);
    for (int i = 0; i < BATCH_GL_COUNT; i++)
        fprintf(f, "%s\"%s\": %.2f", i ? ", " : "", batch_gl_names[i],
                s->gl_s[i] * 1e3 / frames);
    fprintf(f, "}, \"process_cpu_ms_per_frame\": {\"user\": %.2f, \"sys\": %.2f}, "
               "\"encode_terms_ms_per_frame\": {", s->cpu_s[0] * 1e3 / frames,
            s->cpu_s[1] * 1e3 / frames);
    for (int i = 0; i < ENCODE_TERM_COUNT; i++)   /* [CPU, wall] */
        fprintf(f, "%s\"%s\": [%.2f, %.2f]", i ? ", " : "", encode_term_names[i],
                s->terms_cpu_s[i] * 1e3 / frames, s->terms_wall_s[i] * 1e3 / frames);
    fputs("}, \"timeline_ms\": {\"moments\": [", f);
    for (int m = 0; m < BATCH_MOMENT_COUNT; m++)
        fprintf(f, "%s\"%s\"", m ? ", " : "", batch_moment_names[m]);
    fputs("], \"frames\": [", f);
    for (int i = 0; s->timeline && i < n; i++) {
        for (int m = 0; m < BATCH_MOMENT_COUNT; m++)
            fprintf(f, "%s%.1f", m ? ", " : i ? "], [" : "[", s->timeline[i][m] * 1e3);
        fputs(i == n - 1 ? "]" : "", f);
    }
    fputs("]}", f);
}

/* Prints S: per stage the busy seconds per frame, the fraction of its threads' time and the
 * frames per second it allows; the decode's floor (FLOOR_MS a frame a thread, -1: none) and
 * the rate it would allow. */
static void print_stats(FILE *f, bool json, const ht_options *o, int n, const batch_stats *s,
                        double floor_ms)
{
    double fps = s->wall_s > 0 ? s->frames / s->wall_s : 0;
    int frames = s->frames > 0 ? s->frames : 1, which;
    double bound = stages_bound(s, &which);
    double floor_fps = floor_ms > 0 ? s->threads[BATCH_decode] * 1e3 / floor_ms : 0;
    encode_format fmt = o->format == ENCODE_AUTO ? ENCODE_PNG : (encode_format)o->format;
    if (json) {
        fputs("{\"device\": ", f);
        commands_json_str(f, o->backend == HT_BACKEND_CPU ? "cpu" : gl_renderer());
        fprintf(f, ", \"format\": \"%s\", \"files\": %d, \"frames\": %d, \"wall_s\": %.4f, "
                   "\"fps\": %.3f, \"stages_allow_fps\": %.3f, \"decode_floor_ms\": %.3f, "
                   "\"decode_floor_allows_fps\": %.3f, \"stages\": [",
                encode_format_name(fmt), n, s->frames, s->wall_s, fps, bound, floor_ms,
                floor_fps);
        for (int i = 0; i < BATCH_STAGE_COUNT; i++)
            fprintf(f, "%s{\"name\": \"%s\", \"threads\": %d, \"ms_per_frame\": %.2f, "
                       "\"busy\": %.3f, \"allows_fps\": %.3f}", i ? ", " : "",
                    batch_stage_names[i], s->threads[i], s->busy_s[i] * 1e3 / frames,
                    s->busy_s[i] / (s->wall_s * (s->threads[i] ? s->threads[i] : 1)),
                    stage_allows(s, i));
        print_gl_json(f, s, n);
        fputs("}\n", f);
        return;
    }
    fprintf(f, "export of %d file(s) to %s on %s: %d frame(s) in %.3f s, %.2f frames/s\n", n,
            encode_format_name(fmt), o->backend == HT_BACKEND_CPU ? "the CPU" : gl_renderer(),
            s->frames, s->wall_s, fps);
    fprintf(f, "%-10s %8s %14s %8s %12s\n", "stage", "threads", "ms per frame", "busy",
            "allows f/s");
    for (int i = 0; i < BATCH_STAGE_COUNT; i++)
        fprintf(f, "%-10s %8d %14.1f %7.0f%% %12.1f\n", batch_stage_names[i], s->threads[i],
                s->busy_s[i] * 1e3 / frames,
                100 * s->busy_s[i] / (s->wall_s * (s->threads[i] ? s->threads[i] : 1)),
                stage_allows(s, i));
    if (s->shared)
        fprintf(f, "(decode, encode and write share %d workers: \"allows\" is for the three "
                   "together)\n", s->threads[BATCH_decode]);
    fprintf(f, "the process's CPU: %.1f ms a frame (%.1f of it the system's); the encode's "
               "terms, ms of CPU (wall) a frame:", (s->cpu_s[0] + s->cpu_s[1]) * 1e3 / frames,
            s->cpu_s[1] * 1e3 / frames);
    for (int i = 0; i < ENCODE_TERM_COUNT; i++)
        if (s->terms_wall_s[i] > 0)
            fprintf(f, " %s %.1f (%.1f)", encode_term_names[i], s->terms_cpu_s[i] * 1e3 / frames,
                    s->terms_wall_s[i] * 1e3 / frames);
    fputc('\n', f);
    if (which >= 0)
        fprintf(f, "the stages allow %.1f frames/s (%s)", bound, batch_stage_names[which]);
    if (floor_ms > 0)
        fprintf(f, "; the decode alone at OpenEXR's floor (%.1f ms a frame a thread) %.1f",
                floor_ms, floor_fps);
    fputc('\n', f);
}

/* Runs the batch with outputs OUT/NNNN.EXT (or a stream into /dev/null); removes them. */
static int run_batch(cmd_backend *be, const ht_options *o, char **files, int n,
                     const char *dir, batch_stats *s)
{
    encode_format fmt = o->format == ENCODE_AUTO ? ENCODE_PNG : (encode_format)o->format;
    bool stream = fmt == ENCODE_RGB24 || fmt == ENCODE_Y4M;
    char (*outs)[4200] = calloc((size_t)n, sizeof *outs);
    const char **outp = calloc((size_t)n, sizeof *outp);
    if (!outs || !outp) {
        free(outs);
        free(outp);
        fprintf(stderr, "hdrtone bench: out of memory\n");
        return 1;
    }
    for (int i = 0; i < n; i++) {
        if (stream)
            snprintf(outs[i], sizeof outs[i], "-");
        else
            snprintf(outs[i], sizeof outs[i], "%s/%04d.%s", dir, i, encode_format_extension(fmt));
        outp[i] = outs[i];
    }
    fflush(stdout);
    int saved = stream ? dup(STDOUT_FILENO) : -1, null = stream ? open("/dev/null", O_WRONLY) : -1;
    if (stream && (saved < 0 || null < 0 || dup2(null, STDOUT_FILENO) < 0)) {
        fprintf(stderr, "hdrtone bench: cannot send the stream to /dev/null\n");
        free(outs);
        free(outp);
        return 1;
    }
    int status = batch_export(be, o, (const char **)files, outp, n, s);
    if (stream) {
        dup2(saved, STDOUT_FILENO);
        close(saved);
        close(null);
    }
    for (int i = 0; i < n && !stream; i++)
        unlink(outs[i]);
    free(outs);
    free(outp);
    return status;
}

/* The batch of O into a temporary folder, then its figures (and the decode's floor). */
static int bench_one(cmd_backend *be, const ht_options *o, char **files, int n, double *fps)
{
    char dir[] = "/tmp/hdrtone-bench-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("hdrtone bench: temporary folder");
        return 1;
    }
    batch_stats s = {.timeline = calloc((size_t)n, sizeof *s.timeline)};
    int status = run_batch(be, o, files, n, dir, &s);
    rmdir(dir);
    /* After the batch, not to take cores from it: the first file's floor. */
    print_stats(stdout, o->json, o, n, &s, bench_decode_floor_ms(files[0]));
    free(s.timeline);
    *fps = s.wall_s > 0 ? s.frames / s.wall_s : 0;
    return status;
}

int bench_export(cmd_backend *be, const ht_options *o, char **files, int n)
{
    if (n < 1)
        return commands_usage_error("bench", "--export needs at least one FILE");
    if (o->hdr == HT_TRANSFER_SRGB) {
        double fps;
        return bench_one(be, o, files, n, &fps);
    }
    if (o->format != ENCODE_AUTO && o->format != ENCODE_PNG)
        return commands_usage_error("bench", "--export --hdr: PNG only (it runs the Ultra HDR "
                                             "JPEG too)");
    /* The SDR PNG first, the same files and tone mapping: the floor the HDR outputs are held
     * to (docs/hdr.md, Speed); then the HDR PNG and the Ultra HDR JPEG (its display space the
     * SDR one's, as export gives it). */
    ht_options sdr = *o, uhdr = *o;
    sdr.hdr = sdr.tm.transfer = HT_TRANSFER_SRGB;
    sdr.depth = 8;
    uhdr.format = ENCODE_JPEG;
    if (!options_given(o, "display-space"))
        uhdr.tm.display_space = sdr.tm.display_space = HT_DISPLAY_SPACE_SRGB;
    double sdr_fps = 0, hdr_fps = 0, uhdr_fps = 0;
    int status = bench_one(be, &sdr, files, n, &sdr_fps);
    status |= bench_one(be, o, files, n, &hdr_fps);
    status |= bench_one(be, &uhdr, files, n, &uhdr_fps);
    const char *kind = ht_enum_name(tonemap_hdr_transfers, o->hdr);
    double r = sdr_fps > 0 ? hdr_fps / sdr_fps : 0, ru = sdr_fps > 0 ? uhdr_fps / sdr_fps : 0;
    if (o->json)
        printf("{\"hdr\": \"%s\", \"sdr_fps\": %.3f, \"hdr_fps\": %.3f, \"ratio\": %.3f, "
               "\"ultrahdr_fps\": %.3f, \"ultrahdr_ratio\": %.3f}\n", kind, sdr_fps, hdr_fps, r,
               uhdr_fps, ru);
    else
        printf("%s PNG (16-bit) at %.2f frames/s, Ultra HDR JPEG at %.2f, the SDR PNG (8-bit) "
               "at %.2f: %.2fx and %.2fx\n", kind, hdr_fps, uhdr_fps, sdr_fps, r, ru);
    return status;
}
