/* bench --decode: hdrtone's decode of each file beside the floor, OpenEXR's own decode into a
 * reused buffer, measured in the same run (BENCHMARKS.md). */
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include "bench_decode.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"

/* Each measurement repeats until this much time is spent (at least MIN_RUNS, at most --runs
 * runs): a 4K PIZ frame takes ~150 ms, a 2x2 file microseconds. */
#define BUDGET_MS 1500.0
#define MIN_RUNS 3

/* The decoders timed, and the name image_load writes into hdr_image.decoder for each. */
static const struct {
    image_decoder id;
    const char *name;
} DECODERS[] = {
    {IMAGE_DECODER_OPENEXR, "OpenEXR"},
    {IMAGE_DECODER_CORE, "OpenEXRCore"},
    {IMAGE_DECODER_TINYEXR, "tinyexr"},
};
#define NDEC ((int)(sizeof DECODERS / sizeof DECODERS[0]))

typedef struct timing {
    double ms;      /* median, -1 = not run */
    double faults;  /* minor page faults per run (mean) */
} timing;

/* One file's measurements. */
typedef struct file_result {
    const char *file;
    char compression[32], decoder[16];
    int w, h;
    timing load, floor, dec[NDEC];
    bool dec_ran[NDEC], identical;
} file_result;

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static long minor_faults(void)
{
    struct rusage r;
    return getrusage(RUSAGE_THREAD, &r) == 0 ? r.ru_minflt : 0;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Times FN(CTX) (false = failed: -1) as the file comment says; one untimed run first. */
static timing measure(bool (*fn)(void *), void *ctx, int max_runs)
{
    timing t = {-1, 0};
    double ms[4096];
    int n = 0;
    long faults = 0;
    if (!fn(ctx))
        return t;
    for (double spent = 0; n < MIN_RUNS || (n < max_runs && n < 4096 && spent < BUDGET_MS);) {
        long f0 = minor_faults();
        double t0 = now_ms();
        if (!fn(ctx))
            return t;
        ms[n] = now_ms() - t0;
        faults += minor_faults() - f0;
        spent += ms[n++];
    }
    qsort(ms, (size_t)n, sizeof *ms, cmp_double);
    t.ms = n % 2 ? ms[n / 2] : 0.5 * (ms[n / 2 - 1] + ms[n / 2]);
    t.faults = (double)faults / n;
    return t;
}

/* A load of one file with one decoder; the first run keeps its image. */
typedef struct load_job {
    const char *path;
    image_load_options lo;
    hdr_image img;
    char err[HT_ERR_MAX];
} load_job;

static bool run_load(void *arg)
{
    load_job *j = arg;
    hdr_image img;
    if (!image_load(j->path, &j->lo, &img, j->err, sizeof j->err))
        return false;
    if (!j->img.half && !j->img.rgba)
        j->img = img;
    else
        image_free(&img);
    return true;
}

typedef struct floor_job {
    const uint8_t *data;
    size_t size;
    int threads;
    uint16_t *out;
    float *fout;    /* the other formats' floor: floats, from the file at PATH */
    size_t nfloats;
    const char *path;
    char err[HT_ERR_MAX];
} floor_job;

static uint8_t *slurp(const char *path, size_t *size);

static bool run_floor(void *arg)
{
    floor_job *j = arg;
    if (!j->fout)
        return image_exr_floor_threads(j->data, j->size, j->threads, j->out, j->err,
                                       sizeof j->err);
    /* oiiotool and djxl read the file, then decode: so does this floor, as image_load. */
    size_t size = 0;
    uint8_t *data = slurp(j->path, &size);
    bool ok = data && image_library_floor(data, size, j->fout, j->nfloats, j->err,
                                          sizeof j->err);
    image_pool_put(data, size);
    return ok;
}

/* Formats whose library decodes on all threads (OpenImageIO, libjxl): hdrtone and the floor
 * are both measured on all threads, as oiiotool and djxl decode. */
static bool library_decoder(const char *decoder)
{
    return strcmp(decoder, "OpenImageIO") == 0 || strcmp(decoder, "libjxl") == 0;
}

/* The same pixels: equal halves, or NaN in both (a NaN's payload may differ by path). */
static bool same_halves(const hdr_image *a, const hdr_image *b)
{
    if (!a->half || !b->half || a->width != b->width || a->height != b->height)
        return false;
    size_t n = (size_t)a->width * a->height * 4;
    for (size_t i = 0; i < n; i++) {
        uint16_t x = a->half[i], y = b->half[i];
        if (x != y && !((x & 0x7fff) > 0x7c00 && (y & 0x7fff) > 0x7c00))
            return false;
    }
    return true;
}

/* The whole of PATH (the floor's input) in a buffer from the pool, as hdrtone's own file
 * buffer (the same huge pages where the kernel gives them: a fair floor), or NULL; give it
 * back with image_pool_put(buf, *size). */
static uint8_t *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    uint8_t *buf = NULL;
    long n;
    if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) > 0 && fseek(f, 0, SEEK_SET) == 0 &&
        (buf = image_pool_get((size_t)n)) && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        image_pool_put(buf, (size_t)n);
        buf = NULL;
    }
    if (buf)
        *size = (size_t)n;
    if (f)
        fclose(f);
    return buf;
}

