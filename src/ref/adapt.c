/* Temporal adaptation: the state, its update, the curve it makes, and analysis files. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "adapt.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "png_export.h"

/* The eye's time course (docs/sequences.md; pfstools' tmo_pattanaik00.cpp,
 * VisualAdaptationModel, after Pattanaik et al. 2000): the neural adaptation of cones and
 * rods, and the recovery of their bleached photopigment with the luminance at which half of
 * it is bleached. */
#define T0_CONE 0.080       /* s */
#define T0_ROD 0.150        /* s */
#define TAU_CONE 110.0      /* s */
#define TAU_ROD 400.0       /* s */
#define HALF_CONE 2e6       /* cd/m^2 */
#define HALF_ROD 0.04       /* cd/m^2 */
/* The mesopic range (CIE 191:2010), cd/m^2: rods alone below, cones alone above. */
#define MESOPIC_LOW 0.005
#define MESOPIC_HIGH 5.0
/* A state this close to the frame's analysis (range and log-average in ln units, weights
 * as fractions) is the frame's: far below what one output step can show. */
#define SNAP 1e-7

#define MAGIC "hdrtone-analysis 1"

bool adapt_parse(const char *s, adapt_params *a, char *err, size_t errlen)
{
    if (strcmp(s, "none") == 0 || strcmp(s, "human") == 0) {
        a->mode = s[0] == 'n' ? HT_ADAPT_NONE : HT_ADAPT_HUMAN;
        return true;
    }
    char *end;
    errno = 0;
    double t = strncmp(s, "exp:", 4) == 0 ? strtod(s + 4, &end) : 0;
    if (t > 0 && isfinite(t) && !errno && end != s + 4 && *end == '\0') {
        a->mode = HT_ADAPT_EXP;
        a->seconds = t;
        return true;
    }
    snprintf(err, errlen, "--adapt: '%s' is not none, exp:SECONDS (> 0) or human", s);
    return false;
}

static double weights_total(const double *f, int n)
{
    double t = 0;
    for (int i = 0; i < n; i++)
        t += f[i];
    return t;
}

void adapt_frame_of(const tonemap_result *r, int frame, adapt_frame *f)
{
    memset(f, 0, sizeof *f);
    f->frame = frame;
    f->bins = (int)r->bins;
    tonemap_cpu_weights(r, f->f);
    f->valid = r->n_valid > 0 && r->mapping != HT_MAP_NONE && weights_total(f->f, f->bins) > 0;
    f->bw_min = r->bw_min;
    f->bw_max = r->bw_max;
    f->ln_avg = r->ln_avg;
}

void adapt_frame_invalid(int frame, int bins, adapt_frame *f)
{
    memset(f, 0, sizeof *f);
    f->frame = frame;
    f->bins = bins;
}

void adapt_init(adapt_state *s)
{
    memset(s, 0, sizeof *s);
}

/* The share of rods in vision at LA cd/m^2: 1 below the mesopic range, 0 above, linear in
 * log luminance across it. */
static double rod_share(double la)
{
    double x = log(MESOPIC_HIGH / la) / log(MESOPIC_HIGH / MESOPIC_LOW);
    return x < 0 ? 0 : x > 1 ? 1 : x;
}

/* The eye's time constant, seconds, from an adaptation luminance of FROM to TO cd/m^2:
 * light adaptation is neural, as fast as the receptors that see TO adapt; dark adaptation
 * also waits for the pigment bleached at FROM to recover. */
static double human_tau(double from, double to)
{
    double w = rod_share(to), neural = (1 - w) * T0_CONE + w * T0_ROD;
    if (to >= from)
        return neural;
    return neural + (1 - w) * TAU_CONE * from / (from + HALF_CONE) +
           w * TAU_ROD * from / (from + HALF_ROD);
}

double adapt_rate(const adapt_params *a, const adapt_state *s, const adapt_frame *f, double dt)
{
    if (a->mode == HT_ADAPT_NONE || !s->valid)
        return 1.0;
    double tau = a->mode == HT_ADAPT_EXP ? a->seconds : human_tau(exp(s->ln_avg), exp(f->ln_avg));
    return dt > 0 ? 1.0 - exp(-dt / tau) : 0.0;
}

