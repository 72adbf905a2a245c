/* export's linear output with the human-vision options against Radiance pcond's pictures, in
 * process (batch_export on the CPU backend, which writes every .hdr and .pfm): for each
 * folder of $HT_SHARED/pcond-reference with an out_<run>.exr (pcond -h, -v, -a, -c, -v -s;
 * pcond-reference/README_human.md), from input_decoded.exr with --preset pcond:
 *  - the .hdr stores what pcond stored: within 1 % plus one RGBE step for 99 % of the pixels
 *    and 3 % plus a step for all (as test_pcond_human), EXPOSURE as pcond's header;
 *  - the .pfm holds the floats whose RGBE are the .hdr's, exactly;
 * and venice_sunset_1k's Radiance picture decoded as Radiance does ((m + 0.5) 2^(e-136),
 * --preset pcond) gives pcond's curves within 0.001 log10 with --scale 179; decoded
 * m 2^(e-136) they miss (printed). tests/cli/test_human_cli.sh checks the command line. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "batch.h"
#include "encode.h"
#include "pcond_ref.h"
#include "testutil.h"

#define PIXEL_TOL 0.01      /* for 99 % of the pixels, beyond one RGBE step */
#define PIXEL_TOL_ALL 0.03  /* for every pixel */
#define HALF_STEP 6e-8      /* the out_*.exr are half: the subnormal step */

static char tmp[64];
static cmd_backend *be;
static double worst_pic[HUMAN_RUN_COUNT], p99_pic[HUMAN_RUN_COUNT];

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

/* export --preset pcond MODE IN -o OUT, OUT's extension naming the format. */
static bool export_to(const char *in, size_t mi, encode_format format, const char *out)
{
    ht_options o;
    options_default(&o);
    o.preset = HT_PRESET_PCOND;
    human_mode_params(&HUMAN_MODES[mi], &o.tm);
    o.backend = HT_BACKEND_CPU;
    o.format = format;
    return batch_export(be, &o, &in, &out, 1, NULL) == 0;
}

/* Each pixel's error (pcond_pixel_error) and the .pfm's channels that are not the .hdr's
 * RGBE into *pfm_off; ERRS gets N errors. OURS: the .hdr as loaded (EXPOSURE divided out),
 * FL the .pfm, REF pcond's picture. */
static void pixel_errors(const hdr_image *ours, const hdr_image *fl, const hdr_image *ref,
                         size_t n, double *errs, size_t *pfm_off)
{
    for (size_t k = 0; k < n; k++) {
        double stored[3], want[3], raw;
        uint8_t rgbe[4];
        const float *f = fl->rgba + 4 * k;
        encode_rgbe(f[0], f[1], f[2], rgbe);
        for (int c = 0; c < 3; c++) {
            /* what the file stores: the loader divided the EXPOSURE out */
            stored[c] = (float)(ours->rgba[4 * k + c] * ours->exposure);
            want[c] = ref->rgba[4 * k + c];
            /* the .pfm's value stored as RGBE, read back as Radiance does */
            float back = rgbe[3] ? ldexpf(rgbe[c] + 0.5f, rgbe[3] - 136) : 0.0f;
            *pfm_off += fabs(back - stored[c]) > 1e-6 * stored[c];
        }
        errs[k] = pcond_pixel_error(stored, want, HALF_STEP, &raw);
    }
}

