/* The fast CPU tone mapping (tonemap_fast.h): the reference's steps on blocks of pixels that
 * worker threads take from a shared counter. What the reference adds up in sample order
 * (the sums of ln Lw, the foveal boxes) is added up in that order here too, so that every
 * result is the reference's to the bit; counts, extremes and histograms do not depend on the
 * order. The range and curve steps, on a few hundred numbers, are the reference's own. */
#include "tonemap_fast.h"

#include "human.h"
#include "parallel.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
    BLOCK = 16384,       /* pixels per work item */
    SLOTS_PER_WORKER = 4, /* blocks of logarithms a worker may be ahead of the sum */
    TABLE_CACHE = 8,     /* encoding tables kept for the process */
};

int tonemap_fast_threads(int threads)
{
    if (threads > 0)
        return threads < PARALLEL_MAX_WORKERS ? threads : PARALLEL_MAX_WORKERS;
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > PARALLEL_MAX_WORKERS ? PARALLEL_MAX_WORKERS : (int)n;
}

bool tonemap_fast_take(_Atomic size_t *next, size_t count, size_t *item)
{
    size_t i = atomic_fetch_add_explicit(next, 1, memory_order_relaxed);
    *item = i;
    return i < count;
}

/* --- Analysis with pixel sampling. --- */

typedef struct scan_part {   /* one worker's share of the classification */
    uint32_t n_valid, n_nonfinite;
    int32_t min_bits, max_bits;   /* of the valid Lw: positive floats order as their bits */
    uint32_t counted;
    uint32_t hist[HT_MAX_BINS];
} scan_part;

typedef struct analysis_job {
    const hdr_image *img;
    const tonemap_result *r;
    float scale, w[3];
    size_t npix, count;
    _Atomic size_t next;
    float *lw;         /* per pixel: Lw, NaN when not finite */
    scan_part *parts;  /* per worker */
    /* The sum of ln Lw in pixel order, as the reference adds it up. The workers compute the
     * logarithms of their blocks (the work) in parallel into slots, block b into slot
     * b % slots; whoever completes the block next in line adds it and the ready ones after
     * it. A worker waits only when its block's slot still holds an unadded block. */
    double *ln;        /* slots of BLOCK values: ln Lw of a counted pixel, else 0 */
    bool *ready;       /* per slot: its block's logarithms are in */
    size_t slots;
    pthread_mutex_t mu;
    pthread_cond_t turn;
    size_t summed;     /* blocks added so far */
    double sum;
} analysis_job;

/* Lw per pixel, as the reference's classify computes it; counts and extremes. A component
 * that is not finite makes Lw not finite (the weights and the scale are positive), so Lw
 * alone decides the class. Written for the vectoriser: no branch, integer extremes. */
static void scan_block(analysis_job *j, size_t first, size_t end, scan_part *part)
{
    const float *rgba = j->img->rgba;
    float *out = j->lw, scale = j->scale, w0 = j->w[0], w1 = j->w[1], w2 = j->w[2];
    uint32_t valid = 0, nonfinite = 0;
    int32_t mn = part->min_bits, mx = part->max_bits;
    for (size_t k = first; k < end; k++) {
        const float *c = rgba + 4 * k;
        float lw = scale * (w0 * c[0] + w1 * c[1] + w2 * c[2]);
        int32_t finite = lw - lw == 0.0f;
        int32_t ok = finite & (lw > 0.0f);
        union { float f; int32_t i; } bits = {lw};
        int32_t keep = -ok;   /* all ones for a valid Lw: masks, which GCC 12 vectorises
                                 where it does not a select feeding a min/max */
        valid += (uint32_t)ok;
        nonfinite += (uint32_t)(1 - finite);
        int32_t b_min = (bits.i & keep) | (INT32_MAX & ~keep), b_max = bits.i & keep;
        mn = b_min < mn ? b_min : mn;
        mx = b_max > mx ? b_max : mx;
        out[k] = finite ? lw : NAN;
    }
    part->n_valid += valid;
    part->n_nonfinite += nonfinite;
    part->min_bits = mn;
    part->max_bits = mx;
}