/* The floor of FILE with LO: its bytes, validated by a load, decoded by the library alone
 * on THREADS into a reused buffer (from the pool, as hdrtone's: the same pages, the same
 * TLB). */
static timing measure_floor(const char *file, image_load_options lo, int runs, int threads)
{
    floor_job fj = {.threads = threads};
    hdr_image img;
    timing t = {-1, 0};
    lo.threads = 1;
    lo.half_only = true;
    if (!(fj.data = slurp(file, &fj.size)) ||
        !image_load_memory(file, fj.data, fj.size, &lo, &img, fj.err, sizeof fj.err)) {
        image_pool_put((void *)fj.data, fj.size);
        return t;
    }
    size_t bytes = (size_t)img.width * img.height * 4 * sizeof *fj.out;
    bool exr = strcmp(img.format, "OpenEXR") == 0, lib = library_decoder(img.decoder);
    fj.nfloats = (size_t)img.width * img.height * 4;
    fj.path = file;
    image_free(&img);
    if (exr && (fj.out = image_pool_get(bytes)))
        t = measure(run_floor, &fj, runs);
    image_pool_put(fj.out, bytes);
    if (lib && (fj.fout = image_pool_get(fj.nfloats * sizeof(float))))
        t = measure(run_floor, &fj, runs);
    image_pool_put(fj.fout, fj.nfloats * sizeof(float));
    image_pool_put((void *)fj.data, fj.size);
    return t;
}

double bench_decode_floor_ms(const char *path)
{
    return measure_floor(path, (image_load_options){0}, 4096, 1).ms;
}

double bench_decode_floor_threads_ms(const char *path, int threads)
{
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int t = threads > 0 ? threads : cpus < 1 ? 1 : (int)cpus;
    return measure_floor(path, (image_load_options){0}, 4096, t).ms;
}

/* Measures FILE into *R. False (reported) when hdrtone cannot load it or a decoder's halves
 * differ from the default's. */
static bool measure_file(const ht_options *o, const char *file, file_result *r)
{
    load_job auto_job = {file, options_load(o), {0}, ""};
    auto_job.lo.threads = 1;
    auto_job.lo.half_only = true;
    *r = (file_result){.file = file, .floor = {-1, 0}, .identical = true};
    r->load = measure(run_load, &auto_job, o->runs);
    if (r->load.ms < 0) {
        fprintf(stderr, "hdrtone bench: %s\n", auto_job.err);
        image_free(&auto_job.img);
        return false;
    }
    if (library_decoder(auto_job.img.decoder)) { /* all threads, floats: as the floor */
        image_free(&auto_job.img);
        auto_job.lo.threads = 0;
        auto_job.lo.half_only = false;
        r->load = measure(run_load, &auto_job, o->runs);
    }
    const hdr_image *ref = &auto_job.img;
    r->w = ref->width;
    r->h = ref->height;
    snprintf(r->compression, sizeof r->compression, "%s", ref->compression);
    snprintf(r->decoder, sizeof r->decoder, "%s", ref->decoder);
    r->floor = measure_floor(file, options_load(o), o->runs, 1);
    for (int d = 0; d < NDEC; d++) {
        load_job j = auto_job;
        j.img = (hdr_image){0};
        j.lo.decoder = DECODERS[d].id;
        r->dec[d] = measure(run_load, &j, o->runs);
        /* A decoder that cannot read the file was not used: its time is another's. */
        r->dec_ran[d] = r->dec[d].ms >= 0 && strcmp(j.img.decoder, DECODERS[d].name) == 0;
        if (r->dec_ran[d] && ref->half && !same_halves(ref, &j.img)) {
            fprintf(stderr, "hdrtone bench: %s: %s decodes other pixels than %s\n", file,
                    DECODERS[d].name, ref->decoder);
            r->identical = false;
        }
        image_free(&j.img);
    }
    image_free(&auto_job.img);
    return r->identical;
}

