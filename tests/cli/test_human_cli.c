/* The human-vision options on the command line (--veil, --acuity, --color-loss, --human)
 * against Radiance pcond's own runs -v, -a, -c, -h and -v -s (pcond-reference/README_human.md),
 * through the hdrtone program ($HT_BIN), for every folder of $HT_SHARED/pcond-reference with
 * params_human.tsv, from input_decoded.exr with --preset pcond:
 *  - `stats --curve-format pcond` prints pcond's -x file: the same Lw grid (1e-5 relative) and
 *    Ld within 0.005 log10 (on the GPU backend where it runs, which then says nothing);
 *  - `stats --json`'s "human" object says what pcond's params_human.tsv says (veil, acuity,
 *    colour: applied, skipped and why), and its mapping is pcond's;
 *  - the GPU backend against the CPU's (where it runs): `export --backend gpu`'s PNG within
 *    one step of the CPU's for all but 0.1 % of the channels, `stats --backend gpu --json`'s
 *    "human" object the CPU's: the same words, numbers within 1e-5 relative (the GPU's
 *    analysis is in float), also for each frame of a sequence's stats; an image in pieces
 *    (HT_MAX_PIECE) falls back to the CPU reference, with a note naming the file, and gives
 *    the CPU's output (export, stats, a sequence's stats);
 *  - `export -o X.hdr` stores what pcond stored (out_<run>.exr, where present): within 1 %
 *    plus one RGBE step for 99 % of the pixels and 3 % plus a step for all (as
 *    test_pcond_human), EXPOSURE as pcond's header; `-o X.pfm` holds the floats whose RGBE
 *    are the .hdr's, exactly;
 * and: venice_sunset_1k, the folder whose input was a Radiance picture, from that .hdr itself
 * with --scale 179: decoded as Radiance does (--preset pcond) its curves are pcond's, decoded
 * m 2^(e-136) they miss (printed); the options run on hdrtone's own defaults (pixel sampling);
 * bad combinations are usage errors (exit 2) that name the problem. */
#define _POSIX_C_SOURCE 200809L /* popen, mkdtemp */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <stb_image.h>

#include "encode.h"
#include "human.h"
#include "pcond_ref.h"
#include "testutil.h"

#define CURVE_TOL 0.005
#define GRID_TOL 1e-5
#define PIXEL_TOL 0.01      /* for 99 % of the pixels, beyond one RGBE step */
#define PIXEL_TOL_ALL 0.03  /* for every pixel */
#define HALF_STEP 6e-8      /* the out_*.exr are half: the subnormal step */
#define OFF1_MAX 0.001        /* GPU vs CPU PNG: channels more than one step apart */
#define HUMAN_NUM_TOL 1e-5    /* GPU vs CPU "human" numbers, relative */
#define PIECE "256"           /* HT_MAX_PIECE for the image in pieces */
#define PIECES_NOTE "larger than a texture (in "

static const char *bin;
static char tmp[64];
static double worst_curve[HUMAN_RUN_COUNT], worst_gpu_curve[HUMAN_RUN_COUNT],
    worst_pic[HUMAN_RUN_COUNT], p99_pic[HUMAN_RUN_COUNT];
static bool gpu;   /* the GPU backend runs here */
/* GPU vs CPU, per run over the folders: channels compared, more than one step apart, the
 * largest difference; the largest relative difference of a "human" number. */
static size_t png_channels[HUMAN_RUN_COUNT], png_off1[HUMAN_RUN_COUNT];
static int png_worst[HUMAN_RUN_COUNT];
static double human_worst[HUMAN_RUN_COUNT];

/* Runs CMD with stdout into OUT (malloc'd, NULL: dropped) and stderr into tmp/stderr;
 * returns the exit status (-1 when it did not run). */