static void scan_worker(void *ctx, int worker)
{
    analysis_job *j = ctx;
    size_t item;
    while (tonemap_fast_take(&j->next, j->count, &item)) {
        size_t first = item * BLOCK, end = first + BLOCK < j->npix ? first + BLOCK : j->npix;
        scan_block(j, first, end, &j->parts[worker]);
    }
}

/* The reference's bin_set on the pixels: counted when lo_thresh <= Lw < hi_thresh. */
static void bin_worker(void *ctx, int worker)
{
    analysis_job *j = ctx;
    const tonemap_result *r = j->r;
    scan_part *part = &j->parts[worker];
    float lo = r->lo_thresh, hi = r->hi_thresh;
    size_t item;
    while (tonemap_fast_take(&j->next, j->count, &item)) {
        size_t first = item * BLOCK, end = first + BLOCK < j->npix ? first + BLOCK : j->npix;
        double *ln = j->ln + item % j->slots * BLOCK;
        pthread_mutex_lock(&j->mu);
        while (item >= j->summed + j->slots)   /* the slot's block is not added yet */
            pthread_cond_wait(&j->turn, &j->mu);
        pthread_mutex_unlock(&j->mu);
        /* The logarithms, then the bins: two loops, each free of the other's dependencies. */
        for (size_t k = first; k < end; k++) {
            float lw = j->lw[k];
            bool counted = lw > 0.0f && lw >= lo && lw < hi;   /* NaN fails */
            ln[k - first] = counted ? log(lw) : 0.0;   /* 0 adds nothing: the sum is never -0 */
        }
        for (size_t k = first; k < end; k++) {
            float lw = j->lw[k];
            if (lw > 0.0f && lw >= lo && lw < hi) {
                part->hist[tonemap_bin_of_log(r, ln[k - first])]++;
                part->counted++;
            }
        }
        pthread_mutex_lock(&j->mu);
        j->ready[item % j->slots] = true;
        while (j->summed < j->count && j->ready[j->summed % j->slots]) {   /* next in line */
            size_t s = j->summed % j->slots, b = j->summed;
            size_t n = b + 1 < j->count ? BLOCK : j->npix - b * BLOCK;
            double sum = j->sum;
            for (size_t k = 0; k < n; k++)
                sum += j->ln[s * BLOCK + k];
            j->sum = sum;
            j->ready[s] = false;
            j->summed++;
        }
        pthread_cond_broadcast(&j->turn);
        pthread_mutex_unlock(&j->mu);
    }
}

/* The counts and the range of the scan into R (as the reference's scan_set and range). */
static void merge_scan(const analysis_job *j, int n, tonemap_result *r)
{
    int32_t mn = INT32_MAX, mx = 0;
    for (int i = 0; i < n; i++) {
        r->n_valid += j->parts[i].n_valid;
        r->n_nonfinite += j->parts[i].n_nonfinite;
        mn = j->parts[i].min_bits < mn ? j->parts[i].min_bits : mn;
        mx = j->parts[i].max_bits > mx ? j->parts[i].max_bits : mx;
    }
    r->n_nonpositive = r->n_total - r->n_valid - r->n_nonfinite;
    if (r->n_valid) {
        memcpy(&r->lw_min, &mn, sizeof mn);
        memcpy(&r->lw_max, &mx, sizeof mx);
    }
}