/* Weights W (N bins over [A0, A1], a density in log luminance) onto N bins over [B0, B1]
 * into OUT: each bin's weight spread in proportion to its overlap with the new bins, the
 * part outside [B0, B1] into the end bins. */
static void resample(const double *w, int n, double a0, double a1, double b0, double b1,
                     double *out)
{
    memset(out, 0, sizeof(double) * n);
    double da = (a1 - a0) / n, db = (b1 - b0) / n;
    for (int j = 0; j < n; j++) {
        if (w[j] == 0)
            continue;
        double x0 = a0 + j * da, x1 = x0 + da;
        if (x0 < b0)
            out[0] += w[j] * (fmin(x1, b0) - x0) / da;
        if (x1 > b1)
            out[n - 1] += w[j] * (x1 - fmax(x0, b1)) / da;
        double lo = fmax(x0, b0), hi = fmin(x1, b1);
        if (!(hi > lo))
            continue;
        int k0 = (int)floor((lo - b0) / db), k1 = (int)floor((hi - b0) / db);
        k0 = k0 < 0 ? 0 : k0;
        k1 = k1 > n - 1 ? n - 1 : k1;
        for (int k = k0; k <= k1; k++) {
            double ov = fmin(hi, b0 + (k + 1) * db) - fmax(lo, b0 + k * db);
            if (ov > 0)
                out[k] += w[j] * ov / da;
        }
    }
}

/* The state becomes F's analysis exactly. */
static void set_exact(adapt_state *s, const adapt_frame *f, const double *fw)
{
    s->exact = true;
    s->bw_min = f->bw_min;
    s->bw_max = f->bw_max;
    s->ln_avg = f->ln_avg;
    memcpy(s->w, fw, sizeof(double) * f->bins);
}

/* Whether the state is within SNAP of F (normalised weights FW). */
static bool near(const adapt_state *s, const adapt_frame *f, const double *fw)
{
    if (fabs(s->bw_min - f->bw_min) > SNAP || fabs(s->bw_max - f->bw_max) > SNAP ||
        fabs(s->ln_avg - f->ln_avg) > SNAP)
        return false;
    for (int i = 0; i < f->bins; i++)
        if (fabs(s->w[i] - fw[i]) > SNAP)
            return false;
    return true;
}

void adapt_update(const adapt_params *a, adapt_state *s, const adapt_frame *f)
{
    if (!f->valid)
        return;
    int n = f->bins;
    double fw[HT_MAX_BINS], total = weights_total(f->f, n);
    for (int i = 0; i < n; i++)
        fw[i] = f->f[i] / total;
    bool cut = s->valid && a->cut_stops > 0 &&
               fabs(f->ln_avg - s->ln_avg) / log(2.0) > a->cut_stops;
    double k = !s->valid || cut || s->bins != n
                   ? 1.0 : adapt_rate(a, s, f, (f->frame - s->last_frame) / a->fps);
    s->valid = true;
    s->bins = n;
    s->last_frame = f->frame;
    s->rate = k;
    if (k >= 1.0) {
        set_exact(s, f, fw);
        return;
    }
    double b0 = s->bw_min + k * (f->bw_min - s->bw_min);
    double b1 = s->bw_max + k * (f->bw_max - s->bw_max);
    double ws[HT_MAX_BINS], ff[HT_MAX_BINS];
    if (b0 == s->bw_min && b1 == s->bw_max)
        memcpy(ws, s->w, sizeof(double) * n);
    else
        resample(s->w, n, s->bw_min, s->bw_max, b0, b1, ws);
    if (b0 == f->bw_min && b1 == f->bw_max)
        memcpy(ff, fw, sizeof(double) * n);
    else
        resample(fw, n, f->bw_min, f->bw_max, b0, b1, ff);
    for (int i = 0; i < n; i++)
        ws[i] += k * (ff[i] - ws[i]);
    double t = weights_total(ws, n);
    for (int i = 0; i < n; i++)
        s->w[i] = ws[i] / t;
    s->bw_min = b0;
    s->bw_max = b1;
    s->ln_avg += k * (f->ln_avg - s->ln_avg);
    s->exact = false;
    if (near(s, f, fw))
        set_exact(s, f, fw);
}