static int run(const char *cmd, char **out)
{
    char full[16500];
    snprintf(full, sizeof full, "%s 2>'%s/stderr'", cmd, tmp);
    FILE *p = popen(full, "r");
    if (!p)
        return -1;
    size_t cap = 1 << 16, n = 0;
    char *buf = malloc(cap);
    for (size_t got; buf && (got = fread(buf + n, 1, cap - n - 1, p)) > 0;) {
        n += got;
        if (n + 1 == cap && !(buf = realloc(buf, cap *= 2)))
            break;
    }
    if (buf)
        buf[n] = '\0';
    int st = pclose(p);
    if (out)
        *out = buf;
    else
        free(buf);
    return st == -1 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The last command's stderr (static). */
static const char *last_stderr(void)
{
    static char buf[4096];
    char path[128];
    snprintf(path, sizeof path, "%s/stderr", tmp);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    buf[n] = '\0';
    if (f)
        fclose(f);
    return buf;
}

/* How often NEEDLE occurs in S. */
static int count_of(const char *s, const char *needle)
{
    int n = 0;
    for (const char *p = s; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* The string value of "KEY": "..." after FROM in JSON (static; "" when absent). */
static const char *json_string(const char *from, const char *key)
{
    static char buf[128];
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": \"", key);
    const char *p = from ? strstr(from, pat) : NULL;
    buf[0] = '\0';
    if (p) {
        p += strlen(pat);
        size_t n = strcspn(p, "\"");
        snprintf(buf, sizeof buf, "%.*s", (int)(n < sizeof buf ? n : sizeof buf - 1), p);
    }
    return buf;
}

/* Our curve (stats --curve-format pcond's OUT) against pcond's -x file PATH: the largest
 * |log10 Ld| difference; -1 when the grids differ or a file is short. */
static double curve_miss(const char *out, const char *path)
{
    tsv t;
    if (!out || !tsv_read(path, 1, &t))
        return -1;
    double worst = 0;
    int n = 0;
    const char *p = out;
    for (int i = 0; i < t.nrows; i++) {
        if (t.ncols[i] < 2)
            continue;
        double lw, ld;
        int used;
        if (sscanf(p, "%lf %lf\n%n", &lw, &ld, &used) != 2) {
            worst = -1;
            break;
        }
        p += used;
        double rlw = atof(t.cells[i][0]), rld = atof(t.cells[i][1]);
        if (fabs(lw - rlw) > GRID_TOL * rlw) {
            worst = -1;
            break;
        }
        worst = fmax(worst, fabs(log10(ld) - log10(rld)));
        n++;
    }
    tsv_free(&t);
    return n == 100 ? worst : -1;
}

/* The curve of BACKEND ("cpu", "gpu") against pcond's. */
static void check_curve(const char *dir, const char *name, size_t mi, const char *backend)
{
    char cmd[16384], file[64], *out = NULL;
    bool on_gpu = strcmp(backend, "gpu") == 0;
    snprintf(cmd, sizeof cmd, "'%s' stats --backend %s --preset pcond %s --curve-format pcond "
             "'%s'", bin, backend, HUMAN_MODES[mi].cli, ref_path(dir, name, "input_decoded.exr"));
    CHECK(run(cmd, &out) == 0, "%s failed: %s", cmd, last_stderr());
    CHECK(!last_stderr()[0], "%s: stderr '%s'", cmd, last_stderr());
    snprintf(file, sizeof file, "curve_%s.txt", HUMAN_MODES[mi].column);
    double miss = curve_miss(out, ref_path(dir, name, file));
    CHECK(miss >= 0 && miss <= CURVE_TOL, "%s -%s: the %s's curve misses pcond's by %.4f "
          "log10 (-1: another grid)", name, HUMAN_MODES[mi].column, backend, miss);
    (on_gpu ? worst_gpu_curve : worst_curve)[mi] =
        fmax((on_gpu ? worst_gpu_curve : worst_curve)[mi], miss);
    free(out);
}

/* The "human" object of stats --json's output OUT (NULL: none). */
static const char *human_object(const char *out)
{
    return out ? strstr(out, "\"human\": {") : NULL;
}

/* Whether the JSON texts A and B are the same up to their first '}' but for numbers, which
 * may differ by HUMAN_NUM_TOL relative; *worst gets the largest relative difference. */
static bool same_but_rounding(const char *a, const char *b, double *worst)
{
    *worst = 0;
    while (a && b) {
        bool num = isdigit((unsigned char)*a) || (*a == '-' && isdigit((unsigned char)a[1]));
        if (num) {
            char *ea, *eb;
            double x = strtod(a, &ea), y = strtod(b, &eb);
            double m = fmax(fabs(x), fabs(y)), rel = m > 0 ? fabs(x - y) / m : 0;
            if (eb == b || rel > HUMAN_NUM_TOL)
                return false;
            *worst = fmax(*worst, rel);
            a = ea;
            b = eb;
        } else if (*a != *b) {
            return false;
        } else if (*a == '}' || !*a) {
            return true;
        } else {
            a++;
            b++;
        }
    }
    return false;
}

/* stats --backend BACKEND --json's "human" object and mapping against params_human.tsv; its
 * output (malloc'd, NULL when it did not run). */
static char *check_decisions(const char *dir, const char *name, size_t mi, const tsv *params,
                             const char *backend)
{
    char cmd[16384], *out = NULL;
    const char *col = HUMAN_MODES[mi].column;
    snprintf(cmd, sizeof cmd, "'%s' stats --backend %s --preset pcond %s --json '%s'", bin,
             backend, HUMAN_MODES[mi].cli, ref_path(dir, name, "input_decoded.exr"));
    CHECK(run(cmd, &out) == 0, "%s failed: %s", cmd, last_stderr());
    const char *human = human_object(out);
    CHECK(human != NULL, "%s -%s: no \"human\" object (%s)", name, col, backend);
    static const char *const rows[3] = {"veil", "acuity", "colour"};
    for (int k = 0; human && k < 3; k++) {
        const char *want = param_value(params, rows[k], col);
        const char *got = json_string(human, rows[k]);
        CHECK(want && strcmp(got, want) == 0, "%s -%s: %s '%s', pcond '%s'", name, col,
              rows[k], got, want ? want : "?");
    }
    const char *mapping = param_value(params, "mapping", col);
    CHECK(mapping && strcmp(json_string(out, "mapping_pcond"), mapping) == 0,
          "%s -%s: mapping '%s', pcond '%s' (%s)", name, col, json_string(out, "mapping_pcond"),
          mapping ? mapping : "?", backend);
    return out;
}

/* The GPU's decisions (check_decisions) and its "human" object against the CPU's. */
static void check_gpu_decisions(const char *dir, const char *name, size_t mi, const tsv *params)
{
    char *cpu = check_decisions(dir, name, mi, params, "cpu");
    char *out = gpu ? check_decisions(dir, name, mi, params, "gpu") : NULL;
    double worst = 0;
    if (gpu) {
        CHECK(same_but_rounding(human_object(out), human_object(cpu), &worst),
              "%s -%s: the GPU's \"human\" object is not the CPU's:\n  gpu %.400s\n  cpu %.400s",
              name, HUMAN_MODES[mi].column, human_object(out), human_object(cpu));
        human_worst[mi] = fmax(human_worst[mi], worst);
    }
    free(out);
    free(cpu);
}

/* The RGB of the PNGs A and B: *total channels, *off1 of them more than one step apart,
 * *worst the largest difference. False when one cannot be read or the sizes differ. */
static bool png_compare(const char *a, const char *b, size_t *total, size_t *off1, int *worst)
{
    int w[2], h[2], n;
    unsigned char *pa = stbi_load(a, &w[0], &h[0], &n, 3), *pb = stbi_load(b, &w[1], &h[1], &n, 3);
    bool ok = pa && pb && w[0] == w[1] && h[0] == h[1];
    *total = ok ? (size_t)w[0] * h[0] * 3 : 0;
    *off1 = 0;
    *worst = 0;
    for (size_t k = 0; k < *total; k++) {
        int d = abs(pa[k] - pb[k]);
        *off1 += d > 1;
        *worst = d > *worst ? d : *worst;
    }
    stbi_image_free(pa);
    stbi_image_free(pb);
    return ok;
}

/* export --backend gpu's PNG against --backend cpu's. */
static void check_gpu_png(const char *dir, const char *name, size_t mi)
{
    static const char *const backends[2] = {"cpu", "gpu"};
    char cmd[16384], in[4096], png[2][256];
    const char *col = HUMAN_MODES[mi].column;
    snprintf(in, sizeof in, "%s", ref_path(dir, name, "input_decoded.exr"));
    for (int b = 0; b < 2; b++) {
        snprintf(png[b], sizeof png[b], "%s/%s.png", tmp, backends[b]);
        snprintf(cmd, sizeof cmd, "'%s' export --backend %s --preset pcond %s '%s' -o '%s'", bin,
                 backends[b], HUMAN_MODES[mi].cli, in, png[b]);
        CHECK(run(cmd, NULL) == 0, "%s failed: %s", cmd, last_stderr());
        CHECK(!last_stderr()[0], "%s: stderr '%s'", cmd, last_stderr());
    }
    size_t total, off1;
    int worst;
    CHECK(png_compare(png[1], png[0], &total, &off1, &worst),
          "%s -%s: the PNGs cannot be read or differ in size", name, col);
    CHECK(off1 <= OFF1_MAX * (double)total,
          "%s -%s: %zu of %zu channels of the GPU's PNG more than one step from the CPU's, "
          "largest difference %d", name, col, off1, total, worst);
    printf("  %s -%s GPU vs CPU PNG: %zu of %zu channels more than one step apart, largest "
           "difference %d\n", name, col, off1, total, worst);
    png_channels[mi] += total;
    png_off1[mi] += off1;
    png_worst[mi] = worst > png_worst[mi] ? worst : png_worst[mi];
    remove(png[0]);
    remove(png[1]);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The EXPOSURE line of the Radiance picture PATH (0: none). */
static double exposure_line(const char *path)
{
    FILE *f = fopen(path, "rb");
    char line[256];
    double e = 0;
    while (f && fgets(line, sizeof line, f) && line[0] != '\n')
        if (strncmp(line, "EXPOSURE=", 9) == 0)
            e = atof(line + 9);
    if (f)
        fclose(f);
    return e;
}

/* .hdr and .pfm of the picture against pcond's out_<run>.exr. */
static void check_picture(const char *dir, const char *name, size_t mi, const tsv *params)
{
    char file[64], cmd[16384], hdr[256], pfm[256], err[HT_ERR_MAX];
    const char *col = HUMAN_MODES[mi].column;
    snprintf(file, sizeof file, "out_%s.exr", col);
    hdr_image ref = {0}, ours = {0}, fl = {0};
    if (!image_load(ref_path(dir, name, file), NULL, &ref, err, sizeof err))
        return;   /* only the three smallest pictures have one */
    snprintf(hdr, sizeof hdr, "%s/%.63s_%s.hdr", tmp, name, col);
    snprintf(pfm, sizeof pfm, "%s/%.63s_%s.pfm", tmp, name, col);
    const char *in = ref_path(dir, name, "input_decoded.exr");
    snprintf(cmd, sizeof cmd, "'%s' export --preset pcond %s '%s' -o '%s'", bin,
             HUMAN_MODES[mi].cli, in, hdr);
    CHECK(run(cmd, NULL) == 0, "%s failed: %s", cmd, last_stderr());
    snprintf(cmd, sizeof cmd, "'%s' export --preset pcond %s '%s' -o '%s'", bin,
             HUMAN_MODES[mi].cli, in, pfm);
    CHECK(run(cmd, NULL) == 0, "%s failed: %s", cmd, last_stderr());
    image_load_options radiance = {.rgbe_mid = true};
    bool ok = image_load(hdr, &radiance, &ours, err, sizeof err) &&
              image_load(pfm, NULL, &fl, err, sizeof err);
    CHECK(ok, "%s", err);
    ok = ok && ours.width == ref.width && ours.height == ref.height && fl.width == ref.width &&
         fl.height == ref.height;
    CHECK(ok, "%s -%s: sizes differ", name, col);
    /* pcond's header: EXPOSURE in linear mode (params_human.tsv's output_EXPOSURE) */
    const char *want_e = param_value(params, "output_EXPOSURE", col);
    double e = exposure_line(hdr), we = want_e && strcmp(want_e, "NA") ? atof(want_e) : 0;
    CHECK(e == we, "%s -%s: EXPOSURE=%g, pcond's %g", name, col, e, we);
    size_t n = ok ? (size_t)ref.width * ref.height : 0, over = 0, pfm_off = 0;
    double *errs = malloc((n ? n : 1) * sizeof *errs);
    for (size_t k = 0; errs && k < n; k++) {
        double stored[3], want[3], raw;
        uint8_t rgbe[4];
        const float *f = fl.rgba + 4 * k;
        encode_rgbe(f[0], f[1], f[2], rgbe);
        for (int c = 0; c < 3; c++) {
            /* what the file stores: the loader divided the EXPOSURE out */
            stored[c] = (float)(ours.rgba[4 * k + c] * ours.exposure);
            want[c] = ref.rgba[4 * k + c];
            /* the .pfm's value stored as RGBE, read back as Radiance does */
            float back = rgbe[3] ? ldexpf(rgbe[c] + 0.5f, rgbe[3] - 136) : 0.0f;
            pfm_off += fabs(back - stored[c]) > 1e-6 * stored[c];
        }
        errs[k] = pcond_pixel_error(stored, want, HALF_STEP, &raw);
        over += errs[k] > PIXEL_TOL;
    }
    if (errs && n) {
        qsort(errs, n, sizeof *errs, cmp_double);
        worst_pic[mi] = fmax(worst_pic[mi], errs[n - 1]);
        p99_pic[mi] = fmax(p99_pic[mi], errs[(size_t)(0.99 * (double)(n - 1))]);
        CHECK(over <= n / 100 && errs[n - 1] <= PIXEL_TOL_ALL,
              "%s -%s: %zu of %zu pixels beyond 1 %% + a step, worst %.3g", name, col, over, n,
              errs[n - 1]);
        printf("  %s -%s .hdr vs %s: worst %.2e beyond a step, %zu > 1 %%\n", name, col, file,
               errs[n - 1], over);
    }
    CHECK(pfm_off == 0, "%s -%s: %zu channels of the .pfm are not the .hdr's as RGBE", name,
          col, pfm_off);
    free(errs);
    image_free(&ref);
    image_free(&ours);
    image_free(&fl);
    remove(hdr);
    remove(pfm);
}

static void check_folder(const char *dir, const char *name)
{
    tsv params;
    if (!tsv_read(ref_path(dir, name, "params_human.tsv"), 0, &params))
        return;
    printf("%s\n", name);
    for (size_t mi = 0; mi < HUMAN_RUN_COUNT; mi++) {
        check_curve(dir, name, mi, "cpu");
        check_gpu_decisions(dir, name, mi, &params);
        check_picture(dir, name, mi, &params);
        if (gpu) {
            check_curve(dir, name, mi, "gpu");
            check_gpu_png(dir, name, mi);
        }
    }
    tsv_free(&params);
}

/* venice_sunset_1k from its Radiance picture: the eight runs' curves, decoded both ways. */
static void check_radiance_input(const char *dir)
{
    static const struct { const char *curve, *options; } runs[] = {
        {"default", ""},  {"s", "--ceiling human"}, {"l", "--linear"},
        {"h", "--human"}, {"v", "--veil"},          {"a", "--acuity"},
        {"c", "--color-loss"}, {"vs", "--veil --ceiling human"},
    };
    const char *hdr = test_shared_path("exr-samples/venice_sunset_1k.hdr");
    char cmd[16384], file[64];
    hdr_image old_img, img;
    char err[HT_ERR_MAX];
    image_load_options radiance = {.rgbe_mid = true};
    if (!image_load(hdr, NULL, &old_img, err, sizeof err) ||
        !image_load(hdr, &radiance, &img, err, sizeof err)) {
        CHECK(0, "%s", err);
        return;
    }
    printf("venice_sunset_1k.hdr --scale 179, max |dlog10 Ld| vs pcond: m 2^(e-136) / (m+0.5) "
           "2^(e-136) in-process / the CLI\n");
    tonemap_result *r = malloc(sizeof *r);
    for (size_t i = 0; r && i < sizeof runs / sizeof runs[0]; i++) {
        char *out = NULL;
        /* --backend cpu: the GPU's foveal pass rounds to RGBE in cd/m^2 whatever --scale */
        snprintf(cmd, sizeof cmd, "'%s' stats --backend cpu --preset pcond --scale 179 %s "
                 "--curve-format pcond '%s'", bin, runs[i].options, hdr);
        CHECK(run(cmd, &out) == 0, "%s failed: %s", cmd, last_stderr());
        snprintf(file, sizeof file, "curve_%s.txt", runs[i].curve);
        const char *ref = ref_path(dir, "venice_sunset_1k", file);
        double cli = curve_miss(out, ref), miss[2];
        free(out);
        tonemap_params p;
        tonemap_params_default(&p);
        tonemap_apply_preset(&p, HT_PRESET_PCOND);
        p.scale = 179;
        p.ceiling = strstr(runs[i].options, "human") ? HT_CEILING_HUMAN : HT_CEILING_LINEAR;
        p.force_linear = strstr(runs[i].options, "linear") != NULL;
        p.veil = strstr(runs[i].options, "veil") || strstr(runs[i].options, "--human");
        p.acuity = strstr(runs[i].options, "acuity") || strstr(runs[i].options, "--human");
        p.color_loss = strstr(runs[i].options, "color") || strstr(runs[i].options, "--human");
        for (int k = 0; k < 2; k++) {
            int npts;
            double at;
            tonemap_cpu_analyze(k ? &img : &old_img, &p, r);
            miss[k] = curve_deviation(ref, r, &p, tonemap_curve_ld_pcond, &npts, &at);
        }
        printf("  %-8s %.4f / %.4f / %.4f\n", runs[i].curve, miss[0], miss[1], cli);
        CHECK(cli >= 0 && cli <= 0.001 && miss[1] <= 0.001,
              "venice .hdr %s: misses pcond's curve by %.4f (CLI), %.4f", runs[i].curve, cli,
              miss[1]);
    }
    free(r);
    image_free(&old_img);
    image_free(&img);
}

/* Whether the GPU backend runs here: false (said) when there is no GPU. */
static bool gpu_runs(const char *in)
{
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "'%s' stats --backend gpu '%s'", bin, in);
    int st = run(cmd, NULL);
    if (st != 0 && strstr(last_stderr(), "no GPU")) {
        printf("the GPU backend does not run here: its checks are skipped\n");
        return false;
    }
    CHECK(st == 0, "%s failed: %s", cmd, last_stderr());
    return st == 0;
}

/* Desk in pieces of PIECE pixels: export and stats with --human fall back to the CPU
 * reference, saying so once with the file's name, and give the CPU backend's PNG and
 * "human" object. */
static void check_pieces(void)
{
    char in[4096], cmd[16384], png[2][256], note[4200], *out[2] = {NULL, NULL};
    snprintf(in, sizeof in, "%s", test_shared_path("pcond-reference/Desk/input_decoded.exr"));
    snprintf(note, sizeof note, "%s: " PIECES_NOTE, in);
    for (int b = 0; b < 2; b++) {   /* 0: the CPU backend; 1: the GPU's, in pieces */
        const char *env = b ? "HT_MAX_PIECE=" PIECE " " : "";
        snprintf(png[b], sizeof png[b], "%s/pieces%d.png", tmp, b);
        snprintf(cmd, sizeof cmd, "%s'%s' export --backend %s --preset pcond --human '%s' -o "
                 "'%s'", env, bin, b ? "gpu" : "cpu", in, png[b]);
        CHECK(run(cmd, NULL) == 0, "%s failed: %s", cmd, last_stderr());
        CHECK(count_of(last_stderr(), note) == b, "%s: stderr '%s'", cmd, last_stderr());
        snprintf(cmd, sizeof cmd, "%s'%s' stats --backend %s --preset pcond --human --json '%s'",
                 env, bin, b ? "gpu" : "cpu", in);
        CHECK(run(cmd, &out[b]) == 0, "%s failed: %s", cmd, last_stderr());
        CHECK(count_of(last_stderr(), note) == b, "%s: stderr '%s'", cmd, last_stderr());
    }
    size_t total, off1;
    int worst;
    CHECK(png_compare(png[1], png[0], &total, &off1, &worst) && worst == 0,
          "in pieces: the PNG is not the CPU backend's (largest difference %d)", worst);
    const char *h[2] = {human_object(out[0]), human_object(out[1])};
    size_t len = h[0] ? strcspn(h[0], "}") : 0;
    CHECK(h[0] && h[1] && strncmp(h[0], h[1], len + 1) == 0,
          "in pieces: the \"human\" object is not the CPU's");
    CHECK(out[1] && strstr(out[1], "\"backend\": \"cpu\""), "in pieces: stats names no CPU");
    printf("Desk in pieces of %s px: export and stats ran the CPU reference (PNG %zu channels, "
           "largest difference %d)\n", PIECE, total, worst);
    for (int b = 0; b < 2; b++) {
        remove(png[b]);
        free(out[b]);
    }
}

/* stats of a sequence (two frames of Desk) with --human: the GPU's "human" objects the CPU's
 * (check_gpu_decisions' rule); in pieces, each frame noted and the output the CPU's. */
static void check_sequence(void)
{
    char link[2][256], seq[256], cmd[16384], note[300], *out[3] = {NULL, NULL, NULL};
    const char *in = test_shared_path("pcond-reference/Desk/input_decoded.exr");
    for (int k = 0; k < 2; k++) {
        snprintf(link[k], sizeof link[k], "%s/shot.%04d.exr", tmp, k + 1);
        CHECK(symlink(in, link[k]) == 0, "symlink %s", link[k]);
    }
    snprintf(seq, sizeof seq, "%s/shot.%%04d.exr", tmp);
    snprintf(note, sizeof note, "%s: " PIECES_NOTE, link[1]);
    for (int b = 0; b < 3; b++) {   /* the CPU backend, the GPU's, the GPU's in pieces */
        snprintf(cmd, sizeof cmd, "%s'%s' stats --backend %s --preset pcond --human --json '%s'",
                 b == 2 ? "HT_MAX_PIECE=" PIECE " " : "", bin, b ? "gpu" : "cpu", seq);
        CHECK(run(cmd, &out[b]) == 0, "%s failed: %s", cmd, last_stderr());
        CHECK(count_of(last_stderr(), note) == (b == 2), "%s: stderr '%s'", cmd, last_stderr());
    }
    double worst = 0;
    const char *c = human_object(out[0]), *g = human_object(out[1]);
    for (int k = 0; k < 2; k++, c = human_object(c + 1), g = human_object(g + 1))
        CHECK(c && g && same_but_rounding(g, c, &worst), "sequence frame %d: the GPU's "
              "\"human\" object is not the CPU's", k + 1);
    CHECK(out[0] && out[2] && strcmp(out[0], out[2]) == 0,
          "sequence in pieces: stats is not the CPU backend's");
    for (int k = 0; k < 3; k++)
        free(out[k]);
    for (int k = 0; k < 2; k++)
        remove(link[k]);
}

/* The options on hdrtone's defaults (pixel sampling, Rec. 709), and usage errors. */
static void check_defaults_and_errors(void)
{
    const char *in = test_shared_path("pcond-reference/Desk/input_decoded.exr");
    char cmd[16384], *out = NULL;
    snprintf(cmd, sizeof cmd, "'%s' stats --human --json '%s'", bin, in);
    CHECK(run(cmd, &out) == 0, "%s: %s", cmd, last_stderr());
    CHECK(out && strstr(out, "\"sampling\": \"pixels\"") &&
              strcmp(json_string(out, "veil"), "applied") == 0,
          "pixel sampling: veil '%s'", json_string(out, "veil"));
    free(out);
    snprintf(cmd, sizeof cmd, "'%s' stats --veil --acuity '%s'", bin, in);
    CHECK(run(cmd, &out) == 0 && out && strstr(out, "\nhuman         veil applied, acuity "),
          "%s: no human line", cmd);
    CHECK(out && !strstr(out, "colour applied"), "%s: colour applied unasked", cmd);
    free(out);
    snprintf(cmd, sizeof cmd, "'%s' stats '%s'", bin, in);
    CHECK(run(cmd, &out) == 0 && out && !strstr(out, "\nhuman "), "no option: a human line");
    free(out);
    snprintf(cmd, sizeof cmd, "'%s' export --human '%s' -o '%s/d.png' --depth 16", bin, in, tmp);
    CHECK(run(cmd, NULL) == 0, "%s: %s", cmd, last_stderr());
    static const struct { const char *args, *says; } bad[] = {
        {"export --human IN -o TMP/x.hdr --depth 16", "--depth is PNG's: hdr holds"},
        {"export --veil IN -o TMP/x.pfm --display-window", "pfm holds the linear output"},
        {"export IN -o TMP/x.png --format hdr", "names png, --format says hdr"},
        {"export --veil=on IN -o TMP/x.png", "--veil takes no value"},
        {"analyze --human IN -o TMP/an", "--human: unknown option"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char args[512] = "";
        for (const char *a = bad[i].args; *a;) {   /* IN and TMP substituted */
            size_t n = strlen(args);
            if (strncmp(a, "IN", 2) == 0) {
                snprintf(args + n, sizeof args - n, "'%s'", in);
                a += 2;
            } else if (strncmp(a, "TMP", 3) == 0) {
                snprintf(args + n, sizeof args - n, "%s", tmp);
                a += 3;
            } else {
                snprintf(args + n, sizeof args - n, "%c", *a++);
            }
        }
        snprintf(cmd, sizeof cmd, "'%s' %s", bin, args);
        int st = run(cmd, NULL);
        CHECK(st == 2 && strstr(last_stderr(), bad[i].says), "%s: exit %d, '%s' (want '%s')",
              bad[i].args, st, last_stderr(), bad[i].says);
    }
}

int main(void)
{
    bin = getenv("HT_BIN");
    if (!bin) {
        printf("skipped: HT_BIN not set\n");
        return SKIP_CODE;
    }
    snprintf(tmp, sizeof tmp, "/tmp/ht_human_cli.XXXXXX");
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return 1;
    }
    char names[64][64], dir[4096];
    snprintf(dir, sizeof dir, "%s", test_shared_path("pcond-reference"));
    int n = pcond_folders(dir, names, 64);
    CHECK(n >= 10, "only %d folders in %s", n, dir);
    gpu = gpu_runs(test_shared_path("pcond-reference/Desk/input_decoded.exr"));
    for (int i = 0; i < n; i++)
        check_folder(dir, names[i]);
    printf("worst over the folders: curve (max |dlog10 Ld|) / .hdr beyond a step (p99, worst):\n");
    for (size_t mi = 0; mi < HUMAN_RUN_COUNT; mi++)
        printf("  -%-3s %.4f / %.2e %.2e\n", HUMAN_MODES[mi].column, worst_curve[mi], p99_pic[mi],
               worst_pic[mi]);
    if (gpu) {
        printf("GPU over the folders: curve vs pcond's (max |dlog10 "
               "Ld|); PNG channels more than one step from the CPU's (largest difference); "
               "\"human\" numbers vs the CPU's, largest relative difference:\n");
        for (size_t mi = 0; mi < HUMAN_RUN_COUNT; mi++)
            printf("  -%-3s %.4f; %zu of %zu = %.4f %% (%d); %.2e\n", HUMAN_MODES[mi].column,
                   worst_gpu_curve[mi], png_off1[mi], png_channels[mi],
                   100.0 * (double)png_off1[mi] /
                       (double)(png_channels[mi] ? png_channels[mi] : 1),
                   png_worst[mi], human_worst[mi]);
        check_pieces();
        check_sequence();
    }
    check_radiance_input(dir);
    check_defaults_and_errors();
    char path[128];
    snprintf(path, sizeof path, "%s/stderr", tmp);
    remove(path);
    snprintf(path, sizeof path, "%s/d.png", tmp);
    remove(path);
    rmdir(tmp);
    return test_finish("test_human_cli");
}