/* The reference's analysis with pixel sampling; false when out of memory (R untouched). */
static bool analyze_pixels(const hdr_image *img, const tonemap_params *p, tonemap_result *r,
                           int threads)
{
    int n = tonemap_fast_threads(threads);
    analysis_job j = {.img = img, .r = r, .scale = (float)p->scale};
    j.npix = (size_t)img->width * img->height;
    j.count = (j.npix + BLOCK - 1) / BLOCK;
    tonemap_float_weights(p, j.w);
    j.lw = malloc(j.npix * sizeof *j.lw);
    j.slots = (size_t)n * SLOTS_PER_WORKER;
    j.ln = malloc(j.slots * BLOCK * sizeof *j.ln);
    j.ready = calloc(j.slots, sizeof *j.ready);
    j.parts = calloc((size_t)n, sizeof *j.parts);
    pthread_mutex_init(&j.mu, NULL);
    pthread_cond_init(&j.turn, NULL);
    bool ok = j.lw && j.ln && j.ready && j.parts;
    if (ok) {
        for (int i = 0; i < n; i++)
            j.parts[i].min_bits = INT32_MAX;
        parallel_run(n, scan_worker, &j);
        memset(r, 0, sizeof *r);
        r->bins = (uint32_t)p->bins;
        r->pcond_rules = p->pcond;
        r->n_total = (uint32_t)j.npix;
        merge_scan(&j, n, r);
        if (r->n_valid == 0) {   /* as the reference: no range, no histogram */
            r->bw_min = 0.0f;
            r->bw_max = 1.0f;
            tonemap_cpu_curve(p, -1, r);
        } else {
            tonemap_cpu_range(p, r);
            j.next = 0;
            parallel_run(n, bin_worker, &j);
            for (int i = 0; i < n; i++) {
                r->n_counted += j.parts[i].counted;
                for (uint32_t b = 0; b < r->bins; b++)
                    r->hist[b] += j.parts[i].hist[b];
            }
            tonemap_cpu_finish(p, -1, j.sum, 0.0, r);
        }
    }
    pthread_mutex_destroy(&j.mu);
    pthread_cond_destroy(&j.turn);
    free(j.lw);
    free(j.ln);
    free(j.ready);
    free(j.parts);
    return ok;
}

/* --- Analysis with foveal sampling: the foveal image here, the rest (a few thousand
 * samples) by the reference. --- */

typedef struct foveal_job {
    const hdr_image *img;
    int fw, fh;
    double *sum;     /* per foveal pixel: R, G, B sums and the count */
    _Atomic size_t next;
} foveal_job;

/* One foveal row: its boxes add their pixels up in the reference's order (rows top down,
 * each left to right), which a row of boxes alone sees. */
static void foveal_worker(void *ctx, int worker)
{
    (void)worker;
    foveal_job *j = ctx;
    const hdr_image *img = j->img;
    size_t fr;
    while (tonemap_fast_take(&j->next, (size_t)j->fh, &fr)) {
        /* the image rows with floor(row fh / H) = fr */
        int row = (int)(((long long)fr * img->height + j->fh - 1) / j->fh);
        for (; row < img->height && (long long)row * j->fh / img->height == (long long)fr;
             row++)
            tonemap_foveal_add_row(img, row, j->fw, j->sum + 4 * fr * (size_t)j->fw);
    }
}

/* The reference's tonemap_cpu_foveal_image on THREADS threads. */
static bool foveal_image(const hdr_image *img, const tonemap_params *p, int threads,
                         float **rgb)
{
    foveal_job j = {.img = img};
    tonemap_foveal_grid(img->width, img->height, p->fov, &j.fw, &j.fh);
    size_t nf = (size_t)j.fw * j.fh;
    j.sum = calloc(nf * 4, sizeof *j.sum);
    *rgb = malloc(nf * 3 * sizeof **rgb);
    if (!j.sum || !*rgb) {
        free(j.sum);
        free(*rgb);
        return false;
    }
    parallel_run(tonemap_fast_threads(threads), foveal_worker, &j);
    tonemap_foveal_average(j.sum, nf, *rgb);
    free(j.sum);
    tonemap_foveal_pcond_round(p, *rgb, nf);
    return true;
}