static void print_json(FILE *f, const file_result *r, bool first)
{
    fputs(first ? "[\n{\"file\": " : ",\n{\"file\": ", f);
    commands_json_str(f, r->file);
    fprintf(f, ", \"compression\": \"%s\", \"width\": %d, \"height\": %d, \"decoder\": \"%s\", "
               "\"decode_ms\": %.3f, \"faults\": %.0f, ",
            r->compression, r->w, r->h, r->decoder, r->load.ms, r->load.faults);
    if (r->floor.ms > 0)
        fprintf(f, "\"floor_ms\": %.3f, \"ratio\": %.3f", r->floor.ms, r->load.ms / r->floor.ms);
    else
        fputs("\"floor_ms\": null, \"ratio\": null", f);
    fputs(", \"decoders\": {", f);
    for (int d = 0; d < NDEC; d++) {
        fprintf(f, "%s\"%s\": ", d ? ", " : "", DECODERS[d].name);
        if (r->dec_ran[d])
            fprintf(f, "%.3f", r->dec[d].ms);
        else
            fputs("null", f);
    }
    fprintf(f, "}, \"identical\": %s}", r->identical ? "true" : "false");
}

static void print_text(FILE *f, const file_result *r, bool first)
{
    if (first) {
        fprintf(f, "decode on one thread, median ms (floor: OpenEXR's C++ library alone, R,G,B "
                   "as half into a reused buffer, the same run; OpenImageIO and libjxl files:\n"
                   "hdrtone and the floor, the library alone as oiiotool and djxl decode, both "
                   "on all threads, to floats)\n");
        fprintf(f, "%-28s %-6s %11s %-12s %9s %8s %6s %7s", "file", "comp", "size", "decoder",
                "hdrtone", "floor", "ratio", "faults");
        for (int d = 0; d < NDEC; d++)
            fprintf(f, " %11s", DECODERS[d].name);
        fputc('\n', f);
    }
    const char *base = strrchr(r->file, '/');
    char size[24];
    snprintf(size, sizeof size, "%dx%d", r->w, r->h);
    fprintf(f, "%-28.28s %-6s %11s %-12s %9.2f ", base ? base + 1 : r->file, r->compression,
            size, r->decoder, r->load.ms);
    if (r->floor.ms > 0)
        fprintf(f, "%8.2f %5.2fx", r->floor.ms, r->load.ms / r->floor.ms);
    else
        fprintf(f, "%8s %6s", "-", "-");
    fprintf(f, " %7.0f", r->load.faults);
    for (int d = 0; d < NDEC; d++)
        if (r->dec_ran[d])
            fprintf(f, " %11.2f", r->dec[d].ms);
        else
            fprintf(f, " %11s", "-");
    fprintf(f, "%s\n", r->identical ? "" : "  DIFFERENT PIXELS");
}

int bench_decode(const ht_options *o, char **files, int n)
{
    if (n < 1)
        return commands_usage_error("bench", "--decode needs at least one FILE");
    int status = 0;
    bool first = true;
    for (int i = 0; i < n; i++) {
        file_result r;
        if (!measure_file(o, files[i], &r))
            status = 1;
        if (r.load.ms < 0)
            continue;
        (o->json ? print_json : print_text)(stdout, &r, first);
        first = false;
        fflush(stdout);
    }
    if (o->json)
        fputs(first ? "[]\n" : "\n]\n", stdout);
    return status;
}