void adapt_result(const adapt_state *s, const tonemap_params *p, tonemap_result *r)
{
    if (!s->valid || s->exact || s->bins != (int)r->bins || r->n_valid == 0)
        return;
    int n = s->bins;
    double w[HT_MAX_BINS];
    double samples = r->n_counted + (r->n_points ? (double)r->pt_weight * r->pt_counted : 0.0);
    if (!(samples > 0))
        samples = 1;
    for (int i = 0; i < n; i++) {
        w[i] = s->w[i] * samples;
        r->hist[i] = (uint32_t)llround(w[i]);
    }
    r->bw_min = (float)s->bw_min;
    r->bw_max = (float)s->bw_max;
    r->ln_avg = (float)s->ln_avg;
    tonemap_cpu_curve_weights(p, w, r);
}

uint64_t adapt_fingerprint(const tonemap_params *p)
{
    uint64_t h = 1469598103934665603ull;   /* FNV-1a */
#define HASH_FIELD_(type, name)                                                         \
    for (size_t i = 0; i < sizeof p->name; i++)                                        \
        h = (h ^ ((const unsigned char *)&p->name)[i]) * 1099511628211ull;
    TONEMAP_PARAMS_FIELDS(HASH_FIELD_)
#undef HASH_FIELD_
    return h;
}

bool adapt_frame_path(const char *dir, int frame, char *out, size_t len)
{
    int w = snprintf(out, len, "%s/analysis.%09d.txt", dir, frame);
    return w >= 0 && (size_t)w < len;
}

bool adapt_frame_write(const char *path, const adapt_frame *f, uint64_t fingerprint, char *err,
                       size_t errlen)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    if (!m) {
        snprintf(err, errlen, "%s: out of memory", path);
        return false;
    }
    /* %a: every double exactly, so a replay is bit for bit the analysis. */
    fprintf(m, MAGIC "\nfingerprint %016llx\nframe %d\nvalid %d\nbins %d\n",
            (unsigned long long)fingerprint, f->frame, f->valid, f->bins);
    fprintf(m, "bw_min %a\nbw_max %a\nln_avg %a\n", f->bw_min, f->bw_max, f->ln_avg);
    for (int i = 0; i < f->bins; i++)
        if (f->f[i] != 0)
            fprintf(m, "f %d %a\n", i, f->f[i]);
    bool ok = fclose(m) == 0 && buf && file_write_atomic(path, buf, len, err, errlen);
    if (!ok && buf == NULL)
        snprintf(err, errlen, "%s: out of memory", path);
    free(buf);
    return ok;
}

/* One "key value" line of an analysis file into F; false when it is not one. */
static bool read_line(const char *line, adapt_frame *f, unsigned long long *fp)
{
    int i, v;
    double d;
    if (sscanf(line, "f %d %la", &i, &d) == 2)
        return i >= 0 && i < f->bins && isfinite(d) && (f->f[i] = d, true);
    if (sscanf(line, "fingerprint %llx", fp) == 1)
        return true;
    if (sscanf(line, "frame %d", &v) == 1)
        return (f->frame = v), true;
    if (sscanf(line, "valid %d", &v) == 1)
        return (f->valid = v != 0), true;
    if (sscanf(line, "bins %d", &v) == 1)
        return v >= HT_MIN_BINS && v <= HT_MAX_BINS && (f->bins = v, true);
    if (sscanf(line, "bw_min %la", &d) == 1)
        return (f->bw_min = d), true;
    if (sscanf(line, "bw_max %la", &d) == 1)
        return (f->bw_max = d), true;
    if (sscanf(line, "ln_avg %la", &d) == 1)
        return (f->ln_avg = d), true;
    return false;
}

bool adapt_frame_read(const char *path, adapt_frame *f, uint64_t fingerprint, char *err,
                      size_t errlen)
{
    FILE *in = fopen(path, "r");
    if (!in) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return false;
    }
    memset(f, 0, sizeof *f);
    char line[256];
    unsigned long long fp = 0;
    bool ok = fgets(line, sizeof line, in) && strcmp(line, MAGIC "\n") == 0;
    while (ok && fgets(line, sizeof line, in))
        ok = read_line(line, f, &fp);
    fclose(in);
    if (!ok || !f->bins) {
        snprintf(err, errlen, "%s: not an hdrtone analysis file", path);
        return false;
    }
    if (fp != fingerprint) {
        snprintf(err, errlen, "%s: made with other tone-mapping options", path);
        return false;
    }
    return true;
}