void tonemap_fast_analyze(const hdr_image *img, const tonemap_params *p, tonemap_result *r,
                          int threads)
{
    if (human_requested(p)) {
        tonemap_cpu_analyze(img, p, r);
        return;
    }
    if (p->sampling == HT_SAMPLING_FOVEAL) {
        float *rgb;
        if (foveal_image(img, p, threads, &rgb)) {
            tonemap_stage_input in = {.fov_rgb = rgb, .range_fits = -1};
            tonemap_cpu_analyze_input(img, p, &in, r);
            free(rgb);
            return;
        }
    } else if (analyze_pixels(img, p, r, threads)) {
        return;
    }
    tonemap_cpu_analyze(img, p, r);   /* out of memory: the reference, which needs less */
}

/* --- Apply. --- */

/* The encoding tables, made once for each encoding a process uses (a few). */
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cached_table {
    int transfer;
    double gamma;
    tonemap_encode_table t;
} table_cache[TABLE_CACHE];
static int table_count;

/* P's encoding with LEVELS from the cache, or made into *OWN (the caller frees it) when the
 * cache is full; NULL when out of memory. */
static const tonemap_encode_table *encode_table(const tonemap_params *p, unsigned levels,
                                                int threads, tonemap_encode_table *own)
{
    const tonemap_encode_table *t = NULL;
    double gamma = p->transfer == HT_TRANSFER_GAMMA ? p->gamma : 0.0;
    pthread_mutex_lock(&table_lock);
    for (int i = 0; i < table_count && !t; i++) {
        struct cached_table *c = &table_cache[i];
        if (c->transfer == p->transfer && c->gamma == gamma && c->t.levels == levels)
            t = &c->t;
    }
    if (!t && table_count < TABLE_CACHE) {
        struct cached_table *c = &table_cache[table_count];
        if (tonemap_encode_table_init(&c->t, p, levels, threads)) {
            c->transfer = p->transfer;
            c->gamma = gamma;
            t = &c->t;
            table_count++;
        }
    } else if (!t && tonemap_encode_table_init(own, p, levels, threads)) {
        t = own;
    }
    pthread_mutex_unlock(&table_lock);
    return t;
}

typedef struct apply_job {
    const hdr_image *img;
    const tonemap_params *p;
    const tonemap_result *r;
    const tonemap_encode_table *table;   /* NULL: tonemap_encode_unit per value (PQ, HLG) */
    float scale, w[3];
    bool histogram;                  /* the factor follows the curve (else: constant) */
    bool colour;                     /* a colour conversion to the display (not identity) */
    bool hlg;                        /* HLG's inverse OOTF first (per pixel) */
    unsigned levels;                 /* 255 or 65535 */
    double ldmin, ln_ldmin, ln_drange;
    uint8_t *rgb8;
    uint16_t *rgb16;
    size_t npix, count;
    _Atomic size_t next;
} apply_job;

/* tonemap_pixel_factor of a pixel of valid LW, with the logarithms of the curve's constants
 * computed once. */
static double pixel_factor(const apply_job *j, float lw)
{
    if (!j->histogram)
        return tonemap_pixel_factor(j->r, j->p, lw);
    if (!(lw >= HT_LMIN))
        return 0.0;
    double ld = tonemap_curve_ld_log(j->r, j->ldmin, j->p->ldmax, j->ln_ldmin, j->ln_drange,
                                     log(lw));
    return (ld - j->ldmin) / ((j->p->ldmax - j->ldmin) * lw);
}

/* The reference's code of V (tonemap_cpu_apply's expression). */
static unsigned encode_code(const apply_job *j, double v)
{
    return (unsigned)(tonemap_encode_unit(j->p, v) * j->levels + 0.5);
}

/* A block in runs of RUN pixels: the factors of a run (the libm calls), then its codes (the
 * table look-ups), each loop free of the other's dependencies. */