/* .hdr and .pfm of the picture against pcond's out_<run>.exr. */
static void check_picture(const char *dir, const char *name, size_t mi, const tsv *params)
{
    char file[64], hdr[256], pfm[256], err[HT_ERR_MAX], in[4096];
    const char *col = HUMAN_MODES[mi].column;
    snprintf(file, sizeof file, "out_%s.exr", col);
    hdr_image ref = {0}, ours = {0}, fl = {0};
    if (!image_load(ref_path(dir, name, file), NULL, &ref, err, sizeof err))
        return;   /* only the three smallest pictures have one */
    snprintf(hdr, sizeof hdr, "%s/%.63s_%s.hdr", tmp, name, col);
    snprintf(pfm, sizeof pfm, "%s/%.63s_%s.pfm", tmp, name, col);
    snprintf(in, sizeof in, "%s", ref_path(dir, name, "input_decoded.exr"));
    CHECK(export_to(in, mi, ENCODE_HDR, hdr) && export_to(in, mi, ENCODE_PFM, pfm),
          "%s -%s: export failed", name, col);
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
    if (errs && n) {
        pixel_errors(&ours, &fl, &ref, n, errs, &pfm_off);
        for (size_t k = 0; k < n; k++)
            over += errs[k] > PIXEL_TOL;
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

/* venice_sunset_1k from its Radiance picture: the eight runs' curves, decoded both ways. */
static void check_radiance_input(const char *dir)
{
    static const struct { const char *curve, *options; } runs[] = {
        {"default", ""},  {"s", "--ceiling human"}, {"l", "--linear"},
        {"h", "--human"}, {"v", "--veil"},          {"a", "--acuity"},
        {"c", "--color-loss"}, {"vs", "--veil --ceiling human"},
    };
    const char *hdr = test_shared_path("exr-samples/venice_sunset_1k.hdr");
    char file[64], err[HT_ERR_MAX];
    hdr_image old_img, img;
    image_load_options radiance = {.rgbe_mid = true};
    if (!image_load(hdr, NULL, &old_img, err, sizeof err) ||
        !image_load(hdr, &radiance, &img, err, sizeof err)) {
        CHECK(0, "%s", err);
        return;
    }
    printf("venice_sunset_1k.hdr --scale 179, max |dlog10 Ld| vs pcond: m 2^(e-136) / (m+0.5) "
           "2^(e-136)\n");
    tonemap_result *r = malloc(sizeof *r);
    for (size_t i = 0; r && i < sizeof runs / sizeof runs[0]; i++) {
        tonemap_params p;
        tonemap_params_default(&p);
        tonemap_apply_preset(&p, HT_PRESET_PCOND);
        p.scale = 179;
        p.ceiling = strstr(runs[i].options, "human") ? HT_CEILING_HUMAN : HT_CEILING_LINEAR;
        p.force_linear = strstr(runs[i].options, "linear") != NULL;
        p.veil = strstr(runs[i].options, "veil") || strstr(runs[i].options, "--human");
        p.acuity = strstr(runs[i].options, "acuity") || strstr(runs[i].options, "--human");
        p.color_loss = strstr(runs[i].options, "color") || strstr(runs[i].options, "--human");
        snprintf(file, sizeof file, "curve_%s.txt", runs[i].curve);
        char ref[4096];
        snprintf(ref, sizeof ref, "%s", ref_path(dir, "venice_sunset_1k", file));
        double miss[2];
        for (int k = 0; k < 2; k++) {
            int npts;
            double at;
            tonemap_cpu_analyze(k ? &img : &old_img, &p, r);
            miss[k] = curve_deviation(ref, r, &p, tonemap_curve_ld_pcond, &npts, &at);
        }
        printf("  %-8s %.4f / %.4f\n", runs[i].curve, miss[0], miss[1]);
        CHECK(miss[1] >= 0 && miss[1] <= 0.001, "venice .hdr %s: misses pcond's curve by %.4f",
              runs[i].curve, miss[1]);
    }
    free(r);
    image_free(&old_img);
    image_free(&img);
}

int main(void)
{
    char names[64][64], dir[4096], err[HT_ERR_MAX];
    snprintf(dir, sizeof dir, "%s", test_shared_path("pcond-reference"));
    snprintf(tmp, sizeof tmp, "/tmp/ht_pcond_export.XXXXXX");
    if (!mkdtemp(tmp)) {
        perror("mkdtemp");
        return 1;
    }
    ht_options o;
    options_default(&o);
    o.backend = HT_BACKEND_CPU;
    if (!(be = backend_create(&o, err, sizeof err))) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    int n = pcond_folders(dir, names, 64);
    CHECK(n >= 10, "only %d folders in %s", n, dir);
    for (int i = 0; i < n; i++) {
        tsv params;
        if (!tsv_read(ref_path(dir, names[i], "params_human.tsv"), 0, &params))
            continue;
        for (size_t mi = 0; mi < HUMAN_RUN_COUNT; mi++)
            check_picture(dir, names[i], mi, &params);
        tsv_free(&params);
    }
    printf("worst over the folders, .hdr beyond a step (p99, worst):\n");
    for (size_t mi = 0; mi < HUMAN_RUN_COUNT; mi++)
        printf("  -%-3s %.2e %.2e\n", HUMAN_MODES[mi].column, p99_pic[mi], worst_pic[mi]);
    check_radiance_input(dir);
    backend_destroy(&be);
    rmdir(tmp);
    return test_finish("test_pcond_export");
}
