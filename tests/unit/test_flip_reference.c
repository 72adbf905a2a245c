/* The CPU reference of FLIP against the authors' tool on every pair of
 * ../shared/flip-reference (flip/RESULTS.tsv and the tool's grey maps): pooled mean within
 * 0.001, weighted median and quartiles within 0.003, min and max within 0.003, HDR-FLIP's
 * exposures as printed (4 decimals), and the grey map round(255 e) within 1 level on at least
 * 99.5 % of the pixels. */
#define _DEFAULT_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "flip.h"
#include "colour.h"
#include "flip_input.h"
#include "image_ldr.h"
#include "testutil.h"

enum { COLS = 13 };

/* Splits LINE at tabs into at most COLS fields (empty fields kept). */
static int split_tabs(char *line, char *f[COLS])
{
    int n = 0;
    line[strcspn(line, "\r\n")] = '\0';
    for (char *p = line; n < COLS && p; n++)
        f[n] = strsep(&p, "\t");
    return n;
}

static void check_grey_map(const char *dir, const char *kind_name, const float *map, int w,
                           int h)
{
    char path[2200], err[HT_ERR_MAX];
    snprintf(path, sizeof path, "%s/flip/%s.png", dir, kind_name);
    ldr_image grey;
    if (!image_ldr_load(path, 0, &grey, err, sizeof err)) {
        CHECK(false, "%s", err);
        return;
    }
    CHECK(grey.width == w && grey.height == h, "%s size", path);
    size_t n = (size_t)w * h, off = 0, worst = 0;
    for (size_t i = 0; grey.width == w && grey.height == h && i < n; i++) {
        float e = map[i] < 0 ? 0 : map[i] > 1 ? 1 : map[i];
        long ours = lroundf(255.0f * e), theirs = lroundf(grey.rgb[i * 3] * 255.0f);
        size_t d = (size_t)labs(ours - theirs);
        off += d > 1;
        worst = d > worst ? d : worst;
    }
    printf("  grey map: %zu of %zu pixels more than 1 level off (worst %zu)\n", off, n, worst);
    CHECK(off * 1000 <= n * 5, "%s: %zu pixels more than 1 level off", kind_name, off);
    image_ldr_free(&grey);
}

static void check_row(const char *dir, char **f)
{
    char rp[2300], tp[2300], err[HT_ERR_MAX];
    snprintf(rp, sizeof rp, "%s/%s", dir, f[0]);
    snprintf(tp, sizeof tp, "%s/%s", dir, f[1]);
    flip_input ref, test;
    if (!flip_input_load(rp, NULL, HT_WHITE_ABSOLUTE, &ref, err, sizeof err) ||
        !flip_input_load(tp, NULL, HT_WHITE_ABSOLUTE, &test, err, sizeof err)) {
        CHECK(false, "%s", err);
        return;
    }
    CHECK(flip_input_check_pair(&ref, rp, &test, tp, err, sizeof err), "%s", err);
    flip_params p = {0};
    CHECK_NEAR(p.ppd > 0 ? p.ppd : flip_default_ppd(), atof(f[3]), 0.5);
    float *map = malloc((size_t)ref.width * ref.height * sizeof *map);
    bool ok;
    if (ref.hdr) {
        flip_exposures ex;
        ok = flip_exposures_for(ref.rgb, ref.width, ref.height, 3, &p, &ex, err, sizeof err);
        CHECK(ok, "%s", err);
        CHECK_NEAR(ex.start, atof(f[4]), 6e-5);
        CHECK_NEAR(ex.stop, atof(f[5]), 6e-5);
        CHECK_EQ(ex.count, atoi(f[6]));
        ok = ok && flip_hdr(ref.rgb, test.rgb, ref.width, ref.height, 3, &p, &ex, map, err,
                            sizeof err);
    } else {
        ok = flip_ldr(ref.rgb, test.rgb, ref.width, ref.height, 3, &p, map, err, sizeof err);
    }
    CHECK(ok, "%s", err);
    flip_pooled pv;
    if (ok && flip_pool(map, ref.width, ref.height, NULL, &pv, err, sizeof err)) {
        printf("%s vs %s: mean %.6f (%s) median %.6f (%s) q1 %.6f (%s) q3 %.6f (%s) "
               "min %.6f (%s) max %.6f (%s)\n", f[0], f[1], pv.mean, f[7],
               pv.weighted_median, f[8], pv.q1, f[9], pv.q3, f[10], pv.min, f[11], pv.max,
               f[12]);
        CHECK_NEAR(pv.mean, atof(f[7]), 0.001);
        CHECK_NEAR(pv.weighted_median, atof(f[8]), 0.003);
        CHECK_NEAR(pv.q1, atof(f[9]), 0.003);
        CHECK_NEAR(pv.q3, atof(f[10]), 0.003);
        CHECK_NEAR(pv.min, atof(f[11]), 0.003);
        CHECK_NEAR(pv.max, atof(f[12]), 0.003);
        char kind_name[512];
        snprintf(kind_name, sizeof kind_name, "%.*s.%s", (int)strcspn(f[0], "."), f[0], f[2]);
        check_grey_map(dir, kind_name, map, ref.width, ref.height);
    }
    free(map);
    flip_input_free(&ref);
    flip_input_free(&test);
}

int main(void)
{
    char dir[1024];
    snprintf(dir, sizeof dir, "%s", test_shared_path("flip-reference"));
    char tsv[1100];
    snprintf(tsv, sizeof tsv, "%s/flip/RESULTS.tsv", dir);
    FILE *f = fopen(tsv, "r");
    if (!f) {
        fprintf(stderr, "skipped: no %s\n", tsv);
        return SKIP_CODE;
    }
    char line[2048];
    int rows = 0;
    while (fgets(line, sizeof line, f)) {
        char *fld[COLS];
        if (split_tabs(line, fld) != COLS || strcmp(fld[0], "reference") == 0)
            continue;
#ifdef __SANITIZE_ADDRESS__
        /* The sanitizers' build (-O0) takes minutes for all 24: Cannon's pairs there. */
        if (strncmp(fld[0], "Cannon.", 7) != 0)
            continue;
#endif
        check_row(dir, fld);
        rows++;
    }
    fclose(f);
#ifdef __SANITIZE_ADDRESS__
    CHECK(rows >= 8, "only %d Cannon pairs in %s", rows, tsv);
#else
    CHECK(rows >= 24, "only %d pairs in %s", rows, tsv);
#endif
    return test_finish("test_flip_reference");
}