static void apply_block(const apply_job *j, size_t first, size_t end)
{
    enum { RUN = 256 };
    float scale = j->scale, w0 = j->w[0], w1 = j->w[1], w2 = j->w[2];
    double dscale = scale, factor[RUN];
    float last_lw = NAN;   /* neighbours often share Lw: the factor of the last one */
    double last_factor = 0.0;
    for (size_t run = first; run < end; run += RUN) {
        size_t n = end - run < RUN ? end - run : RUN;
        const float *c = j->img->rgba + 4 * run;
        for (size_t k = 0; k < n; k++, c += 4) {
            float lw = scale * (w0 * c[0] + w1 * c[1] + w2 * c[2]);
            factor[k] = 0.0;
            if (lw - lw == 0.0f && lw > 0.0f) {   /* the reference's HT_PIX_VALID */
                if (lw != last_lw) {
                    last_factor = pixel_factor(j, lw);
                    last_lw = lw;
                }
                factor[k] = last_factor;
            }
        }
        c = j->img->rgba + 4 * run;
        for (size_t k = 0; k < n; k++, c += 4) {
            double out[3] = {dscale * c[0] * factor[k], dscale * c[1] * factor[k],
                             dscale * c[2] * factor[k]};
            if (j->colour)
                tonemap_to_display(j->p, out);
            if (j->hlg)
                tonemap_encode_prepare(j->p, out);
            for (int ch = 0; ch < 3; ch++) {
                unsigned code = j->table ? tonemap_encode_table_code(j->table, out[ch])
                                         : encode_code(j, out[ch]);
                if (j->rgb8)
                    j->rgb8[3 * (run + k) + ch] = (uint8_t)code;
                else
                    j->rgb16[3 * (run + k) + ch] = (uint16_t)code;
            }
        }
    }
}

static void apply_worker(void *ctx, int worker)
{
    (void)worker;
    apply_job *j = ctx;
    size_t item;
    while (tonemap_fast_take(&j->next, j->count, &item)) {
        size_t first = item * BLOCK;
        apply_block(j, first, first + BLOCK < j->npix ? first + BLOCK : j->npix);
    }
}

/* The apply into RGB8 or (RGB8 NULL) RGB16; false when out of memory. */
static bool apply_pixels(const hdr_image *img, const tonemap_params *p, const tonemap_result *r,
                         uint8_t *rgb8, uint16_t *rgb16, int threads)
{
    tonemap_encode_table own = {0};
    apply_job j = {.img = img, .p = p, .r = r, .scale = (float)p->scale, .rgb8 = rgb8,
                   .rgb16 = rgb16};
    j.levels = rgb8 ? 255 : 65535;
    j.hlg = p->transfer == HT_TRANSFER_HLG;
    /* PQ and HLG without a table: pow's last bits make them step back by a code here and
     * there, and the tables rely on an encoding that never does. */
    if (!j.hlg && p->transfer != HT_TRANSFER_PQ &&
        !(j.table = encode_table(p, j.levels, threads, &own)))
        return false;
    tonemap_float_weights(p, j.w);
    j.histogram = r->mapping == HT_MAP_HISTOGRAM || r->mapping == HT_MAP_EQUALIZE;
    j.colour = !colour_xform_is_identity(&p->colour);
    j.ldmin = p->ldmax / p->drange;
    j.ln_ldmin = log(j.ldmin);
    j.ln_drange = log(p->drange);
    j.npix = (size_t)img->width * img->height;
    j.count = (j.npix + BLOCK - 1) / BLOCK;
    parallel_run(tonemap_fast_threads(threads), apply_worker, &j);
    tonemap_encode_table_free(&own);
    return true;
}

void tonemap_fast_apply(const hdr_image *img, const tonemap_params *p, const tonemap_result *r,
                        uint8_t *rgb, int threads)
{
    if (human_requested(p) || !apply_pixels(img, p, r, rgb, NULL, threads))
        tonemap_cpu_apply(img, p, r, rgb);
}

void tonemap_fast_apply16(const hdr_image *img, const tonemap_params *p,
                          const tonemap_result *r, uint16_t *rgb, int threads)
{
    if (human_requested(p) || !apply_pixels(img, p, r, NULL, rgb, threads))
        tonemap_cpu_apply16(img, p, r, rgb);
}
